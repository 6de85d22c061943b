import Testing
@testable import FaultlineSQLite

/// `UTF8Text` agrees with the standard library on every input: the same
/// well-formed/ill-formed verdict, the same `String`, repairs included.
@Suite("UTF-8 text from SQLite")
struct UTF8TextTests {
    /// Whether `UTF8Text` gives the standard library's verdict and string
    /// for `bytes` (checked without `#expect` per input: there are 50,000).
    private func agrees(_ bytes: [UInt8]) -> Bool {
        let expected: UTF8Text.Form =
            String(validating: bytes, as: UTF8.self) == nil ? .illFormed
            : bytes.allSatisfy { $0 < 0x80 } ? .ascii : .wellFormed
        return bytes.withUnsafeBufferPointer { buffer in
            let repaired = String(decoding: buffer, as: UTF8.self)
            let text = UTF8Text.string(buffer)
            return UTF8Text.classify(buffer) == expected && text == repaired && text.utf8.elementsEqual(repaired.utf8)
        }
    }

    @Test("Every lead byte with continuation bytes at the table 3-7 boundaries, inside and at the end of a word")
    func boundarySequences() {
        let continuations: [UInt8] = [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        let padding = Array("abcdefghij".utf8)
        var disagreements: [[UInt8]] = []
        for lead in UInt8.min...UInt8.max {
            for first in continuations {
                if !agrees([lead, first]) { disagreements.append([lead, first]) }
                for second in continuations {
                    // A third continuation byte decides only after a four-byte lead;
                    // elsewhere an ASCII byte ends the sequence cleanly.
                    for third in lead >= 0xF0 ? continuations : [0x41] {
                        let sequence = [lead, first, second, third]
                        // Past eight bytes (the word-at-a-time path), and as the tail.
                        for bytes in [padding + sequence + padding, Array(padding.prefix(3)) + sequence]
                        where !agrees(bytes) {
                            disagreements.append(bytes)
                        }
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("Truncated sequences at the end of the text are ill-formed")
    func truncatedTails() {
        for sequence: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xE2], [0xF0, 0x9F]] {
            let bytes = Array("12345678abc".utf8) + sequence
            #expect(agrees(bytes))
            bytes.withUnsafeBufferPointer { #expect(UTF8Text.classify($0) == .illFormed) }
        }
    }

    @Test("Seeded random mixes of ASCII, accented, astral and stray bytes")
    func randomMixes() {
        var state: UInt64 = 0x0DDB_A11
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let pieces: [[UInt8]] = [Array("plain ascii ".utf8), Array("café".utf8), Array("crème".utf8),
                                 Array("𝄞".utf8), Array("€".utf8), [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80]]
        var disagreements: [[UInt8]] = []
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 12) {
                // Mostly well-formed pieces, so both verdicts are common.
                let index = Int(next() % UInt64(pieces.count + 6))
                bytes += pieces[index < pieces.count ? index : Int(next() % 5)]
            }
            if !agrees(bytes) { disagreements.append(bytes) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("Empty text, and an empty BLOB read as text, are empty strings; only NULL is nil")
    func emptyText() throws {
        let connection = try Connection(.inMemory)
        let statement = try connection.cachedStatement("SELECT '', NULL, x'', CAST(x'' AS TEXT)")
        defer { statement.reset() }
        #expect(try statement.step())
        #expect(statement.string(at: 0) == "")
        #expect(statement.string(at: 1) == nil)
        // Only NULL reads as nil: an empty BLOB read as text is empty text.
        #expect(statement.string(at: 2) == "")
        #expect(statement.string(at: 3) == "")
    }

    @Test("Ill-formed bytes stored as TEXT read back repaired, as String(decoding:) repairs them")
    func illFormedColumn() throws {
        let connection = try Connection(.inMemory)
        let bytes: [UInt8] = Array("caf".utf8) + [0xC3] + Array(" crème ".utf8) + [0xED, 0xA0, 0x80, 0x41]
        let statement = try connection.cachedStatement("SELECT CAST(? AS TEXT)")
        defer { statement.reset() }
        try statement.bind(bytes, at: 1)
        #expect(try statement.step())
        let read = try #require(statement.string(at: 0))
        #expect(read == String(decoding: bytes, as: UTF8.self))
        #expect(read.unicodeScalars.filter { $0 == "\u{FFFD}" }.count == 4)
    }
}
