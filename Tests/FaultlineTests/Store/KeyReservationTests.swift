import Foundation
import Testing
@testable import Faultline

/// A writer remembers the key counter it last wrote and tries it first, so
/// saves in a row reserve their keys with one statement, and keeps the spare
/// keys of a growing reservation, so most saves in a row write none; a counter
/// moved by another writer, or a save rolled back, costs the read it skipped
/// and never a duplicate key.
@Suite("Key reservation")
struct KeyReservationTests {
    static func saveAuthor(_ name: String, in container: PersistentContainer) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue(name, forKey: "name")
            try context.save()
            return author.objectID
        }
    }

    static func statements(_ container: PersistentContainer, _ body: () throws -> Void) rethrows -> Int {
        let before = container.coordinator.writer.counters.statementsExecuted
        try body()
        return container.coordinator.writer.counters.statementsExecuted - before
    }

    /// `Z_MAX` and the largest article key, read on the container's writer.
    static func counters(_ container: PersistentContainer) throws -> (keyMax: Int64, largest: Int64) {
        try container.coordinator.writer.withConnection { connection in
            let root = container.coordinator.model.entities[0].rootEntityIndex + 1
            let keyMax = try BookkeepingStatements.keyMax(ofEntity: root, on: connection) ?? -1
            return (keyMax, try BookkeepingStatements.largestKey(inTable: "ZAUTHOR", on: connection) ?? 0)
        }
    }

    @Test("The second save in a row skips the read of Z_MAX; after another writer's commit the read comes back and keys stay unique")
    func guessThenFallBack() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        var ids: [ManagedObjectID] = []
        let first = try Self.statements(container) { ids.append(try Self.saveAuthor("First", in: container)) }
        #expect(try Self.counters(container) == (1, 1), "the first save reserves exactly its keys, as Core Data does")
        let second = try Self.statements(container) { ids.append(try Self.saveAuthor("Second", in: container)) }
        #expect(second == first - 1, "one statement fewer: the compare-and-set of the known counter")
        #expect(try Self.counters(container) == (3, 2), "the second reserves one spare key")

        let other = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let elsewhere = try Self.saveAuthor("Elsewhere", in: other)
        let third = try Self.statements(container) { ids.append(try Self.saveAuthor("Third", in: container)) }
        #expect(third == first + 1, "the spare key is dropped, the guess changes no row, then Z_MAX is read and moved")
        #expect(ids.map(\.primaryKey) == [1, 2, 5])
        #expect(elsewhere.primaryKey == 4, "the other writer reserved above the spare key")
        let fourth = try Self.statements(container) { ids.append(try Self.saveAuthor("Fourth", in: container)) }
        #expect(fourth == second)
        let fifth = try Self.statements(container) { ids.append(try Self.saveAuthor("Fifth", in: container)) }
        #expect(fifth == second - 1, "the spare key the fourth reserved: no Z_PRIMARYKEY statement")
        #expect(ids.map(\.primaryKey) == [1, 2, 5, 6, 7])
        #expect(try Self.counters(container) == (7, 7))
    }

    @Test("Saves in a row reserve ever more spare keys, up to 64: 150 one-object saves write Z_MAX 9 times and keys run 1…150")
    func spareKeysGrow() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        var counts: [Int] = []
        var keys: [Int64] = []
        for index in 1...150 {
            counts.append(try Self.statements(container) { keys.append(try Self.saveAuthor("Author \(index)", in: container).primaryKey) })
        }
        let fewest = try #require(counts.min())
        let reserving = counts.indices.filter { counts[$0] > fewest }.map { $0 + 1 }
        // Each reservation adds 1, 2, 4, … 64 spare keys; the others take one.
        #expect(reserving == [1, 2, 4, 7, 12, 21, 38, 71, 136])
        #expect(counts.allSatisfy { $0 <= fewest + 2 })
        #expect(keys == Array(1...150))
        #expect(try Self.counters(container) == (200, 150), "the last reservation's spare keys run to 200")

        // Reopened, the store reserves above Z_MAX: the unused keys are a gap.
        let reopened = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        #expect(try Self.saveAuthor("After reopening", in: reopened).primaryKey == 201)
    }

    /// Saves `count` new authors in one save; their keys.
    static func saveAuthors(_ count: Int, from first: Int, in container: PersistentContainer) throws -> [Int64] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let authors = try (first..<first + count).map { index in
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Author \(index)", forKey: "name")
                return author
            }
            try context.save()
            return authors.map(\.objectID.primaryKey)
        }
    }

    @Test("Two containers on one file saving in turns and in runs, 1 to 3 objects a save, never hand out a key twice; Z_MAX stays at or above every key")
    func twoWritersInTurns() throws {
        let (first, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let second = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        var keys: [Int64] = []
        // Alternating saves drop each writer's spare keys; runs of saves let
        // them grow, and saves of more keys than are spare start at the first.
        for round in 0..<60 {
            let writer = round < 20 ? (round.isMultiple(of: 2) ? first : second) : (round < 40 ? first : second)
            keys += try Self.saveAuthors(1 + round % 3, from: keys.count, in: writer)
        }
        #expect(Set(keys).count == keys.count, "no key twice")
        let counters = try Self.counters(first)
        #expect(counters.largest == keys.max())
        #expect(counters.keyMax >= counters.largest)
        let reader = first.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Author")) } == keys.count)
    }

    @Test("A save that reserved spare keys and rolled back drops them: Z_MAX stays at or above every key")
    func rolledBackReservation() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        for name in ["One", "Two", "Three"] { _ = try Self.saveAuthor(name, in: container) }
        #expect(try Self.counters(container) == (3, 3), "keys 1, 2 (with spare 3) and the spare 3")
        // A stale update in the same save as an insert: the insert's keys (1 + 2
        // spare) are reserved, then the version check fails and all rolls back.
        let stale = container.newBackgroundContext()
        let staleID = try stale.performAndWait {
            let authors = try stale.fetch(FetchRequest(entityName: "Author"))
            return try #require(authors.first { ($0.value(forKey: "name") as? String) == "One" }).objectID
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            try fresh.existingObject(with: staleID).setValue("Uno", forKey: "name")
            try fresh.save()
        }
        #expect(throws: SaveError.self) {
            try stale.performAndWait {
                try stale.existingObject(with: staleID).setValue("Eins", forKey: "name")
                let author = try stale.insertNewObject(forEntityName: "Author")
                try author.setValue("Four", forKey: "name")
                try stale.save()
            }
        }
        #expect(try Self.counters(container) == (3, 3), "the failed save's reservation rolled back")
        #expect(try Self.saveAuthor("Five", in: container).primaryKey == 4, "no spare key of the failed save is used")
        let counters = try Self.counters(container)
        #expect(counters.keyMax >= counters.largest)
    }

    @Test("A save rolled back leaves the counter where it was: the next save's guess fails and it takes the next free key")
    func rolledBack() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let kept = try Self.saveAuthor("Kept", in: container)
        #expect(throws: SaveError.self) { _ = try Self.saveAuthor("Kept", in: container) }   // unique name: rolled back
        let next = try Self.saveAuthor("Next", in: container)
        #expect(kept.primaryKey == 1)
        #expect(next.primaryKey == 2)
    }
}
