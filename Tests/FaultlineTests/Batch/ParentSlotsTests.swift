import Testing
@testable import Faultline

/// The key-to-slot table the writer's parent totals use: each key gets the
/// next slot the first time and the same slot after, through every growth.
@Suite("Parent keys to total slots")
struct ParentSlotsTests {
    @Test("Keys of every shape keep the slot they were first given, and every pair is listed once")
    func slotsAreStable() {
        var table = ParentSlots()
        // Dense, sparse, negative, extreme and keys that differ only in high bits.
        let keys: [Int64] = Array(1...40) + [0, -1, .min, .max, 1 << 40, 2 << 40, 3 << 40] + (0..<30).map { Int64($0) << 32 }
        var expected: [Int64: Int] = [:]
        for key in keys + keys.reversed() + keys {
            let (slot, isNew) = table.slot(for: key)
            if let known = expected[key] {
                #expect(slot == known && !isNew)
            } else {
                #expect(isNew && slot == expected.count)
                expected[key] = slot
            }
        }
        #expect(table.count == expected.count)
        #expect(table.pairs.count == expected.count)
        #expect(Dictionary(uniqueKeysWithValues: table.pairs.map { ($0.key, $0.slot) }) == expected)
    }
}
