/// Which properties of an object changed, as bits: an object with up to 64
/// attributes (or relationships) tracks them without allocating. Two words and
/// no count: every managed object holds two masks, and the set bits are all a
/// caller ever walks.
struct ChangeMask {
    private var low: UInt64 = 0
    /// Bits 64 and up, grown on the first change past 64.
    private var high: [UInt64] = []

    subscript(index: Int) -> Bool {
        get {
            if index < 64 { return (low >> UInt64(index)) & 1 == 1 }
            let bit = index - 64
            guard bit >> 6 < high.count else { return false }
            return (high[bit >> 6] >> UInt64(bit & 63)) & 1 == 1
        }
        set {
            if index < 64 {
                let mask: UInt64 = 1 << UInt64(index)
                low = newValue ? low | mask : low & ~mask
                return
            }
            let bit = index - 64
            let word = bit >> 6
            if word >= high.count {
                guard newValue else { return }
                high.append(contentsOf: repeatElement(0, count: word - high.count + 1))
            }
            let mask: UInt64 = 1 << UInt64(bit & 63)
            high[word] = newValue ? high[word] | mask : high[word] & ~mask
        }
    }

    /// Whether no bit is set.
    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    /// The indexes of the set bits, ascending (no array at all when none is set).
    var setIndices: [Int] {
        var indices: [Int] = []
        Self.appendSetBits(of: low, from: 0, to: &indices)
        for (word, bits) in high.enumerated() { Self.appendSetBits(of: bits, from: 64 * (word + 1), to: &indices) }
        return indices
    }

    private static func appendSetBits(of bits: UInt64, from base: Int, to indices: inout [Int]) {
        var remaining = bits
        while remaining != 0 {
            indices.append(base + remaining.trailingZeroBitCount)
            remaining &= remaining - 1
        }
    }

    mutating func clearAll() {
        low = 0
        high = []
    }
}
