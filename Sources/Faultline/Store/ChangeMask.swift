/// Which properties of an object changed (or which entities a commit wrote
/// rows of), as bits: an object with up to 64 attributes (or relationships)
/// tracks them without allocating. Two words and
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

    /// The indexes of the set bits, ascending, walked without an array: a
    /// save walks every changed object's masks.
    var setIndices: SetBits { SetBits(low: low, high: high) }

    struct SetBits: Sequence, IteratorProtocol {
        /// The word being walked, its first index, and the words after it.
        private var bits: UInt64
        private var base = 0
        private let high: [UInt64]
        private var nextWord = 0

        init(low: UInt64, high: [UInt64]) {
            bits = low
            self.high = high
        }

        mutating func next() -> Int? {
            while bits == 0 {
                guard nextWord < high.count else { return nil }
                bits = high[nextWord]
                nextWord += 1
                base = 64 * nextWord
            }
            let index = base + bits.trailingZeroBitCount
            bits &= bits - 1
            return index
        }
    }

    mutating func clearAll() {
        low = 0
        high = []
    }
}
