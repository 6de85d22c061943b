import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A one-to-one that still names an object whose deletion was saved or merged
/// (a no-action rule, another context's delete, a batch delete, a store that
/// keeps the pair on one side only, as Apple's Notes store does): deleting or
/// re-linking the other side saves, where clearing the gone object's inverse
/// trapped.
@Suite("One-to-ones naming a deleted object")
struct DeletedOneToOneTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("CloudState") {
                Attribute("version", .integer64)
                Relationship("owner", to: "Note", inverse: "cloudState", deleteRule: .noAction)
            }
            Entity("Note") {
                Attribute("title", .string)
                Relationship("cloudState", to: "CloudState", inverse: "owner", deleteRule: .cascade)
            }
        }
    }

    /// A saved note with its cloud state; their IDs.
    static func seed(_ context: ManagedObjectContext) throws -> (note: ManagedObjectID, state: ManagedObjectID) {
        try context.performAndWait {
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("n", forKey: "title")
            let state = try context.insertNewObject(forEntityName: "CloudState")
            try state.setValue(Int64(1), forKey: "version")
            try note.setValue(state, forKey: "cloudState")
            try context.save()
            return (note.objectID, state.objectID)
        }
    }

    static func count(_ entity: String, in container: PersistentContainer) throws -> Int {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.count(for: FetchRequest(entityName: entity)) }
    }

    @Test("Under a no-action rule, deleting the state then the note saves both deletions")
    func noActionThenDelete() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let ids = try Self.seed(context)
        try context.performAndWait {
            let note = try context.existingObject(with: ids.note)
            context.delete(try context.existingObject(with: ids.state))
            try context.save()
            #expect((note.value(forKey: "cloudState") as? ManagedObject)?.objectID == ids.state)
            context.delete(note)
            try context.save()
        }
        #expect(try Self.count("Note", in: container) == 0)
        #expect(try Self.count("CloudState", in: container) == 0)
    }

    @Test("After another context's delete merged automatically, or a batch delete merged, the note is deleted or re-linked",
          arguments: ["save", "batch"], [false, true])
    func mergedDelete(route: String, relinks: Bool) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let holder = container.newBackgroundContext()
        let ids = try Self.seed(holder)
        let note = try holder.performAndWait {
            holder.automaticallyMergesChangesFromParent = true
            let note = try holder.existingObject(with: ids.note)
            _ = (note.value(forKey: "cloudState") as? ManagedObject)?.value(forKey: "version")
            return note
        }
        if route == "save" {
            let other = container.newBackgroundContext()
            try other.performAndWait {
                other.delete(try other.existingObject(with: ids.state))
                try other.save()
            }
        } else {
            let result = try container.coordinator.execute(BatchDeleteRequest(objectIDs: [ids.state]))
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [holder])
        }
        try holder.performAndWait {
            if relinks {
                let fresh = try holder.insertNewObject(forEntityName: "CloudState")
                try fresh.setValue(Int64(2), forKey: "version")
                try note.setValue(fresh, forKey: "cloudState")
                #expect(fresh.value(forKey: "owner") as? ManagedObject === note)
            } else {
                holder.delete(note)
            }
            try holder.save()
        }
        #expect(try Self.count("Note", in: container) == (relinks ? 1 : 0))
        #expect(try Self.count("CloudState", in: container) == (relinks ? 1 : 0))
        if relinks {
            let rows = try container.coordinator.withReader { try $0.rows("SELECT ZCLOUDSTATE FROM ZNOTE") }
            let state = try container.coordinator.withReader { try $0.rows("SELECT Z_PK, ZOWNER FROM ZCLOUDSTATE") }
            #expect(rows.count == 1 && state.count == 1)
            #expect(rows.first?.first == state.first?.first)
            #expect(state.first?.last == .integer(ids.note.primaryKey))
        }
    }

    @Test("A pair stored on one side only (the state's key NULL): after the state's deletion, deleting the note cascades into a row that is gone: a typed conflict under .error, saved under a merging policy")
    func oneSidedPair() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container.newBackgroundContext())
        try Connection(.file(url.path)).execute("UPDATE ZCLOUDSTATE SET ZOWNER = NULL")
        container.coordinator.rowCache.removeAll()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = try context.existingObject(with: ids.note)
            let state = try context.existingObject(with: ids.state)
            #expect(state.value(forKey: "owner") == nil)
            context.delete(state)
            try context.save()
            context.delete(note)
            // The cascade reaches the state's row through the note's key; this
            // context's own deletion removed it, as another context's might have.
            #expect {
                try context.save()
            } throws: { error in
                guard case SaveError.conflicts(let conflicts) = error, conflicts.count == 1,
                      case .optimisticLocking(let id, _, let storeVersion) = conflicts[0] else { return false }
                return id == ids.state && storeVersion == nil
            }
            #expect(note.isDeleted)
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
        }
        #expect(try Self.count("Note", in: container) == 0)
        #expect(try Self.count("CloudState", in: container) == 0)
    }
}
