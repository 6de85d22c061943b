import FixtureSupport
import Foundation
import Testing
@testable import Faultline
import FaultlineSQLite

/// Every write of a store goes through its `StoreWriter`, and what a commit
/// changed is published once, after COMMIT: the same path for a save and a
/// batch request, nothing for a write that rolled back or was refused.
@Suite("One write path: the writer publishes each commit once")
struct StoreWriterTests {
    final class Recorder: StoreChangeSubscriber, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [StoreChanges] = []
        func storeDidCommit(_ changes: StoreChanges) {
            lock.lock()
            received.append(changes)
            lock.unlock()
        }
        var commits: [StoreChanges] {
            lock.lock()
            defer { lock.unlock() }
            return received
        }
    }

    @Test("A save is published once with its inserted, updated and deleted IDs; the saving context is not told")
    func savePublishedOnce() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let recorder = Recorder()
        container.coordinator.changes.subscribe(recorder)
        let context = container.newBackgroundContext()
        let (first, second) = try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Author")
            try first.setValue("First", forKey: "name")
            let second = try context.insertNewObject(forEntityName: "Author")
            try second.setValue("Second", forKey: "name")
            try context.save()
            return (first.objectID, second.objectID)
        }
        #expect(recorder.commits.count == 1)
        #expect(recorder.commits.first?.inserted == [first, second])
        #expect(recorder.commits.first?.source == ObjectIdentifier(context))
        #expect(context.inbox.withLock { $0.isEmpty })

        try context.performAndWait {
            try context.existingObject(with: first).setValue("Renamed", forKey: "name")
            context.delete(try context.existingObject(with: second))
            try context.save()
        }
        #expect(recorder.commits.count == 2)
        #expect(recorder.commits.last?.inserted == [])
        #expect(recorder.commits.last?.updated == [first])
        #expect(recorder.commits.last?.deleted == [second])
        let cached = container.coordinator.rowCache.snapshot(for: first)
        #expect(cached?.version == 2, "an updated row is cached as written, with its new version")
        #expect(cached.map { Array($0.values) }?.contains(.string("Renamed")) == true)
        #expect(container.coordinator.rowCache.snapshot(for: second) == nil, "a deleted row leaves the cache")
    }

    @Test("Four coordinators creating one new store at once: one bootstraps it, all open it, its bookkeeping is written once")
    func concurrentBootstrap() throws {
        let model = try LibraryModel.model().checked()
        for _ in 0..<5 {
            let url = ScratchStores.url()
            defer { LibraryModel.remove(url) }
            let failures = Locked<[String]>([])
            let uuids = Locked<Set<String>>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let coordinator = try PersistentStoreCoordinator(model: model, location: .file(url))
                    uuids.withLock { _ = $0.insert(coordinator.storeUUID) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(uuids.withLock { $0.count } == 1, "every coordinator read the one Z_METADATA row")
            let connection = try Connection(.file(url.path))
            #expect(try connection.scalar("SELECT count(*) FROM Z_METADATA") == .integer(1))
            #expect(try connection.scalar("SELECT count(*) FROM Z_PRIMARYKEY") == .integer(Int64(model.entities.count)))
        }
    }

    @Test("A save that fails on a uniqueness conflict rolls back and publishes nothing")
    func failedSavePublishesNothing() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Author").setValue("Taken", forKey: "name")
            try context.save()
        }
        let recorder = Recorder()
        container.coordinator.changes.subscribe(recorder)
        let other = container.newBackgroundContext()
        #expect(throws: SaveError.self) {
            try other.performAndWait {
                try other.insertNewObject(forEntityName: "Author").setValue("Taken", forKey: "name")
                try other.save()
            }
        }
        #expect(recorder.commits.isEmpty)
    }

    @Test("A batch update takes the same path: published once, with the coordinator as its source")
    func batchPublishedOnce() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Before", forKey: "name")
            try context.save()
            return author.objectID
        }
        context.automaticallyMergesChangesFromParent = true
        let recorder = Recorder()
        container.coordinator.changes.subscribe(recorder)
        var request = BatchUpdateRequest(entityName: "Author", propertiesToUpdate: ["name": .value(.string("After"))])
        request.resultType = .objectIDs
        let result = try container.coordinator.execute(request)
        #expect(result.objectIDs == [id])
        #expect(recorder.commits.count == 1)
        #expect(recorder.commits.first?.updated == [id])
        #expect(recorder.commits.first?.source == ObjectIdentifier(container.coordinator))
        // Only a context that merges is told (one that does not keeps nothing).
        let name = try context.performAndWait { try context.existingObject(with: id).value(forKey: "name") as? String }
        #expect(name == "After", "the context that saved before hears of the batch and merges it")
    }

    @Test("A refused write throws before BEGIN: no statement runs and nothing is published")
    func refusedWriteRunsNothing() throws {
        struct Refused: Error {}
        let writer = StoreWriter(
            try PersistentStoreCoordinator.open(.inMemory), busyTimeout: 1, refusal: Refused(),
            publisher: ChangePublisher(rowCache: RowCache(capacity: 10), derivedDependents: []))
        let before = writer.counters
        #expect(throws: Refused.self) {
            _ = try writer.write { _ in ((), CommittedChanges(changes: StoreChanges(source: ObjectIdentifier(writer)))) }
        }
        #expect(writer.counters.statementsExecuted == before.statementsExecuted)
    }
}

/// A save hands the store indexes and values; the store's plans hold the
/// statements, so updating many rows builds one text per set of changed
/// columns, not one per row.
@Suite("Save statements come from the store's plans")
struct SaveStatementPlanTests {
    @Test("A hundred updates of the same column share one statement text; another column adds one")
    func oneTextPerShape() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let plan = try #require(container.coordinator.model.entity(named: "Book")).index
        try context.performAndWait {
            var books: [ManagedObject] = []
            for number in 0..<100 {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(number)", forKey: "title")
                books.append(book)
            }
            try context.save()
            #expect(container.coordinator.plans[plan].updates.count == 0)
            for (number, book) in books.enumerated() { try book.setValue(Int64(number), forKey: "pages") }
            try context.save()
            #expect(container.coordinator.plans[plan].updates.count == 1)
            for book in books { try book.setValue("Renamed", forKey: "title") }
            try context.save()
            #expect(container.coordinator.plans[plan].updates.count == 2)
            try books[0].setValue(Int64(7), forKey: "pages")
            try context.save()
            #expect(container.coordinator.plans[plan].updates.count == 2)
        }
    }
}
