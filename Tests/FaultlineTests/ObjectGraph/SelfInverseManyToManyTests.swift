import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// A to-many that is its own inverse (`friends`): adding B to A's friends
/// adds A to B's through the same relationship, whose members are read from
/// one column of the join table — so each direction of a link is a row, and
/// both objects read it back from the store.
@Suite("A many-to-many that is its own inverse")
struct SelfInverseManyToManyTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Person") {
                Attribute("name", .string)
                Relationship("friends", to: "Person", inverse: "friends", toMany: true)
            }
        }
    }

    /// Each person's friends' names as a fresh context reads them.
    static func stored(_ container: PersistentContainer) throws -> [String: [String]] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            var result: [String: [String]] = [:]
            for person in try reader.fetch(FetchRequest(entityName: "Person")) {
                let friends = (person.value(forKey: "friends") as? [ManagedObject]) ?? []
                result[person.value(forKey: "name") as? String ?? "?"] = friends.compactMap { $0.value(forKey: "name") as? String }.sorted()
            }
            return result
        }
    }

    /// The join table's rows.
    static func rows(_ container: PersistentContainer) throws -> SQLValue? {
        try container.coordinator.withReader { try $0.scalar("SELECT COUNT(*) FROM Z_1FRIENDS") }
    }

    @Test("Links saved, removed and deleted read the same from both sides")
    func bothSides() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let (a, b, c) = try context.performAndWait {
            let people = try ["a", "b", "c"].map { name in
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "name")
                return person
            }
            try people[0].addObject(people[1], toRelationship: "friends")
            try people[0].addObject(people[2], toRelationship: "friends")
            try context.save()
            return (people[0], people[1], people[2])
        }
        #expect(try Self.stored(container) == ["a": ["b", "c"], "b": ["a"], "c": ["a"]])
        #expect(try Self.rows(container) == .integer(4))
        try context.performAndWait {
            try b.removeObject(a, fromRelationship: "friends")
            try context.save()
        }
        #expect(try Self.stored(container) == ["a": ["c"], "b": [], "c": ["a"]])
        try context.performAndWait {
            context.delete(c)
            try context.save()
        }
        #expect(try Self.stored(container) == ["a": [], "b": []])
        #expect(try Self.rows(container) == .integer(0))
    }

    @Test("A batch delete removes both directions of its objects' links")
    func batchDelete() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let people = try ["a", "b"].map { name in
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "name")
                return person
            }
            try people[1].addObject(people[0], toRelationship: "friends")
            try context.save()
        }
        try container.coordinator.execute(BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "name == 'a'")))
        #expect(try Self.stored(container) == ["b": []])
        #expect(try Self.rows(container) == .integer(0))
    }
}
