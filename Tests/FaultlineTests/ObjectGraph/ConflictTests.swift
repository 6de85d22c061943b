import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Two contexts editing the same object: optimistic locking through Z_OPT,
/// resolved by merge policy.
@Suite("Optimistic locking and merge policies")
struct ConflictTests {
    /// An author saved once; returns its ID.
    private func seeded(_ container: PersistentContainer) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try author.setValue(Date(timeIntervalSinceReferenceDate: 100), forKey: "born")
            try context.save()
            return author.objectID
        }
    }

    /// Both contexts read the author; the first renames it and saves.
    private func race(_ container: PersistentContainer, _ id: ManagedObjectID, policy: MergePolicy)
        throws -> (ManagedObjectContext, ManagedObject)
    {
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        second.mergePolicy = policy
        let stale = try second.performAndWait { try second.existingObject(with: id) }
        try first.performAndWait {
            let author = try first.existingObject(with: id)
            try author.setValue("Ursula K.", forKey: "name")
            try first.save()
        }
        return (second, stale)
    }

    @Test("Under error the second save reports the conflict and writes nothing")
    func errorPolicy() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try seeded(container)
        let (second, stale) = try race(container, id, policy: .error)
        try second.performAndWait {
            try stale.setValue(Date(timeIntervalSinceReferenceDate: 200), forKey: "born")
            #expect {
                try second.save()
            } throws: { error in
                guard case SaveError.conflicts(let conflicts) = error else { return false }
                return conflicts == [.optimisticLocking(id, expectedVersion: 1, storeVersion: 2)]
            }
            #expect(stale.isUpdated)
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let author = try check.existingObject(with: id)
            #expect(author.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 100))
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
        }
    }

    @Test("Under object trump the changed properties win and the others keep the stored values")
    func objectTrump() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try seeded(container)
        let (second, stale) = try race(container, id, policy: .mergeByPropertyObjectTrump)
        try second.performAndWait {
            try stale.setValue(Date(timeIntervalSinceReferenceDate: 200), forKey: "born")
            try second.save()
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let author = try check.existingObject(with: id)
            #expect(author.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 200))
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
        }
    }

    @Test("Under store trump the store's change to the same property wins; other changes are kept")
    func storeTrump() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try seeded(container)
        let (second, stale) = try race(container, id, policy: .mergeByPropertyStoreTrump)
        try second.performAndWait {
            try stale.setValue("Ursula L.", forKey: "name")
            try stale.setValue(Date(timeIntervalSinceReferenceDate: 300), forKey: "born")
            try second.save()
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let author = try check.existingObject(with: id)
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
            #expect(author.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 300))
        }
    }

    @Test("Under overwrite the object's whole state wins; under rollback the store's does")
    func overwriteAndRollback() throws {
        for policy in [MergePolicy.overwrite, .rollback] {
            let (container, url) = try LibraryModel.container()
            defer { LibraryModel.remove(url) }
            let id = try seeded(container)
            let (second, stale) = try race(container, id, policy: policy)
            try second.performAndWait {
                try stale.setValue(Date(timeIntervalSinceReferenceDate: 400), forKey: "born")
                try second.save()
            }
            let check = container.newBackgroundContext()
            try check.performAndWait {
                let author = try check.existingObject(with: id)
                let expectedName = policy == .overwrite ? "Ursula" : "Ursula K."
                let expectedBorn = policy == .overwrite ? 400.0 : 100.0
                #expect(author.value(forKey: "name") as? String == expectedName, "\(policy)")
                #expect(author.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: expectedBorn), "\(policy)")
            }
        }
    }

    @Test("A fault whose row another context deleted, changed through an inverse: the save reports or drops it, never traps",
          arguments: [MergePolicy.error, .mergeByPropertyObjectTrump])
    func changedFaultOfDeletedRow(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try seeded(container)
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        let gone = try context.performAndWait { try context.object(with: id) }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: id))
            try other.save()
        }
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Orphan", forKey: "title")
            // Adding the book to the author's books fires its fault, which finds no row.
            try book.setValue(gone, forKey: "author")
            #expect(gone.isFault)
            if policy == .error {
                let error = #expect(throws: SaveError.self) { try context.save() }
                guard case .conflicts(let conflicts) = error else { Issue.record("expected conflicts, got \(String(describing: error))"); return }
                #expect(conflicts == [.optimisticLocking(id, expectedVersion: 0, storeVersion: nil)])
                #expect(context.hasChanges)
            } else {
                try context.save()
                #expect(gone.managedObjectContext == nil)
                #expect(book.value(forKey: "author") == nil)
                #expect(!context.hasChanges)
            }
        }
    }

    @Test("A failed save leaves the store's content unchanged and the context holding its changes")
    func failedSaveChangesNothing() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        _ = try seeded(container)
        let dump = { () throws -> [[SQLValue]] in
            let reader = try Connection(.file(url.path))
            var rows: [[SQLValue]] = []
            for table in ["ZAUTHOR", "ZBOOK", "Z_PRIMARYKEY", "Z_METADATA"] {
                rows += try reader.rows("SELECT * FROM \(table) ORDER BY 1")
            }
            return rows
        }
        let before = try dump()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Tehanu", forKey: "title")
            let duplicate = try context.insertNewObject(forEntityName: "Author")
            try duplicate.setValue("Ursula", forKey: "name")
            try book.setValue(duplicate, forKey: "author")
            #expect(throws: SaveError.self) { try context.save() }
            #expect(context.insertedObjects.count == 2)
            #expect(book.value(forKey: "author") as? ManagedObject === duplicate)
        }
        #expect(try dump() == before)
    }
}
