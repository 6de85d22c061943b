import Foundation
import Testing
@testable import Faultline

/// A writer remembers the key counter it last wrote and tries it first, so
/// saves in a row reserve their keys with one statement; a counter moved by
/// another writer, or a save rolled back, costs the read it skipped and never
/// a duplicate key.
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

    @Test("The second save in a row skips the read of Z_MAX; after another writer's commit the read comes back and keys stay unique")
    func guessThenFallBack() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        var ids: [ManagedObjectID] = []
        let first = try Self.statements(container) { ids.append(try Self.saveAuthor("First", in: container)) }
        let second = try Self.statements(container) { ids.append(try Self.saveAuthor("Second", in: container)) }
        #expect(second == first - 1, "one statement fewer: the compare-and-set of the known counter")

        let other = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let elsewhere = try Self.saveAuthor("Elsewhere", in: other)
        let third = try Self.statements(container) { ids.append(try Self.saveAuthor("Third", in: container)) }
        #expect(third == first + 1, "the guess changes no row, then Z_MAX is read and moved")
        #expect(ids.map(\.primaryKey) == [1, 2, 4])
        #expect(elsewhere.primaryKey == 3)
        let fourth = try Self.statements(container) { ids.append(try Self.saveAuthor("Fourth", in: container)) }
        #expect(fourth == second)
        #expect(ids.last?.primaryKey == 5)
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
