import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Live contexts see what batch requests changed once they merge: updated
/// objects refresh, deleted objects leave, derived values re-read.
@Suite("Batch changes merged into contexts")
struct BatchMergeTests {
    @Test("After a batch update and delete, mergeChanges(fromRemoteContextSave:into:) refreshes and removes objects")
    func explicitMerge() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let categories = try BatchModel.categories(["News"], in: container)
        var insert = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [
            ["title": "Kept", "views": 1, "category": categories[0]], ["title": "Gone", "views": 2, "category": categories[0]],
        ])
        insert.resultType = .objectIDs
        let ids = try container.coordinator.execute(insert).objectIDs
        let context = container.newBackgroundContext()
        let (kept, gone, category) = try context.performAndWait {
            (try context.existingObject(with: ids[0]), try context.existingObject(with: ids[1]),
             try context.existingObject(with: categories[0]))
        }
        context.performAndWait {
            #expect(kept.value(forKey: "views") as? Int64 == 1)
            #expect(category.value(forKey: "totalViews") as? Int64 == 3)
        }

        var update = BatchUpdateRequest(entityName: "Article", predicate: try FetchPredicate(format: "title == %@", "Kept"))
        update.propertiesToUpdate = ["views": .expression("views + 100")]
        let updated = try container.coordinator.execute(update)
        let deleted = try container.coordinator.execute(BatchDeleteRequest(objectIDs: [ids[1]]))
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: updated.changes, into: [context])
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: deleted.changes, into: [context])

        context.performAndWait {
            #expect(kept.value(forKey: "views") as? Int64 == 101)
            #expect(gone.isDeleted)
            #expect(context.registeredObject(for: ids[1]) == nil)
            #expect(category.value(forKey: "totalViews") as? Int64 == 101)
            #expect(category.value(forKey: "articlesCount") as? Int64 == 1)
        }
    }

    @Test("After batch inserts and upserts that link or move rows, a merge reloads every loaded to-many they changed")
    func insertsRelinkDestinations() throws {
        // No derived attributes: nothing else makes the merge re-read the shelves.
        let model = ManagedObjectModel {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("isbn", .string)
                Relationship("shelf", to: "Shelf", inverse: "books")
                Unique("isbn")
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        var shelvesInsert = try BatchInsertRequest(entityName: "Shelf", in: container.model, objects: [["name": "A"], ["name": "B"]])
        shelvesInsert.resultType = .objectIDs
        let shelves = try container.coordinator.execute(shelvesInsert).objectIDs
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Book", in: container.model, objects: [
            ["title": "Kept", "isbn": "k", "shelf": shelves[0]], ["title": "Moved", "isbn": "m", "shelf": shelves[0]],
        ]))
        let context = container.newBackgroundContext()
        func titles(_ id: ManagedObjectID) throws -> [String] {
            try context.existingObject(with: id).value(forKey: "books").map { ($0 as? [ManagedObject]) ?? [] }?
                .compactMap { $0.value(forKey: "title") as? String }.sorted() ?? []
        }
        try context.performAndWait { () throws in
            #expect(try titles(shelves[0]) == ["Kept", "Moved"])
            #expect(try titles(shelves[1]) == [])
        }
        for policy in [BatchConflictPolicy.objectTrump, .updateSetColumns] {
            // A new row linked to a loaded shelf, and a stored one moved between two (or kept in place).
            var upsert = try BatchInsertRequest(entityName: "Book", in: container.model, objects: [
                ["title": "Fresh \(policy)", "isbn": "f\(policy)", "shelf": shelves[1]],
                ["title": "Moved", "isbn": "m", "shelf": shelves[policy == .objectTrump ? 1 : 0]],
            ])
            upsert.conflictPolicy = policy
            let result = try container.coordinator.execute(upsert)
            #expect(result.counters.rowsUpdated == 1)
            try context.performAndWait { () throws in
                ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
                if policy == .objectTrump {
                    #expect(try titles(shelves[0]) == ["Kept"])
                    #expect(try titles(shelves[1]) == ["Fresh objectTrump", "Moved"])
                } else {
                    #expect(try titles(shelves[0]) == ["Kept", "Moved"])
                    #expect(try titles(shelves[1]) == ["Fresh objectTrump", "Fresh updateSetColumns"])
                }
            }
        }
        // Object trump without the to-one clears it (unset columns take their defaults): the old shelf lets go.
        var cleared = try BatchInsertRequest(entityName: "Book", in: container.model, objects: [["title": "Kept", "isbn": "k"]])
        cleared.conflictPolicy = .objectTrump
        let result = try container.coordinator.execute(cleared)
        let shelf = try #require(container.model.entity(named: "Shelf")).index
        #expect(result.changes.relinkedEntities == [shelf])
        try context.performAndWait { () throws in
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
            #expect(try titles(shelves[0]) == ["Moved"])
        }
        // Rows that name no destination relink nothing; a context merging automatically re-reads as well.
        let loose = try container.coordinator.execute(
            try BatchInsertRequest(entityName: "Book", in: container.model, objects: [["title": "Loose", "isbn": "l"]]))
        #expect(loose.changes.relinkedEntities.isEmpty)
        context.performAndWait { context.automaticallyMergesChangesFromParent = true }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Book", in: container.model, objects: [
            ["title": "Auto", "isbn": "a", "shelf": shelves[0]],
        ]))
        try context.performAndWait { () throws in
            #expect(try titles(shelves[0]) == ["Auto", "Moved"])
        }
    }

    /// One article, batch-inserted; its ID.
    static func insertArticle(views: Int64, into container: PersistentContainer) throws -> ManagedObjectID {
        var insert = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "One", "views": views]])
        insert.resultType = .objectIDs
        return try container.coordinator.execute(insert).objectIDs[0]
    }

    @Test("An ID listed twice as updated by mergeChanges(fromRemoteContextSave:): the object shows the new row and is announced once")
    func updatedListedTwice() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let id = try Self.insertArticle(views: 1, into: container)
        let context = container.newBackgroundContext()
        let object = try context.performAndWait { try context.existingObject(with: id) }
        context.performAndWait { #expect(object.value(forKey: "views") as? Int64 == 1) }
        try Connection(.file(url.path)).execute("UPDATE ZARTICLE SET ZVIEWS = 7, Z_OPT = Z_OPT + 1 WHERE Z_PK = \(id.primaryKey)")

        let announced = Locked<[Set<ObjectIdentifier>]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: .managedObjectContextObjectsDidChange, object: context, queue: nil
        ) { note in
            guard let change = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange else { return }
            // A merged update is a refresh here, as in Core Data.
            announced.withLock { $0.append(Set(change.refreshedObjects.map(ObjectIdentifier.init))) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.performAndWait { context.mergeChanges(fromRemoteContextSave: ["updated": [id, id]]) }

        context.performAndWait { #expect(object.value(forKey: "views") as? Int64 == 7) }
        #expect(announced.withLock { $0 } == [[ObjectIdentifier(object)]])
    }

    @Test("A context that merges automatically sees a batch update through the observers")
    func automaticMerge() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let id = try Self.insertArticle(views: 1, into: container)
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let object = try context.performAndWait { try context.existingObject(with: id) }
        let other = container.newBackgroundContext()
        let count = try other.performAndWait { () throws -> Int in
            var update = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["views": .value(.integer(9))])
            update.resultType = .count
            return try other.execute(update).count
        }
        #expect(count == 1)
        context.performAndWait { #expect(object.value(forKey: "views") as? Int64 == 9) }
        try container.coordinator.execute(BatchDeleteRequest(entityName: "Article"))
        context.performAndWait {
            #expect(object.isDeleted)
            #expect(context.registeredObject(for: id) == nil)
        }
    }
}
