import Foundation
import Testing
@testable import Faultline

/// A save that deletes an object frees its unique values for the save's own
/// inserts and updates: an object replaced by a new one with the same key in
/// one save is written, under every merge policy, without a conflict.
@Suite("Uniqueness: a value freed by a deletion in the same save")
struct UniqueValueReuseTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("key", .string).unique()
                Attribute("text", .string)
            }
        }
    }

    static func item(_ key: String, _ text: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue(key, forKey: "key")
        try item.setValue(text, forKey: "text")
        return item
    }

    static func stored(_ container: PersistentContainer) throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            var request = FetchRequest(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "key")]
            return try reader.fetch(request).map { "\($0.value(forKey: "key") as? String ?? "nil")=\($0.value(forKey: "text") as? String ?? "nil")" }
        }
    }

    @Test("Deleting an object and inserting one with its key: the row is replaced",
          arguments: [MergePolicy.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback])
    func replaceByInsert(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            let old = try Self.item("u1", "old", in: context)
            try context.save()
            context.delete(old)
            _ = try Self.item("u1", "new", in: context)
            // The unique index refuses the INSERT unless the DELETE ran first.
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try Self.stored(container) == ["u1=new"])
    }

    @Test("An update taking the key of an object deleted in the same save")
    func replaceByUpdate() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try Self.item("u1", "first", in: context)
            let second = try Self.item("u2", "second", in: context)
            try context.save()
            context.delete(first)
            try second.setValue("u1", forKey: "key")
            try context.save()
        }
        #expect(try Self.stored(container) == ["u1=second"])
    }

    @Test("A stored key still conflicts when the object holding it is not deleted")
    func notDeletedStillConflicts() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let old = try Self.item("u1", "old", in: context)
            try context.save()
            let new = try Self.item("u1", "new", in: context)
            #expect {
                try context.save()
            } throws: { error in
                SaveError.failed(error, firstOn: .uniqueness(new.objectID, existing: old.objectID, constraint: ["key"]))
            }
        }
        #expect(try Self.stored(container) == ["u1=old"])
    }
}
