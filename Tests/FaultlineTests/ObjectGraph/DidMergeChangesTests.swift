import Foundation
import Testing
@testable import Faultline

/// The did-merge notification (Core Data's
/// `NSManagedObjectContextDidMergeChangesObjectIDs`), as CoreDataPlus's
/// testMerge reads it: after a merge, the IDs inserted, updated, deleted and
/// refreshed.
@Suite("The did-merge notification lists a merge's IDs")
struct DidMergeChangesTests {
    final class Listener: @unchecked Sendable {
        let heard = Locked<[ContextDidMergeChanges]>([])
        private var observer: NSObjectProtocol?
        init(_ context: ManagedObjectContext) {
            observer = NotificationCenter.default.addObserver(
                forName: .managedObjectContextDidMergeChangesObjectIDs, object: context, queue: nil
            ) { [heard] note in
                guard let merged = note.userInfo?[ContextDidMergeChanges.userInfoKey] as? ContextDidMergeChanges else { return }
                heard.withLock { $0.append(merged) }
            }
        }
        var all: [ContextDidMergeChanges] { heard.withLock { $0 } }
        deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
    }

    @Test("mergeChanges(fromContextDidSave:): two shown objects updated, one unregistered deleted, one inserted")
    func explicitMerge() throws {
        let (container, url, ids) = try ObjectsDidChangeAsCoreDataTests.seeded(4)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        let listener = Listener(reader)
        let shown = try reader.performAndWait { () throws -> [ManagedObject] in
            let shown = try ids.prefix(2).map { try reader.existingObject(with: $0) }
            _ = shown.map { $0.value(forKey: "name") }
            return shown
        }
        var insertedID: ManagedObjectID?
        let saved = try ObjectsDidChangeAsCoreDataTests.save(in: container) { writer in
            for id in ids.prefix(2) { try writer.existingObject(with: id).setValue("Renamed \(id.primaryKey)", forKey: "name") }
            writer.delete(try writer.existingObject(with: ids[3]))
            let author = try writer.insertNewObject(forEntityName: "Author")
            try author.setValue("New", forKey: "name")
            try writer.obtainPermanentIDs(for: [author])
            insertedID = author.objectID
        }
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
        let merged = try #require(listener.all.first)
        #expect(listener.all.count == 1)
        #expect(merged.insertedObjectIDs == [try #require(insertedID)])
        #expect(merged.updatedObjectIDs == Set(ids.prefix(2)))
        #expect(merged.deletedObjectIDs == [ids[3]])
        #expect(merged.refreshedObjectIDs == Set(shown.map(\.objectID)))
    }

    @Test("An automatic merge posts it too, for rows the context never registered; a merge of nothing posts nothing")
    func automaticMerge() throws {
        let (container, url, ids) = try ObjectsDidChangeAsCoreDataTests.seeded(2)
        defer { LibraryModel.remove(url) }
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let listener = Listener(reader)
        _ = try ObjectsDidChangeAsCoreDataTests.rename(ids[0], to: "Elsewhere", in: container)
        reader.performAndWait {}
        #expect(listener.all == [ContextDidMergeChanges(insertedObjectIDs: [], updatedObjectIDs: [ids[0]],
                                                        deletedObjectIDs: [], refreshedObjectIDs: [])])
        let empty = container.newBackgroundContext()
        try empty.performAndWait { try empty.save() }
        reader.performAndWait {}
        #expect(listener.all.count == 1)
    }
}
