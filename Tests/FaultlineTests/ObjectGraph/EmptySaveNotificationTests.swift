import FixtureSupport
import Foundation
import FaultlineSQLite
import Testing
@testable import Faultline

/// A save with nothing to save still posts the did-save notification, with
/// no inserted, updated or deleted objects, as Core Data's
/// `NSManagedObjectContextDidSave` is posted for it (CoreDataPlus's
/// `test_NSFetchedResultControllerWithContextReset` and `test_Merge` wait for
/// it) — and does nothing else: no statement, no history transaction, no
/// save counted, no merge or objects-did-change in other contexts.
@Suite("An empty save posts an empty did-save and does nothing else")
struct EmptySaveNotificationTests {
    /// Counts the did-save notifications of one context and keeps the last one's changes.
    final class DidSaves: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [ContextDidSave] = []
        private var token: NSObjectProtocol?

        init(of context: ManagedObjectContext) {
            token = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) {
                [weak self] note in
                guard let self, let changes = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave else { return }
                self.lock.withLock { self.received.append(changes) }
            }
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }

        var all: [ContextDidSave] { lock.withLock { received } }
    }

    /// Counts the objects-did-change notifications of one context.
    final class ObjectsDidChange: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var token: NSObjectProtocol?

        init(of context: ManagedObjectContext) {
            token = NotificationCenter.default.addObserver(
                forName: .managedObjectContextObjectsDidChange, object: context, queue: nil
            ) { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { self.count += 1 }
            }
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }

        var posted: Int { lock.withLock { count } }
    }

    /// Counts every call a fetched-results controller makes to its delegate.
    final class DelegateCalls: FetchedResultsControllerDelegate {
        var count = 0
        func controllerWillChangeContent(_ controller: FetchedResultsController) { count += 1 }
        func controllerDidChangeContent(_ controller: FetchedResultsController) { count += 1 }
    }

    /// Ann and Bob saved, on a store that records history (so a written
    /// transaction would show as a new history token).
    static func seeded() throws -> (PersistentContainer, URL) {
        let url = ScratchStores.url()
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url), persistentHistoryTracking: true)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ann", "Bob"] {
                try context.insertNewObject(forEntityName: "Author").setValue(name, forKey: "name")
            }
            try context.save()
        }
        return (container, url)
    }

    static func authors() -> FetchRequest {
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return request
    }

    static func expectEmpty(_ saves: [ContextDidSave], _ comment: Comment) {
        #expect(saves.count == 1, comment)
        guard let saved = saves.first else { return }
        #expect(saved.insertedObjectIDs.isEmpty, comment)
        #expect(saved.updatedObjectIDs.isEmpty, comment)
        #expect(saved.deletedObjectIDs.isEmpty, comment)
        #expect(saved.historyToken == nil, comment)
    }

    @Test("After reset(), save() posts one did-save with nothing inserted, updated or deleted, and runs no statement")
    func afterReset() throws {
        let (container, url) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let readerChanges = ObjectsDidChange(of: reader)
        try reader.performAndWait { _ = try reader.fetch(Self.authors()) }
        let saves = DidSaves(of: context)
        try context.performAndWait {
            let ann = try #require(try context.fetch(Self.authors()).first)
            try ann.setValue("Annie", forKey: "name")
            context.reset()
            let token = try container.coordinator.currentPersistentHistoryToken()
            let saveCount = context.saveCount
            container.coordinator.resetCounters()
            try context.save()
            #expect(container.coordinator.sqlCounters == SQLiteCounters(), "an empty save runs no statement")
            #expect(try container.coordinator.currentPersistentHistoryToken() == token, "no transaction recorded")
            #expect(context.saveCount == saveCount)
            #expect(!context.hasChanges)
        }
        Self.expectEmpty(saves.all, "the did-save of an empty save")
        // The other context, merging automatically, is told of nothing.
        try reader.performAndWait { () throws in
            reader.processPendingChanges()
            #expect(try reader.fetch(Self.authors()).compactMap { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        }
        #expect(readerChanges.posted == 0)
    }

    @Test("A context that never changed anything posts the did-save of its empty save too; a fetched-results controller over it re-reads nothing")
    func unchangedWithController() throws {
        let (container, url) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let saves = DidSaves(of: context)
        try context.performAndWait {
            var request = Self.authors()
            // An offset makes the controller re-read on any change it is told of.
            request.fetchOffset = 1
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            let calls = DelegateCalls()
            controller.delegate = calls
            try controller.performFetch()
            container.coordinator.resetCounters()
            try context.save()
            try context.save()
            #expect(container.coordinator.sqlCounters == SQLiteCounters(), "two empty saves run no statement")
            #expect(calls.count == 0)
            #expect(controller.fetchedObjects?.compactMap { $0.value(forKey: "name") as? String } == ["Bob"])
        }
        #expect(saves.all.count == 2)
        #expect(saves.all.allSatisfy { $0.insertedObjectIDs.isEmpty && $0.updatedObjectIDs.isEmpty && $0.deletedObjectIDs.isEmpty })
    }

    @Test("Merging an empty did-save is a no-op: no objects-did-change, no statement, objects and query generation untouched")
    func emptyMerge() throws {
        let (container, url) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let saver = container.newBackgroundContext()
        let saves = DidSaves(of: saver)
        try saver.performAndWait { try saver.save() }
        let saved = try #require(saves.all.first)
        // Merges by hand, as an observer of did-saves does (CoreDataPlus's test_Merge).
        let viewer = container.newBackgroundContext()
        let viewerChanges = ObjectsDidChange(of: viewer)
        var names = FetchRequest(entityName: "Author")
        names.propertiesToFetch = ["name"]
        names.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let ann = try viewer.performAndWait { () throws -> ManagedObject in
            try viewer.setQueryGenerationFrom(.current)
            let ann = try #require(try viewer.fetch(Self.authors()).first)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            return ann
        }
        // A commit after the viewer pinned its generation: a merge that moved
        // the generation would show it.
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try #require(try writer.fetch(Self.authors()).last).setValue("Bobby", forKey: "name")
            try writer.save()
        }
        try viewer.performAndWait { () throws in
            container.coordinator.resetCounters()
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(container.coordinator.sqlCounters == SQLiteCounters())
            #expect(!ann.isFault)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            #expect(try viewer.fetchDictionaries(names).compactMap { $0["name"] as? String } == ["Ann", "Bob"])
        }
        #expect(viewerChanges.posted == 0)
    }

    @Test("A child context's empty save posts its did-save, pushes nothing into the parent and tells no sibling")
    func childContext() throws {
        let (container, url) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let child = parent.newChildContext()
        let sibling = parent.newChildContext()
        sibling.automaticallyMergesChangesFromParent = true
        let siblingChanges = ObjectsDidChange(of: sibling)
        let parentChanges = ObjectsDidChange(of: parent)
        try sibling.performAndWait { _ = try sibling.fetch(Self.authors()) }
        let childSaves = DidSaves(of: child)
        let parentSaves = DidSaves(of: parent)
        try child.performAndWait {
            _ = try child.fetch(Self.authors())
            container.coordinator.resetCounters()
            try child.save()
            #expect(container.coordinator.sqlCounters == SQLiteCounters())
        }
        Self.expectEmpty(childSaves.all, "the did-save of a child's empty save")
        #expect(parentSaves.all.isEmpty, "the parent did not save")
        parent.performAndWait { #expect(!parent.hasChanges) }
        sibling.performAndWait { sibling.processPendingChanges() }
        #expect(siblingChanges.posted == 0)
        #expect(parentChanges.posted == 0)
    }
}
