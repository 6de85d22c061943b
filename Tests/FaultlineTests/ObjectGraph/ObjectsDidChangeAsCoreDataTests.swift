import Foundation
import Testing
@testable import Faultline

/// The objects-did-change notification reports merges and resets as Core
/// Data's `NSManagedObjectContextObjectsDidChange` does (CoreDataPlus's
/// `NotificationPayload_Tests` and `NotificationMerge_Tests`, run against
/// Core Data): a merge refreshes the objects this context uses — reported in
/// `refreshedObjects`, not `updatedObjects` — drops the deleted ones it
/// holds, and brings in the inserted ones; a merge that touches nothing
/// registered here and inserts nothing posts nothing (Apple DTS: merged
/// updates count when the objects are in use and not faults, merged
/// deletions when the objects are held, merged inserts always); `reset()`
/// posts `invalidatedAllObjects` (`NSInvalidatedAllObjectsKey`).
@Suite("Objects-did-change reports merges as refreshes and resets as invalidations, as Core Data does")
struct ObjectsDidChangeAsCoreDataTests {
    /// One notification, read on the context's queue where it is posted.
    struct Heard: Sendable {
        var updated: Set<ObjectIdentifier> = []
        var refreshed: Set<ObjectIdentifier> = []
        var deleted: Set<ObjectIdentifier> = []
        var inserted: Set<ObjectIdentifier> = []
        var insertedIDs: Set<ManagedObjectID> = []
        var invalidatedAll = false
    }

    final class Listener: @unchecked Sendable {
        let heard = Locked<[Heard]>([])
        private var observer: NSObjectProtocol?

        init(_ context: ManagedObjectContext) {
            observer = NotificationCenter.default.addObserver(
                forName: .managedObjectContextObjectsDidChange, object: context, queue: nil
            ) { [heard] note in
                guard let change = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange else { return }
                var one = Heard()
                one.updated = Set(change.updatedObjects.map(ObjectIdentifier.init))
                one.refreshed = Set(change.refreshedObjects.map(ObjectIdentifier.init))
                one.deleted = Set(change.deletedObjects.map(ObjectIdentifier.init))
                one.inserted = Set(change.insertedObjects.map(ObjectIdentifier.init))
                one.insertedIDs = change.insertedObjectIDs
                one.invalidatedAll = change.invalidatedAllObjects
                heard.withLock { $0.append(one) }
            }
        }

        var all: [Heard] { heard.withLock { $0 } }
        func clear() { heard.withLock { $0 = [] } }
        deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
    }

    /// A store holding authors "Author 1"… (names are at least three letters long).
    static func seeded(_ count: Int) throws -> (PersistentContainer, URL, [ManagedObjectID]) {
        let (container, url) = try LibraryModel.container()
        let writer = container.newBackgroundContext()
        let ids = try writer.performAndWait {
            let authors = try (1...count).map { number in
                let author = try writer.insertNewObject(forEntityName: "Author")
                try author.setValue("Author \(number)", forKey: "name")
                return author
            }
            try writer.save()
            return authors.map(\.objectID)
        }
        return (container, url, ids)
    }

    static func rename(_ id: ManagedObjectID, to name: String, in container: PersistentContainer) throws -> ContextDidSave {
        try save(in: container) { try $0.existingObject(with: id).setValue(name, forKey: "name") }
    }

    /// Runs `change` in a new context and saves it; the did-save payload.
    static func save(in container: PersistentContainer, _ change: @escaping (ManagedObjectContext) throws -> Void) throws -> ContextDidSave {
        let writer = container.newBackgroundContext()
        let saved = Locked<ContextDidSave?>(nil)
        let observer = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: writer, queue: nil) { note in
            saved.withLock { $0 = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            try change(writer)
            try writer.save()
        }
        return try #require(saved.withLock { $0 })
    }

    @Test("An automatic merge: updating and deleting objects the context never registered posts nothing; updating a loaded one posts it refreshed, not updated")
    func automaticMergeRefreshesLoadedObjectsOnly() throws {
        let (container, url, ids) = try Self.seeded(6)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let loaded = try reader.performAndWait { try [ids[0], ids[1]].map { try reader.existingObject(with: $0) } }
        let listener = Listener(reader)

        _ = try Self.rename(ids[2], to: "Author 3 renamed", in: container)
        _ = try Self.save(in: container) { $0.delete(try $0.existingObject(with: ids[5])) }
        reader.performAndWait { reader.processPendingChanges() }
        #expect(listener.all.isEmpty, "an update and a deletion of unregistered objects post nothing")

        _ = try Self.rename(ids[1], to: "Author 2 renamed", in: container)
        reader.performAndWait {
            reader.processPendingChanges()
            #expect(loaded[1].value(forKey: "name") as? String == "Author 2 renamed")
        }
        let heard = listener.all
        #expect(heard.count == 1)
        #expect(heard.first?.refreshed == [ObjectIdentifier(loaded[1])])
        #expect(heard.first?.updated.isEmpty == true)
        #expect(heard.first?.inserted.isEmpty == true)
        #expect(heard.first?.deleted.isEmpty == true)
        #expect(heard.first?.invalidatedAll == false)
    }

