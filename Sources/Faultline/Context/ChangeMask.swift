/// Which properties of an object changed, as bits: an object with up to 64
/// attributes (or relationships) tracks them without allocating.
struct ChangeMask: MutableCollection, RandomAccessCollection {
    private var low: UInt64 = 0
    private var high: [UInt64] = []
    let count: Int

    init(count: Int) {
        self.count = count
        if count > 64 { high = Array(repeating: 0, count: (count - 64 + 63) / 64) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Bool {
        get {
            if index < 64 { return (low >> UInt64(index)) & 1 == 1 }
            let bit = index - 64
            return (high[bit >> 6] >> UInt64(bit & 63)) & 1 == 1
        }
        set {
            if index < 64 {
                let mask: UInt64 = 1 << UInt64(index)
                low = newValue ? low | mask : low & ~mask
            } else {
                let bit = index - 64
                let mask: UInt64 = 1 << UInt64(bit & 63)
                high[bit >> 6] = newValue ? high[bit >> 6] | mask : high[bit >> 6] & ~mask
            }
        }
    }

    /// Whether any bit is set.
    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    mutating func clearAll() {
        low = 0
        for index in high.indices { high[index] = 0 }
    }
}
