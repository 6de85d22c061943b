import Foundation
import Testing
@testable import Faultline

/// What keeping a controller current costs, in statements: nothing for a
/// change memory can decide; one statement, naming only the changed objects,
/// for a predicate through a to-many; one statement reading keys for a
/// change that lists no objects or leaves a fetch limit short.
@Suite("Fetched results controller: statements per change")
struct FetchedResultsCostTests {
    typealias Tests = FetchedResultsControllerTests

    /// `count` visible items, ranks 1…count, in groups A–E.
    static func seeded(_ count: Int) throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(Tests.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for rank in 1...count {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(["A", "B", "C", "D", "E"][rank % 5], forKey: "group")
                try item.setValue(Int64(rank), forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
            try context.save()
        }
        return (container, url)
    }

    /// Statements `body` executes on the container's store.
    static func statements(_ container: PersistentContainer, _ body: () throws -> Void) rethrows -> Int {
        let before = container.coordinator.sqlCounters.statementsExecuted
        try body()
        return container.coordinator.sqlCounters.statementsExecuted - before
    }

    /// Runs `body` then saves `context`; returns what the save announced.
    static func saving(_ context: ManagedObjectContext, _ body: () throws -> Void) throws -> ContextDidSave {
        final class Saved: @unchecked Sendable { var changes: ContextDidSave? }
        let saved = Saved()
        let observer = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) {
            saved.changes = $0.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            try body()
            try context.save()
        }
        return try #require(saved.changes)
    }

    static func fresh(_ context: ManagedObjectContext, _ request: FetchRequest) throws -> [ManagedObjectID] {
        try context.fetchObjectIDs(request)
    }

    @Test("Unsaved changes of its context, other contexts' saves merged, and a save of its own: no statement, every object decided in memory", arguments: [0, 16])
    func decidedInMemory(batchSize: Int) throws {
        let (container, url) = try Self.seeded(200)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        var request = try Tests.request()
        request.fetchBatchSize = batchSize
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            let fetching = try Self.statements(container) { try controller.performFetch() }
            #expect(fetching == 1)
            if batchSize > 0 { #expect(context.registeredObjects.isEmpty, "a batched controller holds IDs, not objects") }
        }
        // Another context moves, hides, inserts and deletes; this one merges.
        let saved = try Self.saving(other) {
            let items = try other.fetch(Tests.request())
            try items[0].setValue(Int64(10_000), forKey: "rank")
            try items[1].setValue(false, forKey: "visible")
            try items[2].setValue("unrelated", forKey: "note")
            other.delete(items[3])
            let item = try other.insertNewObject(forEntityName: "Item")
            try item.setValue("C", forKey: "group")
            try item.setValue(Int64(-1), forKey: "rank")
            try item.setValue(true, forKey: "visible")
        }
        try context.performAndWait {
            let before = controller.counters
            recorder.reset()
            #expect(Self.statements(container) { context.mergeChanges(fromContextDidSave: saved) } == 0)
            #expect(controller.counters.objectsDecidedInMemory - before.objectsDecidedInMemory == 4)
            #expect(recorder.events.filter { if case .object(_, _, .update, _) = $0 { true } else { false } }.count == 1)
            #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == (try Self.fresh(context, request)))

            // This context's own change, reported before it is saved; its save adds nothing.
            let first = try controller.object(at: IndexPath(item: 0, section: 0))
            try first.setValue(Int64(20_000), forKey: "rank")
            #expect(Self.statements(container) { context.processPendingChanges() } == 0)
            #expect(controller.indexPath(forObject: first)?.item == controller.sections.map { $0[0].numberOfObjects - 1 })
            recorder.reset()
            try context.save()
            #expect(recorder.events.isEmpty)
            #expect(controller.counters.requeries == 0 && controller.counters.keyedQueries == 0)
        }
    }

    @Test("A batched controller makes objects when read: the first read of a batch fills it in one statement")
    func batchedReads() throws {
        let (container, url) = try Self.seeded(100)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        var request = try Tests.request()
        request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
        request.fetchBatchSize = 10
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try context.performAndWait {
            try controller.performFetch()
            container.coordinator.rowCache.removeAll()
            let objects = try #require(controller.fetchedObjects)
            #expect(objects.count == 100)
            #expect(Self.statements(container) { _ = objects[3].value(forKey: "rank") } == 1)
            #expect(context.registeredObjects.count == 10)
            #expect(Self.statements(container) { for index in 0..<10 { _ = objects[index].value(forKey: "rank") } } == 0)
            #expect(objects.map { $0.value(forKey: "rank") as? Int64 } == (1...100).map(Int64.init))
        }
    }

