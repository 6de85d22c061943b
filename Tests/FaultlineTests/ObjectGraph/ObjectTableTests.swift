import Foundation
import Testing
@testable import Faultline

/// The context's table of stored objects agrees with a `Dictionary` through
/// any sequence of inserts, replacements, removals (backward shifts across
/// the table's end included), growth and clearing.
@Suite("The stored-object table behaves as a dictionary of IDs to objects")
struct ObjectTableTests {
    /// Runs `body` with `count` faults of Book (keys 0…count-1) to store in a table.
    private func withObjects(_ count: Int, _ body: (_ pool: [ManagedObject], _ entity: Int) throws -> Void) throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try #require(container.coordinator.model.entityIndexByName["Book"])
            let pool = (0..<count).map { key in
                context.object(with: ManagedObjectID(storeIdentifier: 7, entityIndex: entity, primaryKey: Int64(key)))
            }
            try body(pool, entity)
        }
    }

    @Test("30,000 random operations on dense, strided and colliding keys match a Dictionary", arguments: [1, 2, 3])
    func randomOperations(seed: UInt64) throws {
        try withObjects(64) { pool, _ in
            var random = SeededGenerator(seed: seed)
            let table = ObjectTable()
            var model: [ManagedObjectID: ManagedObject] = [:]
            func key() -> ManagedObjectID {
                // Dense runs, keys sharing their low bits, and two entities
                // with the same keys: the shapes that cluster a linear probe.
                let raw = Int64(random.next() % 600)
                let key = random.next() % 3 == 0 ? raw * 1_024 : raw
                return ManagedObjectID(storeIdentifier: 7, entityIndex: Int(random.next() % 2), primaryKey: key)
            }
            for step in 0..<30_000 {
                let id = key()
                switch random.next() % 10 {
                case 0...3:
                    let object = pool[Int(random.next() % 64)]
                    table[id] = object
                    model[id] = object
                case 4...5:
                    let made = pool[Int(random.next() % 64)]
                    let expected = model[id] ?? made
                    model[id] = expected
                    #expect(table.object(for: id) { made } === expected)
                case 6...8:
                    #expect(table.removeValue(for: id) === model.removeValue(forKey: id))
                default:
                    #expect(table[id] === model[id])
                }
                if step == 20_000 {
                    table.removeAll()
                    model.removeAll()
                }
                if step % 1_000 == 0 {
                    #expect(table.count == model.count)
                    #expect(model.allSatisfy { table[$0.key] === $0.value })
                }
            }
            #expect(table.count == model.count)
            #expect(model.allSatisfy { table[$0.key] === $0.value })
            #expect(Set(table.values.map(ObjectIdentifier.init)) == Set(model.values.map(ObjectIdentifier.init)))
        }
    }

    @Test("An object made while the table changes under `make` is inserted once, where it belongs")
    func reentrantMake() throws {
        try withObjects(40) { pool, entity in
            let table = ObjectTable()
            func id(_ key: Int) -> ManagedObjectID {
                ManagedObjectID(storeIdentifier: 7, entityIndex: entity, primaryKey: Int64(key))
            }
            // Each `make` inserts 30 other objects, growing the table twice.
            let made = table.object(for: id(0)) {
                for key in 1...30 { table[id(key)] = pool[key] }
                return pool[0]
            }
            #expect(made === pool[0])
            #expect(table.count == 31)
            #expect((0...30).allSatisfy { table[id($0)] === pool[$0] })
            #expect(table.object(for: id(0)) { pool[39] } === pool[0])
        }
    }

    @Test("Reserving room ahead of a fetch keeps every object reachable")
    func reserve() throws {
        try withObjects(8) { pool, entity in
            let table = ObjectTable()
            for key in 0..<5_000 {
                table[ManagedObjectID(storeIdentifier: 7, entityIndex: entity, primaryKey: Int64(key))] = pool[key % 8]
            }
            table.reserve(100_000)
            #expect(table.count == 5_000)
            #expect((0..<5_000).allSatisfy {
                table[ManagedObjectID(storeIdentifier: 7, entityIndex: entity, primaryKey: Int64($0))] === pool[$0 % 8]
            })
        }
    }
}
