import Faultline
import FaultlineSQLite
import Foundation

/// One iteration: a copy of the seeded store, a context following it with
/// `controllers` fetched-results controllers over one request, and the
/// did-save payload of another context's save that changed `count` items —
/// made before the clock; what the clock measures is merging it.
final class ObservingFixture {
    let url: URL
    let container: PersistentContainer
    let observer: ManagedObjectContext
    let controllers: [FetchedResultsController]
    let counters: [CallbackCounter]
    let saved: ContextDidSave

    /// Counts the object callbacks a controller makes.
    final class CallbackCounter: FetchedResultsControllerDelegate {
        var objectChanges = 0
        func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            objectChanges += 1
        }
    }

    init(rows: Int, controllers count: Int, change: ChangeKind, changed: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-observing-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: try SeededStores.shared.store(rows: rows), to: url)
        container = try PersistentContainer(model: ObservingModel.model(), location: .file(url))
        observer = container.newBackgroundContext()
        let request = try ObservingModel.request()
        let observer = self.observer
        let made = try observer.performAndWait {
            try (0..<count).map { _ -> (FetchedResultsController, CallbackCounter) in
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: observer, sectionNameKeyPath: "group")
                let counter = CallbackCounter()
                controller.delegate = counter
                try controller.performFetch()
                return (controller, counter)
            }
        }
        controllers = made.map(\.0)
        counters = made.map(\.1)
        let writer = container.newBackgroundContext()
        let box = SavedBox()
        let token = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: writer, queue: nil) {
            box.saved = $0.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try writer.performAndWait {
            try change.apply(count: changed, rows: rows, in: writer)
            try writer.save()
        }
        guard let saved = box.saved else { throw ObservingError("the writer's save announced nothing") }
        self.saved = saved
    }

    private final class SavedBox: @unchecked Sendable { var saved: ContextDidSave? }

    /// The measured work: the observing context merges the save; every
    /// controller follows.
    func merge() {
        let saved = self.saved
        observer.performAndWait { observer.mergeChanges(fromContextDidSave: saved) }
    }

    /// Every controller holds what a fresh fetch returns, and each told its
    /// delegate of the change.
    func verify(line: String) throws {
        try observer.performAndWait {
            let expected = try observer.fetchObjectIDs(ObservingModel.request())
            for (index, controller) in controllers.enumerated() {
                guard let held = controller.fetchedObjects.map({ Array($0.objectIDs) }), held == expected else {
                    throw ObservingError("\(line): controller \(index) holds \(controller.fetchedObjects?.count ?? -1) IDs, not the \(expected.count) a fresh fetch returns in its order")
                }
                guard counters[index].objectChanges > 0 else {
                    throw ObservingError("\(line): controller \(index) reported no change")
                }
            }
        }
    }

    /// The controllers' own counters, summed.
    var controllerCounters: [String: Int] {
        let all = controllers.map(\.counters)
        return [
            "objectsDecidedInMemory": all.reduce(0) { $0 + $1.objectsDecidedInMemory },
            "keyedQueries": all.reduce(0) { $0 + $1.keyedQueries },
            "requeries": all.reduce(0) { $0 + $1.requeries },
        ]
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// The seeded stores, made once per size and copied by every iteration.
final class SeededStores {
    nonisolated(unsafe) static let shared = SeededStores()
    private var stores: [Int: URL] = [:]

    func store(rows: Int) throws -> URL {
        if let url = stores[rows] { return url }
        // The shared instance lives until the process ends, so that is when its files go.
        if stores.isEmpty { atexit { SeededStores.shared.removeAll() } }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-observing-seed-\(UUID().uuidString).sqlite")
        let container = try PersistentContainer(model: ObservingModel.model(), location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<rows {
                let values = ObservingModel.values(of: index)
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(values.group, forKey: "group")
                try item.setValue(values.rank, forKey: "rank")
                try item.setValue(values.visible, forKey: "visible")
            }
            try context.save()
        }
        // One file to copy: the log folded in, and checked whole.
        let connection = try Connection(.file(url.path))
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let copy = url.deletingLastPathComponent().appendingPathComponent("faultline-observing-check-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
        guard try Connection(.file(copy.path)).scalar("SELECT COUNT(*) FROM ZITEM") == .integer(Int64(rows)) else {
            throw ObservingError("the seeded store's file does not hold its \(rows) items")
        }
        stores[rows] = url
        return url
    }

    private func removeAll() {
        for url in stores.values {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
    }
}
