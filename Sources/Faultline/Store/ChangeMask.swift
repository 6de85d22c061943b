/// Which properties of an object changed (or which entities a commit wrote
/// rows of), as bits: an object with up to 64 attributes (or relationships)
/// tracks them without allocating. Two words and no count: the set bits are
/// all a caller ever walks. An object keeps its two masks in `ChangeMasks`.
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

extension ChangeMask {
    fileprivate init(words low: UInt64, _ high: [UInt64]) {
        self.init()
        self.low = low
        self.high = high
    }

    fileprivate var parts: (low: UInt64, high: [UInt64]) { (low, high) }
}

/// An object's two masks, which attributes and which relationships changed,
/// in three words rather than two `ChangeMask`s' four: both first 64 bits
/// inline, the bits past them of both in one array, attributes' words at
/// even positions and relationships' at odd ones. The word saved is part
/// of what keeps a `ManagedObject` at 160 bytes (`RowOrBatch`).
struct ChangeMasks {
    private var attributes: UInt64 = 0
    private var relationships: UInt64 = 0
    private var high: [UInt64] = []

    subscript(attribute index: Int) -> Bool {
        @inline(__always) get { bit(index, lane: 0) }
        @inline(__always) set { setBit(index, lane: 0, to: newValue) }
    }

    subscript(relationship index: Int) -> Bool {
        @inline(__always) get { bit(index, lane: 1) }
        @inline(__always) set { setBit(index, lane: 1, to: newValue) }
    }

    /// The attributes' mask, as one `ChangeMask`.
    var attributeMask: ChangeMask {
        get { mask(lane: 0) }
        set { setMask(newValue, lane: 0) }
    }

    /// The relationships' mask, as one `ChangeMask`.
    var relationshipMask: ChangeMask {
        get { mask(lane: 1) }
        set { setMask(newValue, lane: 1) }
    }

    /// Whether neither mask has a bit set.
    var isEmpty: Bool { attributes == 0 && relationships == 0 && high.allSatisfy { $0 == 0 } }

    mutating func clearAll() {
        attributes = 0
        relationships = 0
        high = []
    }

    /// Bit `index` of lane 0 (attributes) or 1 (relationships).
    @inline(__always)
    private func bit(_ index: Int, lane: Int) -> Bool {
        if index < 64 { return ((lane == 0 ? attributes : relationships) >> UInt64(index)) & 1 == 1 }
        let bit = index - 64
        let position = 2 * (bit >> 6) + lane
        return position < high.count && (high[position] >> UInt64(bit & 63)) & 1 == 1
    }

    @inline(__always)
    private mutating func setBit(_ index: Int, lane: Int, to value: Bool) {
        if index < 64 {
            if lane == 0 { Self.set(&attributes, bit: index, to: value) } else { Self.set(&relationships, bit: index, to: value) }
            return
        }
        let bit = index - 64
        let position = 2 * (bit >> 6) + lane
        if position >= high.count {
            guard value else { return }
            high.append(contentsOf: repeatElement(0, count: position - high.count + 1))
        }
        Self.set(&high[position], bit: bit & 63, to: value)
    }

    @inline(__always)
    private static func set(_ word: inout UInt64, bit: Int, to value: Bool) {
        let mask: UInt64 = 1 << UInt64(bit)
        word = value ? word | mask : word & ~mask
    }

    private func mask(lane: Int) -> ChangeMask {
        ChangeMask(words: lane == 0 ? attributes : relationships,
                   high.isEmpty ? [] : stride(from: lane, to: high.count, by: 2).map { high[$0] })
    }

    private mutating func setMask(_ mask: ChangeMask, lane: Int) {
        let (low, words) = mask.parts
        if lane == 0 { attributes = low } else { relationships = low }
        let needed = words.isEmpty ? 0 : 2 * (words.count - 1) + lane + 1
        if needed > high.count { high.append(contentsOf: repeatElement(0, count: needed - high.count)) }
        var word = 0
        for position in stride(from: lane, to: high.count, by: 2) {
            high[position] = word < words.count ? words[word] : 0
            word += 1
        }
    }
}
