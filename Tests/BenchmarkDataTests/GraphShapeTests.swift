import BenchmarkData
import Testing

@Suite("Graph shapes")
struct GraphShapeTests {
    @Test("PARENTSxFANOUT[xFANOUT] parses into levels")
    func parses() throws {
        let shape = try GraphShape(parsing: "1000x100x10")
        #expect(shape.parents == 1_000)
        #expect(shape.fanOuts == [100, 10])
        #expect(shape.depth == 3)
        #expect(shape.levelCounts == [1_000, 100_000, 1_000_000])
        #expect(shape.description == "1000x100x10")
        #expect(try GraphShape(parsing: "1_000X20").fanOuts == [20])
        // The cap counts every level: 1 + 19,999,999 objects is exactly the limit.
        #expect(try GraphShape(parsing: "1x19999999").objectCount == GraphShape.maximumObjects)
    }

    @Test("Malformed or impossible shapes are refused with a message", arguments: [
        "1000", "", "x", "10xx5", "ax10", "0x10", "10x0", "10x-1", "1x2x3x4", "100000x1000x1000",
        // Products past Int.max are refused, not trapped on.
        "9223372036854775807x1", "3037000500x3037000500", "2x9223372036854775807", "4000000x4000000x4000000", "1x20000000",
    ])
    func refuses(_ text: String) {
        #expect(throws: ObjectGraphInputError.self) { try GraphShape(parsing: text) }
    }
}

@Suite("Access patterns")
struct AccessPatternTests {
    @Test("Sequential touches the first parents; at least one")
    func sequential() throws {
        let pattern = try AccessPattern(fraction: 0.1, order: .sequential, keyPaths: ["books"])
        #expect(pattern.touchedParents(of: 1_000) == Array(0..<100))
        #expect(pattern.touchedParents(of: 3) == [0])
        #expect(pattern.depth == 1)
    }

    @Test("Random is a seeded sample without repeats, the same every time")
    func random() throws {
        let pattern = try AccessPattern(fraction: 0.25, order: .random, keyPaths: ["books.chapters"])
        let touched = pattern.touchedParents(of: 400)
        #expect(touched.count == 100)
        #expect(Set(touched).count == 100)
        #expect(touched.allSatisfy { (0..<400).contains($0) })
        #expect(touched != Array(0..<100))
        #expect(pattern.touchedParents(of: 400) == touched)
        let other = try AccessPattern(fraction: 0.25, order: .random, keyPaths: ["books"], seed: 7)
        #expect(other.touchedParents(of: 400) != touched)
        #expect(pattern.depth == 2)
        #expect(try AccessPattern(fraction: 1, order: .random, keyPaths: ["books"]).touchedParents(of: 50).sorted() == Array(0..<50))
    }

    @Test("Bad --touch, --order and --keypaths values are refused", arguments: [
        ("abc", "random", "books"), ("0", "random", "books"), ("1.5", "random", "books"), ("nan", "random", "books"),
        ("0.1", "shuffled", "books"), ("0.1", "random", "authors"), ("0.1", "random", ""),
    ])
    func refuses(_ touch: String, _ order: String, _ keyPaths: String) {
        #expect(throws: ObjectGraphInputError.self) {
            try AccessPattern(touch: touch, order: order, keyPaths: keyPaths)
        }
    }
}
