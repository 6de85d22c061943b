import Foundation
import Testing
@testable import Faultline

/// With `automaticallyMergesChangesFromParent`, another context's save reaches
/// this context's objects on its own queue soon after, unasked — no perform,
/// save or fetch needed — and the merge posts the objects-did-change
/// notification with what changed.
@Suite("Automatic merges arrive unasked")
struct AutomaticMergeTests {
    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var names: [String] = []
        var updated = 0
        var refreshed = 0
        var deleted = 0
        var inserted = 0
        var onOwnQueue = true
    }

    /// Confined to the context's queue, where the notification is posted.
    struct Watched: @unchecked Sendable { let object: ManagedObject }

    private func observe(_ context: ManagedObjectContext, watching object: ManagedObject, seen: Seen,
                         signal: DispatchSemaphore) -> NSObjectProtocol {
        let watched = Watched(object: object)
        return NotificationCenter.default.addObserver(forName: .managedObjectContextObjectsDidChange, object: context, queue: nil) { note in
            guard let change = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange else { return }
            seen.lock.lock()
            seen.onOwnQueue = seen.onOwnQueue && context.isOnOwnQueue
            seen.updated += change.updatedObjects.count
            seen.refreshed += change.refreshedObjects.count
            seen.deleted += change.deletedObjects.count
            seen.inserted += change.insertedObjectIDs.count
            if let name = watched.object.value(forKey: "name") as? String { seen.names.append(name) }
            seen.lock.unlock()
            signal.signal()
        }
    }

    @Test("A save in another context is merged on the reader's queue and announced, without the reader being touched")
    func mergedUnasked() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let ids = try writer.performAndWait {
            let author = try writer.insertNewObject(forEntityName: "Author")
            try author.setValue("Before", forKey: "name")
            let other = try writer.insertNewObject(forEntityName: "Author")
            try other.setValue("Doomed", forKey: "name")
            try writer.save()
            return (author.objectID, other.objectID)
        }
        let (watched, doomed) = try reader.performAndWait {
            (try reader.existingObject(with: ids.0), try reader.existingObject(with: ids.1))
        }
        let seen = Seen()
        let signal = DispatchSemaphore(value: 0)
        let observer = observe(reader, watching: watched, seen: seen, signal: signal)
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            try writer.existingObject(with: ids.0).setValue("After", forKey: "name")
            writer.delete(try writer.existingObject(with: ids.1))
            try writer.insertNewObject(forEntityName: "Author").setValue("Newcomer", forKey: "name")
            try writer.save()
        }
        #expect(signal.wait(timeout: .now() + 5) == .success)
        seen.lock.lock()
        defer { seen.lock.unlock() }
        #expect(seen.names == ["After"])
        #expect(seen.onOwnQueue)
        #expect(seen.updated == 0, "another save's update is a refresh here, as in Core Data")
        #expect(seen.refreshed == 1)
        #expect(seen.deleted == 1)
        #expect(seen.inserted == 1)
        #expect(doomed.isDeleted)
    }

    @Test("A context that does not merge automatically is neither changed nor told")
    func notMergingStaysPut() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        let id = try writer.performAndWait {
            let author = try writer.insertNewObject(forEntityName: "Author")
            try author.setValue("Before", forKey: "name")
            try writer.save()
            return author.objectID
        }
        let watched = try reader.performAndWait { try reader.existingObject(with: id) }
        let seen = Seen()
        let signal = DispatchSemaphore(value: 0)
        let observer = observe(reader, watching: watched, seen: seen, signal: signal)
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("After", forKey: "name")
            try writer.save()
        }
        #expect(signal.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(reader.performAndWait { watched.value(forKey: "name") as? String } == "Before")
    }

    @Test("A context that does not merge keeps nothing of other saves: one held idle while a service saves stays the same size")
    func notMergingKeepsNothing() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let idle = container.newBackgroundContext()
        try writer.performAndWait {
            let author = try writer.insertNewObject(forEntityName: "Author")
            for round in 0..<20 {
                try author.setValue("Name \(round)", forKey: "name")
                try writer.save()
            }
        }
        #expect(idle.inbox.withLock { $0.count } == 0, "every save's changes, kept until a perform that would drop them")
    }

    @Test("A burst of saves a sibling pushes into the parent is merged once and announced once, as a burst of store saves is")
    func siblingBurstMergedOnce() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let id = try parent.performAndWait {
            let author = try parent.insertNewObject(forEntityName: "Author")
            try author.setValue("Before", forKey: "name")
            try parent.save()
            return author.objectID
        }
        let editor = parent.newChildContext(), viewer = parent.newChildContext()
        viewer.automaticallyMergesChangesFromParent = true
        let watched = try viewer.performAndWait { try viewer.existingObject(with: id) }
        let seen = Seen()
        let signal = DispatchSemaphore(value: 0)
        let observer = observe(viewer, watching: watched, seen: seen, signal: signal)
        defer { NotificationCenter.default.removeObserver(observer) }
        // The viewer's queue is busy (a long merge, a slow block) while the editor saves five times.
        let busy = DispatchSemaphore(value: 0)
        viewer.queue.async { busy.wait() }
        try editor.performAndWait {
            let author = try editor.existingObject(with: id)
            for name in ["One", "Two", "Three", "Four", "Five"] {
                try author.setValue(name, forKey: "name")
                try editor.save()
            }
        }
        busy.signal()
        #expect(signal.wait(timeout: .now() + 5) == .success)
        viewer.queue.sync {}  // whatever was queued behind the busy block has run
        seen.lock.lock()
        defer { seen.lock.unlock() }
        #expect(seen.names == ["Five"], "one merge, one announcement: not one block per save on the viewer's queue")
        #expect(seen.refreshed == 1, "a merged update is a refresh, as in Core Data")
        #expect(seen.updated == 0)
        _ = container
    }
}
