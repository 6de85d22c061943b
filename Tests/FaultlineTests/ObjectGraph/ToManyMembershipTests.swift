import Foundation
import Testing
@testable import Faultline

/// A to-many answers "is this object a member?" by scanning its members while
/// they are few and through a set of identities past a bound: every answer,
/// and every add and remove, must be the same on both sides of that bound,
/// for loaded members and for additions waiting for the relationship to load.
@Suite("To-many membership")
struct ToManyMembershipTests {
    /// Sizes around the bound (16 members scanned).
    static let sizes = [1, 15, 16, 17, 40]

    /// `count` people named p0, p1, … (or `prefix`0, …), inserted in `context`.
    static func people(_ count: Int, in context: ManagedObjectContext, prefix: String = "p") throws -> [ManagedObject] {
        try (0..<count).map { index in
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("\(prefix)\(index)", forKey: "name")
            return person
        }
    }

    /// `body` on the queue of a context of a fresh store, with `count` people in it.
    static func withPeople(_ count: Int, _ body: ([ManagedObject]) throws -> Void) throws {
        let (container, url) = try LibraryModel.container(ToManyAcrossContextsTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { try body(try people(count, in: context)) }
    }

    @Test("Loaded members: each added once, found, removed and added again, at any size", arguments: sizes)
    func loaded(count: Int) throws {
        try Self.withPeople(count) { people in
            let state = ToManyState()
            state.load([])
            for person in people { #expect(state.add(person)) }
            for person in people {
                #expect(!state.add(person), "added twice")
                #expect(state.contains(person))
            }
            #expect(state.members?.count == count)
            let removed = people.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
            for person in removed {
                #expect(state.remove(person))
                #expect(!state.remove(person), "removed twice")
                #expect(!state.contains(person))
            }
            #expect(state.members?.count == count - removed.count)
            for person in people where !removed.contains(where: { $0 === person }) { #expect(state.contains(person)) }
            for person in removed { #expect(state.add(person)) }
            // Re-added members come last, in the order they came back.
            let kept = people.filter { person in !removed.contains { $0 === person } }
            #expect(state.members?.map(ObjectIdentifier.init) == (kept + removed).map(ObjectIdentifier.init))
        }
    }

    @Test("Through the to-one side: new objects moved between owners, cleared and set again are each listed once, by the owner they name",
          arguments: sizes)
    func newObjectsThroughTheirToOne(count: Int) throws {
        let (container, url) = try LibraryModel.container(ToManyAcrossContextsTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Team")
            let second = try context.insertNewObject(forEntityName: "Team")
            try first.setValue("A", forKey: "name")
            try second.setValue("B", forKey: "name")
            let people = try Self.people(count, in: context)
            for person in people { try person.setDestination(first, forKey: "team") }
            for (position, person) in people.enumerated() {
                switch position % 3 {
                case 0: try person.setDestination(second, forKey: "team")
                case 1:
                    try person.setDestination(nil, forKey: "team")
                    try person.setDestination(first, forKey: "team")
                default:
                    try person.setDestination(nil, forKey: "team")
                    try person.setDestination(second, forKey: "team")
                    try person.setDestination(first, forKey: "team")
                }
            }
            let inSecond = people.indices.filter { $0 % 3 == 0 }.map { "p\($0)" }
            let inFirst = people.indices.filter { $0 % 3 != 0 }.map { "p\($0)" }
            #expect(ToManyAcrossContextsTests.names(second, "members") == inSecond.sorted())
            #expect(ToManyAcrossContextsTests.names(first, "members") == inFirst.sorted())
            // Listed once each, not only each listed.
            #expect((first.value(forKey: "members") as? [ManagedObject])?.count == inFirst.count)
            #expect((second.value(forKey: "members") as? [ManagedObject])?.count == inSecond.count)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        let stored: [String: [String]] = try reader.performAndWait {
            var byTeam: [String: [String]] = [:]
            for team in try reader.fetch(FetchRequest(entityName: "Team")) {
                byTeam[team.value(forKey: "name") as? String ?? "?"] = ToManyAcrossContextsTests.names(team, "members", sorted: true)
            }
            return byTeam
        }
        #expect(stored["B"] == (0..<count).filter { $0 % 3 == 0 }.map { "p\($0)" }.sorted())
        #expect(stored["A"] == (0..<count).filter { $0 % 3 != 0 }.map { "p\($0)" }.sorted())
    }

    @Test("New objects pointed at a saved owner whose members were loaded and asked about are each found and listed once, cleared and pointed again",
          arguments: sizes)
    func newObjectsJoinALoadedOwner(count: Int) throws {
        let (container, url) = try LibraryModel.container(ToManyAcrossContextsTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let team = try context.insertNewObject(forEntityName: "Team")
            try team.setValue("T", forKey: "name")
            let stored = try Self.people(count, in: context)
            for person in stored { try person.setDestination(team, forKey: "team") }
            try context.save()
            context.refresh(team, mergeChanges: false)
            #expect((team.value(forKey: "members") as? [ManagedObject])?.count == count)
            // A membership question past the bound builds the set of identities.
            let outsider = try context.insertNewObject(forEntityName: "Person")
            let state = try #require(team.loadedToMany(at: 0))
            #expect(!state.contains(outsider))
            let newcomers = try Self.people(count, in: context, prefix: "n")
            for person in newcomers { try person.setDestination(team, forKey: "team") }
            // Every other newcomer leaves and comes back: pointing nowhere again.
            for person in newcomers.enumerated().filter({ $0.offset.isMultiple(of: 2) }).map(\.element) {
                try person.setDestination(nil, forKey: "team")
                #expect(!state.contains(person))
                try person.setDestination(team, forKey: "team")
            }
            #expect(state.members?.count == 2 * count, "each listed once")
            for person in stored + newcomers { #expect(state.contains(person)) }
            #expect(!state.contains(outsider))
            #expect(!state.add(newcomers[0]), "a newcomer listed twice")
            context.delete(outsider)
            try context.save()
        }
        let expected = ((0..<count).map { "p\($0)" } + (0..<count).map { "n\($0)" }).sorted()
        #expect(try ToManyAcrossContextsTests.stored(container, "members") == expected)
    }

    /// An owner whose items' to-one has no delete action: deleting an item
    /// leaves it in its owner's to-many, as in Core Data.
    static func noActionModel() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "owner", toMany: true)
            }
            Entity("Item") {
                Attribute("name", .string)
                Relationship("owner", to: "Owner", inverse: "items", deleteRule: .noAction)
            }
        }
    }

    @Test("A saved item deleted under a no-action rule, saved, then brought back by undo is listed once by its owner")
    func undoneDeletionListedOnce() throws {
        let (container, url) = try LibraryModel.container(Self.noActionModel())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.undoManager = UndoManager()
        let owner = try context.performAndWait {
            let owner = try context.insertNewObject(forEntityName: "Owner")
            try owner.setValue("O", forKey: "name")
            try context.save()
            return owner
        }
        let item = try context.performAndWait {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("I", forKey: "name")
            try item.setDestination(owner, forKey: "owner")
            try context.save()
            return item
        }
        try context.performAndWait {
            context.delete(item)
            try context.save()
        }
        try context.performAndWait {
            context.undo()
            let items = (owner.value(forKey: "items") as? [ManagedObject]) ?? []
            #expect(items.count { $0 === item } == 1, "listed \(items.count { $0 === item }) times")
            #expect(item.value(forKey: "owner") as? ManagedObject === owner)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(FetchRequest(entityName: "Owner")).first.map { ToManyAcrossContextsTests.names($0, "items") }
        }
        #expect(stored == ["I"])
    }

    @Test("Pending additions: each waits once, a removal takes it out, and loading lays them over the stored members",
          arguments: sizes)
    func pending(count: Int) throws {
        try Self.withPeople(count + 2) { people in
            let stored = Array(people.prefix(2))
            let added = Array(people.dropFirst(2))
            let state = ToManyState()
            for person in added + added { #expect(state.add(person)) }
            #expect(state.pendingAdds.count == count, "each pending addition listed once")
            for person in added { #expect(state.isPendingAdd(person)) }
            let last = try #require(added.last)
            state.remove(last)
            #expect(!state.isPendingAdd(last))
            // One stored member is also added: listed once after loading.
            state.add(stored[0])
            state.load(stored)
            let expected = stored + added.dropLast()
            #expect(state.members?.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
            for person in expected { #expect(state.contains(person)) }
            #expect(!state.contains(last))
            #expect(state.add(last))
            #expect(!state.add(stored[1]))
        }
    }

    @Test("Through the public API: a many-to-many and an ordered to-many of each size save and read back with every member once",
          arguments: sizes)
    func savedAndReadBack(count: Int) throws {
        let (container, url) = try LibraryModel.container(ToManyAcrossContextsTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let expected: [String] = try context.performAndWait {
            let team = try context.insertNewObject(forEntityName: "Team")
            try team.setValue("T", forKey: "name")
            let people = try Self.people(count, in: context)
            for person in people + people {
                try team.addObject(person, toRelationship: "queue")
                try team.addObject(person, toRelationship: "members")
            }
            let first = try #require(people.first)
            try team.removeObject(first, fromRelationship: "queue")
            try team.addObject(first, toRelationship: "queue")
            try context.save()
            return (1..<count).map { "p\($0)" } + ["p0"]
        }
        #expect(try ToManyAcrossContextsTests.stored(container, "queue", sorted: false) == expected)
        #expect(try ToManyAcrossContextsTests.stored(container, "members") == expected.sorted())
    }
}
