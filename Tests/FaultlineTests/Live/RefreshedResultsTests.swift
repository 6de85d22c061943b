import Foundation
import Testing
@testable import Faultline

/// A refresh reads objects again — discarding their changes or a pending
/// deletion, or showing what another save or a related object changed — and
/// a controller places them again, as Core Data's does from the refreshed
/// objects of objects-did-change.
@Suite("Fetched results controller: refreshed objects are placed again")
struct RefreshedResultsTests {
    typealias Tests = FetchedResultsControllerTests

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Group") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "group", toMany: true)
            }
            Entity("Item") {
                Attribute("name", .string)
                Attribute("rank", .integer64)
                Relationship("group", to: "Group", inverse: "items")
            }
        }
    }

    static func request(batchSize: Int = 0, sortedByGroup: Bool = false) -> FetchRequest {
        var request = FetchRequest(entityName: "Item")
        request.sortDescriptors = (sortedByGroup ? [FetchSortDescriptor(key: "group.name")] : []) + [FetchSortDescriptor(key: "rank")]
        request.fetchBatchSize = batchSize
        return request
    }

    /// A store holding items "r<rank>" for `ranks`, each in a group of its own named "g<rank>".
    static func seeded(_ ranks: [Int64]) throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for rank in ranks {
                let group = try context.insertNewObject(forEntityName: "Group")
                try group.setValue("g\(rank)", forKey: "name")
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue("r\(rank)", forKey: "name")
                try item.setValue(rank, forKey: "rank")
                try item.setValue(group, forKey: "group")
            }
            try context.save()
        }
        return (container, url)
    }

    static func item(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Item", format: "name == %@", name)).first)
    }

    static func names(_ controller: FetchedResultsController) -> [String] {
        (controller.fetchedObjects.map(Array.init) ?? []).map { $0.value(forKey: "name") as? String ?? "?" }
    }

    /// The controller equals a fresh fetch, and its callbacks since `old`
    /// replayed on it give its state now.
    static func check(_ controller: FetchedResultsController, _ recorder: Tests.Recorder,
                      from old: [(String, [ManagedObjectID])], _ context: ManagedObjectContext) throws {
        let now = Tests.state(controller)
        #expect(now.flatMap(\.1) == (try context.fetchObjectIDs(controller.fetchRequest)), "the controller equals a fresh fetch")
        #expect(Tests.same(recorder.replay(on: old), now), "the callbacks replayed turn the old state into the new")
    }

    @Test("Refreshing without merging undoes a move and a deletion: the object goes back, the deleted one comes back in",
          arguments: [0, 2])
    func discardedChanges(batchSize: Int) throws {
        let (container, url) = try Self.seeded([1, 2, 3])
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let controller = FetchedResultsController(fetchRequest: Self.request(batchSize: batchSize), managedObjectContext: context)
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            let first = try #require(controller.fetchedObjects?[0]), second = try #require(controller.fetchedObjects?[1])
            try first.setValue(Int64(10), forKey: "rank")
            context.delete(second)
            context.processPendingChanges()
            #expect(Self.names(controller) == ["r3", "r1"])

            let old = Tests.state(controller)
            recorder.reset()
            context.refresh(first, mergeChanges: false)
            context.refresh(second, mergeChanges: false)
            context.processPendingChanges()
            #expect(Self.names(controller) == ["r1", "r2", "r3"])
            try Self.check(controller, recorder, from: old, context)
            #expect(recorder.events.filter { $0 == .will }.count == 1, "reported once")
        }
    }

    @Test("Another context's save, not merged, reaches the controller at refreshAllObjects(), filling the refreshed faults in at most one statement",
          arguments: [0, 2])
    func refreshAll(batchSize: Int) throws {
        let (container, url) = try Self.seeded([1, 2, 3, 4])
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        let controller = FetchedResultsController(fetchRequest: Self.request(batchSize: batchSize), managedObjectContext: context)
        let recorder = Tests.Recorder()
        let old = try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            // Every item registered, as Core Data's batched array registers its faults.
            #expect(Self.names(controller) == ["r1", "r2", "r3", "r4"])
            return Tests.state(controller)
        }
        try other.performAndWait {
            try Self.item("r1", in: other).setValue(Int64(5), forKey: "rank")
            try other.save()
        }
        try context.performAndWait {
            context.processPendingChanges()
            #expect(Self.names(controller) == ["r1", "r2", "r3", "r4"], "no merge: still the old values")
            recorder.reset()
            #expect(FetchedResultsCostTests.statements(container) { context.refreshAllObjects() } <= 1)
            #expect(Self.names(controller) == ["r2", "r3", "r4", "r1"])
            try Self.check(controller, recorder, from: old, context)
        }
    }

    @Test("Refreshing an object after its related object changed (Core Data's workaround) moves it by the related key")
    func relatedKeyChanged() throws {
        let (container, url) = try Self.seeded([1, 2, 3])
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let controller = FetchedResultsController(fetchRequest: Self.request(sortedByGroup: true), managedObjectContext: context)
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            let first = try #require(controller.fetchedObjects?[0])
            let group = try #require(first.value(forKey: "group") as? ManagedObject)
            try group.setValue("g9", forKey: "name")
            try context.save()
            #expect(Self.names(controller) == ["r1", "r2", "r3"], "a related object's change does not reach the controller by itself")

            let old = Tests.state(controller)
            recorder.reset()
            context.refresh(first, mergeChanges: true)
            context.processPendingChanges()
            #expect(Self.names(controller) == ["r2", "r3", "r1"])
            try Self.check(controller, recorder, from: old, context)
        }
    }

    @Test("The notification lists a refresh under refreshedObjects, a merge's as Core Data does; the controller reports the merge once")
    func notificationPayload() throws {
        let (container, url) = try Self.seeded([1, 2])
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let other = container.newBackgroundContext()
        final class Heard: @unchecked Sendable { var changes: [ContextObjectsDidChange] = [] }
        let heard = Heard()
        let observer = NotificationCenter.default.addObserver(forName: .managedObjectContextObjectsDidChange, object: context, queue: nil) {
            if let change = $0.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange { heard.changes.append(change) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let controller = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: context)
        let recorder = Tests.Recorder()
        let first = try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            let first = try #require(controller.fetchedObjects?[0])
            context.refresh(first, mergeChanges: false)
            #expect(heard.changes.isEmpty, "reported at the next processPendingChanges()")
            context.processPendingChanges()
            return first
        }
        #expect(heard.changes.count == 1)
        #expect(heard.changes.first?.refreshedObjects == [first])
        #expect(heard.changes.first?.updatedObjects.isEmpty == true)

        heard.changes = []
        recorder.reset()
        try other.performAndWait {
            try Self.item("r1", in: other).setValue(Int64(7), forKey: "rank")
            try other.save()
        }
        context.performAndWait {
            context.processPendingChanges()
            #expect(heard.changes.count == 1)
            #expect(heard.changes.first?.refreshedObjects == [first])
            #expect(heard.changes.first?.updatedObjects.isEmpty == true)
            #expect(recorder.events.filter { $0 == .will }.count == 1, "reported once")
            #expect(Self.names(controller) == ["r2", "r1"])
        }
    }
}
