/// Text SQLite hands back, turned into a `String`.
///
/// SQLite never checks that TEXT is well-formed UTF-8, so the bytes must be
/// validated before they become a `String`. The standard library's validator
/// walks a string that is not entirely ASCII one byte at a time; text read
/// from a store is mostly ASCII with an accented word here and there, so this
/// one skips ASCII sixteen bytes at a time (a short tail in one word) and checks only the multi-byte
/// sequences (Unicode 15, table 3-7), then hands the validated bytes to
/// `String(copying:)` without a second scan. Ill-formed input takes the
/// standard library's repairing path, so the result is always exactly
/// `String(decoding: bytes, as: UTF8.self)`.
public enum UTF8Text {
    /// What a scan of a buffer found.
    public enum Form: Sendable, Equatable {
        case ascii
        case wellFormed
        case illFormed
    }

    @inline(__always)
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let form = classify(bytes)
        if form == .illFormed { return String(decoding: bytes, as: UTF8.self) }
        let span = unsafe Span(_unsafeElements: bytes)
        return String(copying: unsafe UTF8Span(unchecked: span, isKnownASCII: form == .ascii))
    }

    public static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> Form {
        guard let base = bytes.baseAddress else { return .ascii }
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        @inline(__always) func highBits(at offset: Int) -> UInt64 {
            raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian & 0x8080_8080_8080_8080
        }
        var ascii = true
        var index = 0
        while index < count {
            let remaining = count &- index
            // `high` marks the non-ASCII bytes of the next word, its lowest
            // byte being `index`.
            let high: UInt64
            if remaining >= 16 {
                let first = highBits(at: index)
                let second = highBits(at: index &+ 8)
                if first | second == 0 {
                    index &+= 16
                    continue
                }
                if first == 0 {
                    index &+= 8
                    high = second
                } else {
                    high = first
                }
            } else if remaining >= 8 {
                high = highBits(at: index)
                if high == 0 {
                    index &+= 8
                    continue
                }
            } else if count >= 8 {
                // The tail: the last eight bytes, shifted past those checked.
                high = highBits(at: count &- 8) >> UInt64((8 &- remaining) &* 8)
                if high == 0 { break }
            } else {
                if base[index] < 0x80 {
                    index &+= 1
                    continue
                }
                high = 0x80
            }
            index &+= high.trailingZeroBitCount >> 3
            ascii = false
            let length = sequenceLength(base, at: index, count: count)
            if length == 0 { return .illFormed }
            index &+= length
        }
        return ascii ? .ascii : .wellFormed
    }

    /// The length of the well-formed multi-byte sequence at `index`, 0 when
    /// it is ill-formed or truncated.
    @inline(__always)
    private static func sequenceLength(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Int {
        let lead = base[index]
        // The bounds of the second byte depend on the lead (no overlongs, no
        // surrogates, nothing past U+10FFFF); later bytes are 80...BF.
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        guard count &- index >= length else { return 0 }
        let second = base[index &+ 1]
        guard second >= low, second <= high else { return 0 }
        var position = 2
        while position < length {
            guard base[index &+ position] & 0xC0 == 0x80 else { return 0 }
            position &+= 1
        }
        return length
    }
}
