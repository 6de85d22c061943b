import FixtureSupport
import Foundation
import Testing
@testable import Faultline

/// A fetched-results controller follows another process's saves: they arrive
/// through the store's persistent history (`checkForRemoteChanges`), its
/// context merges them, and the controller's sections and callbacks take them
/// in as they take a local save.
@Suite("Fetched results controller: another process's saves arrive through persistent history")
struct RemoteResultsTests {
    static let variable = "FAULTLINE_REMOTE_RESULTS_STORE"

    @Test("child: insert two items, re-rank one, delete one, when asked")
    func childEdits() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.variable] else { return }
        let container = try PersistentContainer(model: FetchedResultsControllerTests.model(), location: .file(URL(fileURLWithPath: path)))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
            let items = try context.fetch(request)
            for rank in [Int64(15), 25] {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue("B", forKey: "group")
                try item.setValue(rank, forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
            try context.save()
            try items[0].setValue(Int64(99), forKey: "rank")
            context.delete(items[1])
            try context.save()
        }
    }

    @Test("parent: after one check the controller equals a fresh fetch, each change reported once, and its callbacks replayed turn the old sections into the new")
    func followsAnotherProcess() throws {
        guard ProcessInfo.processInfo.environment[Self.variable] == nil else { return }
        let url = ScratchStores.url()
        defer { HistoryRoundTripTests.remove(url) }
        let container = try PersistentContainer(model: FetchedResultsControllerTests.model(), location: .file(url),
                                                persistentHistoryTracking: true)
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        try context.performAndWait {
            for (group, rank) in [("A", Int64(10)), ("A", 20), ("B", 30)] {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(group, forKey: "group")
                try item.setValue(rank, forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
            try context.save()
        }
        let controller = FetchedResultsController(fetchRequest: try FetchedResultsControllerTests.request(),
                                                  managedObjectContext: context, sectionNameKeyPath: "group")
        let recorder = FetchedResultsControllerTests.Recorder()
        let old = try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            return FetchedResultsControllerTests.state(controller)
        }
        _ = try container.coordinator.checkForRemoteChanges()

        let child = try TestChildProcess.start(filter: "RemoteResultsTests/childEdits", variable: Self.variable, value: url.path)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try container.coordinator.checkForRemoteChanges() == 2)
        try context.performAndWait {
            context.processPendingChanges()
            let fresh = try context.fetch(try FetchedResultsControllerTests.request())
            let now = FetchedResultsControllerTests.state(controller)
            #expect(now.flatMap(\.1) == fresh.map(\.objectID))
            #expect(now.map(\.0) == ["A", "B"])
            #expect(now.flatMap(\.1).count == 4)
            #expect(FetchedResultsControllerTests.same(recorder.replay(on: old), now))
            #expect(recorder.events.contains(.will) && recorder.events.contains(.did))
            // Each change reached the controller once: two inserts, one delete,
            // and the re-ranked item as an update (it stays first in its section
            // once the item after it is deleted), however the two transactions were batched.
            func count(_ type: FetchedResultsChangeType) -> Int {
                recorder.events.filter { if case .object(_, _, type, _) = $0 { true } else { false } }.count
            }
            #expect(count(.insert) == 2 && count(.delete) == 1 && count(.update) == 1 && count(.move) == 0)
        }
    }
}
