/// Parents' keys to the positions of their totals (InsertedChildTotals):
/// open addressing with linear probing over a power-of-two table kept at
/// most half full, hashed by one multiplication. Children of one parent
/// rarely come together (rows are in key order, parents in any order), so
/// every child looks its parent up: a `Dictionary` hashed each key with
/// SipHash.
struct ParentSlots {
    private var keys: [Int64]
    private var slots: [Int]
    /// Slots handed out; also the next one.
    private(set) var count = 0
    private var mask: Int

    init() {
        mask = 15
        keys = Array(repeating: 0, count: mask + 1)
        slots = Array(repeating: -1, count: mask + 1)
    }

    /// The slot of `key`, handing out the next one (`count` before the
    /// call) to a new key; `isNew` says which.
    @inline(__always)
    mutating func slot(for key: Int64) -> (slot: Int, isNew: Bool) {
        var index = Self.home(key, mask)
        while slots[index] >= 0 {
            if keys[index] == key { return (slots[index], false) }
            index = (index &+ 1) & mask
        }
        let slot = count
        keys[index] = key
        slots[index] = slot
        count += 1
        if count * 2 > mask + 1 { grow() }
        return (slot, true)
    }

    /// Every key with its slot.
    var pairs: [(key: Int64, slot: Int)] {
        slots.indices.compactMap { slots[$0] >= 0 ? (keys[$0], slots[$0]) : nil }
    }

    @inline(__always)
    private static func home(_ key: Int64, _ mask: Int) -> Int {
        // Fibonacci hashing: the high bits of the product are well mixed.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func grow() {
        let old = pairs
        mask = mask * 2 + 1
        keys = Array(repeating: 0, count: mask + 1)
        slots = Array(repeating: -1, count: mask + 1)
        for (key, slot) in old {
            var index = Self.home(key, mask)
            while slots[index] >= 0 { index = (index &+ 1) & mask }
            keys[index] = key
            slots[index] = slot
        }
    }
}