    @Test("mergeChanges(fromContextDidSave:) of two updates of loaded objects and an insert: refreshed 2, updated 0, inserted 1")
    func explicitMergeReportsRefreshesAndInserts() throws {
        let (container, url, ids) = try Self.seeded(2)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        let loaded = try reader.performAndWait { try ids.map { try reader.existingObject(with: $0) } }
        let listener = Listener(reader)
        let saved = try Self.save(in: container) { writer in
            for id in ids {
                let author = try writer.existingObject(with: id)
                try author.setValue("\(author.value(forKey: "name") as? String ?? "") updated", forKey: "name")
            }
            try writer.insertNewObject(forEntityName: "Author").setValue("Newcomer", forKey: "name")
        }
        let insertedID = try #require(saved.insertedObjectIDs.first)
        let inserted = reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: saved)
            return reader.registeredObject(for: insertedID)
        }
        let heard = listener.all
        #expect(heard.count == 1)
        #expect(heard.first?.refreshed == Set(loaded.map(ObjectIdentifier.init)))
        #expect(heard.first?.updated.isEmpty == true)
        #expect(heard.first?.inserted.count == 1)
        #expect(heard.first?.insertedIDs == [insertedID])
        let object = try #require(inserted, "the inserted object is registered, as the notification's")
        #expect(heard.first?.inserted == [ObjectIdentifier(object)])
        #expect(heard.first?.deleted.isEmpty == true)
        reader.performAndWait {
            #expect(object.value(forKey: "name") as? String == "Newcomer")
            #expect(!reader.hasChanges)
        }
    }

    @Test("A merge that only updates and deletes unregistered objects posts nothing, automatic or explicit")
    func mergeOfUnregisteredObjectsPostsNothing() throws {
        let (container, url, ids) = try Self.seeded(3)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        _ = try reader.performAndWait { try reader.existingObject(with: ids[0]) }
        let listener = Listener(reader)
        let saved = try Self.save(in: container) { writer in
            try writer.existingObject(with: ids[1]).setValue("Author 2 renamed", forKey: "name")
            writer.delete(try writer.existingObject(with: ids[2]))
        }
        reader.performAndWait {
            reader.processPendingChanges()
            reader.mergeChanges(fromContextDidSave: saved)
        }
        #expect(listener.all.isEmpty)
    }

    @Test("A merged update of an object registered only as a fault posts nothing; a merged deletion of a held object is reported")
    func faultsAreNotRefreshedButHeldObjectsAreDeleted() throws {
        let (container, url, ids) = try Self.seeded(2)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        let (fault, held) = try reader.performAndWait { (try reader.object(with: ids[0]), try reader.object(with: ids[1])) }
        let listener = Listener(reader)
        let renamed = try Self.rename(ids[0], to: "Author 1 renamed", in: container)
        reader.performAndWait {
            #expect(fault.isFault)
            reader.mergeChanges(fromContextDidSave: renamed)
            #expect(fault.value(forKey: "name") as? String == "Author 1 renamed")
        }
        #expect(listener.all.isEmpty, "a fault's values were never shown: nothing to refresh")

        let deleted = try Self.save(in: container) { $0.delete(try $0.existingObject(with: ids[1])) }
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: deleted) }
        let heard = listener.all
        #expect(heard.count == 1)
        #expect(heard.first?.deleted == [ObjectIdentifier(held)])
        #expect(heard.first?.refreshed.isEmpty == true)
        #expect(heard.first?.updated.isEmpty == true)
    }

    @Test("Two changed objects refreshed, one keeping its changes and one not: both refreshed, only the one that kept them updated (CoreDataPlus's testRefreshedOnDidChangeEvent)")
    func refreshDroppingChangesIsNoUpdate() throws {
        let (container, url, ids) = try Self.seeded(3)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let listener = Listener(context)
        try context.performAndWait {
            context.reportsUnsavedChanges = true
            let kept = try context.existingObject(with: ids[0])
            let dropped = try context.existingObject(with: ids[1])
            let undeleted = try context.existingObject(with: ids[2])
            try kept.setValue("Kept", forKey: "name")
            try dropped.setValue("Dropped", forKey: "name")
            context.delete(undeleted)
            context.refresh(kept, mergeChanges: true)
            context.refresh(dropped, mergeChanges: false)
            context.refresh(undeleted, mergeChanges: false)
            context.processPendingChanges()
            let heard = listener.all
            #expect(heard.count == 1)
            #expect(heard.first?.refreshed == Set([kept, dropped, undeleted].map(ObjectIdentifier.init)))
            #expect(heard.first?.updated == [ObjectIdentifier(kept)])
            #expect(heard.first?.deleted.isEmpty == true)
            #expect(context.updatedObjects == [kept])
        }
    }

    @Test("A context that does not record its own changes still reports its refreshes: refreshAllObjects() at once, refresh(_:mergeChanges:) at the block's end (CoreDataPlus's testObserveRefreshChangeRefresh)")
    func refreshesReportedByDefault() throws {
        let (container, url, ids) = try Self.seeded(3)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        #expect(context.reportsUnsavedChanges == false)
        let listener = Listener(context)
        let loaded = try context.performAndWait { try ids.map { try context.existingObject(with: $0) } }
        #expect(listener.all.isEmpty)
        context.performAndWait { context.refreshAllObjects() }
        #expect(listener.all.map(\.refreshed) == [Set(loaded.map(ObjectIdentifier.init))])
        listener.clear()
        context.performAndWait { context.refresh(loaded[0], mergeChanges: false) }
        #expect(listener.all.map(\.refreshed) == [[ObjectIdentifier(loaded[0])]])
        #expect(listener.all.first?.updated.isEmpty == true)
    }

    @Test("An object inserted and deleted before any notification showed it is in none; one shown inserted is reported deleted")
    func insertedThenDeleted() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let listener = Listener(context)
        try context.performAndWait {
            context.reportsUnsavedChanges = true
            let fleeting = try context.insertNewObject(forEntityName: "Author")
            try fleeting.setValue("Fleeting", forKey: "name")
            context.delete(fleeting)
            context.processPendingChanges()
            #expect(listener.all.isEmpty)
            let shown = try context.insertNewObject(forEntityName: "Author")
            try shown.setValue("Shown", forKey: "name")
            context.processPendingChanges()
            context.delete(shown)
            context.processPendingChanges()
            let heard = listener.all
            #expect(heard.map(\.inserted) == [[ObjectIdentifier(shown)], []])
            #expect(heard.map(\.deleted) == [[], [ObjectIdentifier(shown)]])
        }
    }

    @Test("reset() posts a notification with invalidatedAllObjects and nothing else, after the insert's own notification")
    func resetInvalidatesAllObjects() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let listener = Listener(context)
        try context.performAndWait {
            context.reportsUnsavedChanges = true
            try context.insertNewObject(forEntityName: "Author").setValue("Panda", forKey: "name")
            context.processPendingChanges()
        }
        context.performAndWait { context.reset() }
        let heard = listener.all
        #expect(heard.count == 2)
        #expect(heard.first?.inserted.count == 1)
        #expect(heard.first?.invalidatedAll == false)
        #expect(heard.last?.invalidatedAll == true)
        #expect(heard.last?.inserted.isEmpty == true)
        #expect(heard.last?.updated.isEmpty == true)
        #expect(heard.last?.deleted.isEmpty == true)
        #expect(heard.last?.refreshed.isEmpty == true)

        listener.clear()
        let quiet = container.newBackgroundContext()
        let quietListener = Listener(quiet)
        quiet.performAndWait { quiet.reset() }
        #expect(quietListener.all.count == 1, "posted whether or not anyone follows the context's changes")
        #expect(quietListener.all.first?.invalidatedAll == true)
        #expect(listener.all.isEmpty)
    }

    @Test("A controller still follows merged changes of objects its context never registered, which post nothing")
    func controllerFollowsUnregisteredMerges() throws {
        let (container, url, ids) = try Self.seeded(3)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        request.fetchBatchSize = 10   // the results are read as IDs: nothing is registered
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: reader)
        try reader.performAndWait {
            try controller.performFetch()
            #expect(reader.registeredObjects.isEmpty)
        }
        let listener = Listener(reader)
        _ = try Self.save(in: container) { writer in
            try writer.existingObject(with: ids[0]).setValue("Author 9", forKey: "name")
            writer.delete(try writer.existingObject(with: ids[1]))
        }
        try reader.performAndWait {
            reader.processPendingChanges()
            #expect(controller.sections?.first?.objects.map(\.objectID) == [ids[2], ids[0]])
            let fetched = try reader.fetchObjectIDs(request)
            #expect(fetched == [ids[2], ids[0]], "the controller equals a fresh fetch")
        }
        #expect(listener.all.isEmpty)
    }
}
