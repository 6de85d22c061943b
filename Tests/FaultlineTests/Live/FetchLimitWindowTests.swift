import Foundation
import Testing
@testable import Faultline

/// A controller with a fetch limit holds a window of the results; the rows
/// just past it are in the store alone. An entry that moves to, or arrives
/// at, the window's end may belong after one of them, so the window is read
/// again; a change well inside it still costs no statement.
@Suite("Fetched results controller: a fetch limit's window ends where the store says")
struct FetchLimitWindowTests {
    typealias Tests = FetchedResultsControllerTests

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("name", .string)
                Attribute("rank", .integer64)
            }
        }
    }

    static func request(limit: Int, batchSize: Int) -> FetchRequest {
        var request = FetchRequest(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
        request.fetchLimit = limit
        request.fetchBatchSize = batchSize
        return request
    }

    /// A store holding items "r<rank>" for `ranks`.
    static func seeded(_ ranks: [Int64]) throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for rank in ranks {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue("r\(rank)", forKey: "name")
                try item.setValue(rank, forKey: "rank")
            }
            try context.save()
        }
        return (container, url)
    }

    static func names(_ ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> [String] {
        try ids.map { try #require(try context.object(with: $0).value(forKey: "name") as? String) }
    }

    /// Runs `change` (on `changing`, saved) against a controller on `context`
    /// over `ranks`; checks the controller against a fresh fetch and its
    /// callbacks replayed on the old state against the new; returns the names
    /// it holds after.
    static func follow(_ ranks: [Int64], limit: Int, batchSize: Int, fromOther: Bool,
                       _ change: @escaping (ManagedObjectContext) throws -> Void) throws -> [String] {
        let (container, url) = try seeded(ranks)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let other = container.newBackgroundContext()
        let request = request(limit: limit, batchSize: batchSize)
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let recorder = Tests.Recorder()
        let old = try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            return Tests.state(controller)
        }
        let target = fromOther ? other : context
        try target.performAndWait {
            try change(target)
            try target.save()
        }
        return try context.performAndWait {
            context.processPendingChanges()
            let now = Tests.state(controller)
            let fresh = try context.fetchObjectIDs(request)
            #expect(now.flatMap(\.1) == fresh, "the controller equals a fresh fetch")
            #expect(Tests.same(recorder.replay(on: old), now), "the callbacks replayed turn the old state into the new")
            return try names(now.flatMap(\.1), in: context)
        }
    }

    static func item(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Item", format: "name == %@", name)).first)
    }

    @Test("The window's last entry moved past the first row outside it: that row takes its place",
          arguments: [(0, false), (2, false), (0, true), (2, true)])
    func lastMovesOut(batchSize: Int, fromOther: Bool) throws {
        let names = try Self.follow([10, 20, 30, 40], limit: 3, batchSize: batchSize, fromOther: fromOther) { context in
            try Self.item("r30", in: context).setValue(Int64(45), forKey: "rank")
        }
        #expect(names == ["r10", "r20", "r40"])
    }

    @Test("A deletion and a row from past the window arriving at its end in one save: the row between them takes the end",
          arguments: [(0, false), (2, false), (0, true), (2, true)])
    func arrivesAtEnd(batchSize: Int, fromOther: Bool) throws {
        let names = try Self.follow([10, 20, 30, 40, 50], limit: 3, batchSize: batchSize, fromOther: fromOther) { context in
            context.delete(try Self.item("r10", in: context))
            try Self.item("r50", in: context).setValue(Int64(45), forKey: "rank")
        }
        #expect(names == ["r20", "r30", "r40"])
    }

    @Test("An entry moving past the old end but still before the next row, and a row from past the window arriving inside it, are right either way",
          arguments: [0, 2])
    func movesWithinReach(batchSize: Int) throws {
        let kept = try Self.follow([10, 20, 30, 40], limit: 3, batchSize: batchSize, fromOther: false) { context in
            try Self.item("r30", in: context).setValue(Int64(35), forKey: "rank")
        }
        #expect(kept == ["r10", "r20", "r30"])
        let arrived = try Self.follow([10, 20, 30, 40], limit: 3, batchSize: batchSize, fromOther: false) { context in
            try Self.item("r40", in: context).setValue(Int64(15), forKey: "rank")
        }
        #expect(arrived == ["r10", "r40", "r20"])
    }

    @Test("A move well inside the window, and a change to a row past it that stays past it, cost no statement")
    func insideCostsNothing() throws {
        let (container, url) = try Self.seeded([10, 20, 30, 40, 50])
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let request = Self.request(limit: 3, batchSize: 0)
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try context.performAndWait {
            try controller.performFetch()
            let outside = try Self.item("r50", in: context)
            let first = try #require(controller.fetchedObjects?.first)
            try first.setValue(Int64(25), forKey: "rank")
            try outside.setValue(Int64(60), forKey: "rank")
            #expect(FetchedResultsCostTests.statements(container) { context.processPendingChanges() } == 0)
            #expect(controller.counters.requeries == 0)
            #expect(try Self.names(controller.fetchedObjects.map { Array($0.objectIDs) } ?? [], in: context) == ["r20", "r10", "r30"])
        }
    }
}