    @Test("A predicate through a to-many is asked of the store for the changed objects only, in one statement")
    func toManyPredicate() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try other.performAndWait {
            for name in ["Ann", "Bob", "Cid"] {
                let author = try other.insertNewObject(forEntityName: "Author")
                try author.setValue(name, forKey: "name")
                let book = try other.insertNewObject(forEntityName: "Book")
                try book.setValue("\(name)'s first", forKey: "title")
                try book.setValue(author, forKey: "author")
            }
            try other.save()
        }
        var request = FetchRequest(entityName: "Author")
        request.predicate = try FetchPredicate(format: "books.@count >= 2")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try context.performAndWait {
            try controller.performFetch()
            #expect(controller.fetchedObjects?.isEmpty == true)
        }
        let saved = try Self.saving(other) {
            let bob = try #require(try other.fetch(FetchRequest(entityName: "Author", predicate: try FetchPredicate(format: "name == 'Bob'"))).first)
            let book = try other.insertNewObject(forEntityName: "Book")
            try book.setValue("Bob's second", forKey: "title")
            try book.setValue(bob, forKey: "author")
        }
        context.performAndWait {
            // The statement asking whether Bob matches now; his row, to place
            // him, comes from the row cache his save filled.
            #expect(Self.statements(container) { context.mergeChanges(fromContextDidSave: saved) } == 1)
            #expect(controller.counters.keyedQueries == 1)
            #expect(controller.counters.objectsAskedOfStore == 1, "Bob alone, the author whose books changed")
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as? String } == ["Bob"])
        }
    }

    @Test("A batch insert lists no objects: the controller reads its keys again, in one statement, and reports the new rows")
    func batchInsert() throws {
        let (container, url) = try Self.seeded(20)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let request = try Tests.request()
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            let insert = try BatchInsertRequest(entityName: "Item", in: container.coordinator.model, objects: (0..<5).map { index in
                ["group": "F", "rank": Int64(100 + index), "visible": true] as [String: Any]
            })
            try context.execute(insert)
            #expect(controller.counters.requeries == 1)
            #expect(controller.fetchedObjects?.count == 25)
            #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == (try Self.fresh(context, request)))
            #expect(recorder.events.contains(.section("F", 5, .insert)))
        }
    }

    @Test("A fetch limit: a row pushed out is dropped in memory; a row leaving reads the keys again, once")
    func fetchLimit() throws {
        let (container, url) = try Self.seeded(20)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        var request = try Tests.request()
        request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
        request.fetchLimit = 5
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            let old = Tests.state(controller)
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("A", forKey: "group")
            try item.setValue(Int64(0), forKey: "rank")
            try item.setValue(true, forKey: "visible")
            #expect(Self.statements(container) { context.processPendingChanges() } == 0)
            #expect(controller.fetchedObjects?.count == 5)
            #expect(controller.fetchedObjects?.first === item)
            #expect(Tests.same(recorder.replay(on: old), Tests.state(controller)))
            try context.save()

            recorder.reset()
            let before = Tests.state(controller)
            context.delete(try controller.object(at: IndexPath(item: 2, section: 0)))
            #expect(Self.statements(container) { context.processPendingChanges() } == 1)
            #expect(controller.counters.requeries == 1)
            #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == (try Self.fresh(context, request)))
            #expect(Tests.same(recorder.replay(on: before), Tests.state(controller)))
        }
    }

    @Test("Unsaved changes are reported as they happen: an insert at the end of a perform block, a rollback takes it away")
    func unsavedChanges() throws {
        let (container, url) = try Self.seeded(3)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let controller = FetchedResultsController(fetchRequest: try Tests.request(), managedObjectContext: context)
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
        }
        #expect(context.reportsUnsavedChanges)
        let inserted = try context.performAndWait {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("A", forKey: "group")
            try item.setValue(Int64(0), forKey: "rank")
            try item.setValue(true, forKey: "visible")
            return item.objectID
        }
        context.performAndWait {
            #expect(controller.fetchedObjects?.first?.objectID == inserted)
            #expect(recorder.events == [.will, .object(inserted, nil, .insert, IndexPath(item: 0, section: 0)), .did])
            recorder.reset()
            context.rollback()
            #expect(controller.fetchedObjects?.count == 3)
            #expect(recorder.events == [.will, .object(inserted, IndexPath(item: 0, section: 0), .delete, nil), .did])
        }
    }

    @Test("Recording unsaved changes is off until something follows the context, and off again when it stops")
    func recordingFollowsControllers() throws {
        let (container, url) = try Self.seeded(1)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            #expect(!context.reportsUnsavedChanges)
            var controller: FetchedResultsController? = FetchedResultsController(fetchRequest: try Tests.request(), managedObjectContext: context)
            try controller?.performFetch()
            #expect(context.reportsUnsavedChanges)
            controller = nil
            #expect(!context.reportsUnsavedChanges)
            context.reportsUnsavedChanges = true
            #expect(context.reportsUnsavedChanges)
        }
    }
}
