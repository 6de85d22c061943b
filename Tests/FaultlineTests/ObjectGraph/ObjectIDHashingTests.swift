import Testing
@testable import Faultline

@Suite("Stored object IDs hash into consecutive buckets for consecutive keys, spread otherwise, and the same in every run")
struct ObjectIDHashingTests {
    private func id(_ key: Int64, entity: Int = 0) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: 1, entityIndex: entity, primaryKey: key)
    }

    @Test("Keys 8m…8m+7 differ only in the low three bits of their hash")
    func groupsOfEight() {
        for group in Int64(0)..<100 {
            let hashes = (0..<8).map { id(group * 8 + $0)._rawHashValue(seed: 42) }
            #expect(Set(hashes.map { $0 >> 3 }).count == 1)
            #expect(hashes.map { $0 & 7 } == Array(0..<8))
        }
    }

    @Test("Groups, entities and seeds spread: 10,000 groups take (almost) 10,000 distinct high bits")
    func spread() {
        let groups = (Int64(0)..<10_000).map { id($0 * 8)._rawHashValue(seed: 7) >> 3 & 0xFFFFF }
        #expect(Set(groups).count > 9_900)
        #expect(id(8)._rawHashValue(seed: 7) != id(8, entity: 1)._rawHashValue(seed: 7))
        #expect(id(8)._rawHashValue(seed: 7) != id(8)._rawHashValue(seed: 8))
    }

    @Test("The hash leaves the store out: it is the same whatever identifier the store drew when it opened, and IDs of two stores stay unequal")
    func storeLeftOut() {
        let first = ManagedObjectID(storeIdentifier: 1, entityIndex: 2, primaryKey: 17)
        let second = ManagedObjectID(storeIdentifier: 3_000_000_000, entityIndex: 2, primaryKey: 17)
        #expect(first._rawHashValue(seed: 0) == second._rawHashValue(seed: 0))
        #expect(first.hashValue == second.hashValue)
        #expect(first != second)
        let temporary = ManagedObjectID(storeIdentifier: 1, entityIndex: 2, primaryKey: -5)
        #expect(temporary._rawHashValue(seed: 0)
            == ManagedObjectID(storeIdentifier: 9, entityIndex: 2, primaryKey: -5)._rawHashValue(seed: 0))
    }

    @Test("Temporary IDs are not grouped: consecutive temporary keys spread over the high bits")
    func temporaryKeysSpread() {
        let hashes = (Int64(1)...10_000).map { id(-$0)._rawHashValue(seed: 7) }
        #expect(Set(hashes.prefix(8).map { $0 >> 3 }).count == 8)
        #expect(Set(hashes.map { $0 & 0xFFFFF }).count > 9_900)
        var table: [ManagedObjectID: Int64] = [:]
        for key in Int64(1)...10_000 { table[id(-key)] = key }
        #expect((Int64(1)...10_000).allSatisfy { table[id(-$0)] == $0 })
    }

    @Test("A dictionary keyed by IDs with a shared low-bit pattern still finds every key")
    func stridedKeys() {
        var table: [ManagedObjectID: Int64] = [:]
        for key in Int64(0)..<50_000 { table[id(key * 64)] = key }
        #expect(table.count == 50_000)
        #expect((Int64(0)..<50_000).allSatisfy { table[id($0 * 64)] == $0 })
        #expect(table[id(65)] == nil)
    }
}
