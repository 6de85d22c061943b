import Testing
@testable import Faultline

/// The ID table under the registry and the row cache agrees with a
/// `Dictionary` through any sequence of inserts, replacements, removals
/// (backward shifts across the table's end included), growth and clearing.
@Suite("The object-ID table behaves as a dictionary")
struct ObjectIDTableTests {
    private func id(_ key: Int64, entity: Int = 0) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: 7, entityIndex: entity, primaryKey: key)
    }

    @Test("30,000 random operations on dense, strided and colliding keys match a Dictionary", arguments: [1, 2, 3])
    func randomOperations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let table = ObjectIDTable<Int>()
        var model: [ManagedObjectID: Int] = [:]
        for step in 0..<30_000 {
            // Dense runs, keys sharing their low bits, and two entities with
            // the same keys: the shapes that cluster a linear probe.
            let raw = Int64(random.next() % 600)
            let key = id(random.next() % 3 == 0 ? raw * 1_024 : raw, entity: Int(random.next() % 2))
            let value = Int(random.next() % 1_000)
            switch random.next() % 12 {
            case 0...2:
                table[key] = value
                model[key] = value
            case 3...4:
                let expected = model[key] ?? value
                model[key] = expected
                #expect(table.value(for: key) { value } == expected)
            case 5...6:
                let bucket = table.bucket(for: key)
                #expect(bucket.found == (model[key] != nil))
                #expect(table.value(at: bucket) == model[key])
                table.store(value, at: bucket, for: key)
                model[key] = value
            case 7...8:
                #expect(table.removeValue(for: key) == model.removeValue(forKey: key))
            case 9:
                #expect(table.allValues.sorted() == model.values.sorted())
            default:
                #expect(table[key] == model[key])
            }
            if step == 20_000 {
                table.removeAll(keepingCapacity: seed.isMultiple(of: 2))
                model.removeAll()
            }
            if step % 1_000 == 0 {
                #expect(table.count == model.count)
                #expect(model.allSatisfy { table[$0.key] == $0.value })
            }
        }
        #expect(table.count == model.count)
        #expect(model.allSatisfy { table[$0.key] == $0.value })
        #expect(table.allValues.sorted() == model.values.sorted())
    }

    @Test("A value made while the table changes under `make` is inserted once, where it belongs")
    func reentrantMake() {
        let table = ObjectIDTable<Int>()
        // `make` inserts 30 other keys, growing the table twice.
        let made = table.value(for: id(0)) {
            for key in 1...30 { table[id(Int64(key))] = key }
            return 0
        }
        #expect(made == 0)
        #expect(table.count == 31)
        #expect((0...30).allSatisfy { table[id(Int64($0))] == $0 })
        #expect(table.value(for: id(0)) { 99 } == 0)
    }

    @Test("Reserving room keeps every key reachable; clearing keeps the table usable")
    func reserveAndClear() {
        let table = ObjectIDTable<Int>()
        for key in 0..<5_000 { table[id(Int64(key))] = key }
        table.reserve(100_000)
        #expect(table.count == 5_000)
        #expect((0..<5_000).allSatisfy { table[id(Int64($0))] == $0 })
        let reserved = table.capacity
        table.removeAll(keepingCapacity: true)
        #expect(table.isEmpty && table[id(1)] == nil && table.capacity == reserved)
        table[id(1)] = 1
        #expect(table.count == 1 && table[id(1)] == 1)
        table.removeAll(keepingCapacity: false)
        #expect(table.isEmpty && table.capacity == 16)
        table[id(2)] = 2
        #expect(table.count == 1 && table[id(2)] == 2)
    }

    @Test("A reset context's registry starts small again: later scans cost the objects left, not the largest size ever")
    func registryShrinksOnReset() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try #require(container.coordinator.model.entityIndexByName["Book"])
            let store = container.coordinator.identifier
            for key in Int64(1)...5_000 {
                _ = try context.object(with: ManagedObjectID(storeIdentifier: store, entityIndex: entity, primaryKey: key))
            }
            #expect(context.registered.storedObjects.capacity >= 10_000)
            context.reset()
            #expect(context.registered.storedObjects.capacity == 16)
            _ = try context.object(with: ManagedObjectID(storeIdentifier: store, entityIndex: entity, primaryKey: 1))
            #expect(context.registeredObjects.count == 1)
        }
    }
}
