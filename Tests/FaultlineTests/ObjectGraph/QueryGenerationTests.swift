import Foundation
import Testing
@testable import Faultline

/// A context pinned to a query generation reads the store as it was when
/// pinned — fetches, counts and faults alike, the row cache's newer rows
/// ignored — while other contexts commit; it moves on when asked, when it
/// saves, resets or merges.
@Suite("Query generations")
struct QueryGenerationTests {
    /// Three authors saved; returns the container and one author's ID.
    static func seeded() throws -> (PersistentContainer, URL, ManagedObjectID) {
        let (container, url) = try LibraryModel.container()
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            var first: ManagedObject?
            for name in ["Ann", "Bob", "Cid"] {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(name, forKey: "name")
                first = first ?? author
            }
            try context.save()
            return try #require(first?.objectID)
        }
        return (container, url, id)
    }

    static func names(_ context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
    }

    @Test("A pinned context keeps reading the old values while another context commits twice, and the new ones after moving to .current")
    func pinnedReads() throws {
        let (container, url, ann) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let pinned = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            #expect(pinned.queryGenerationToken != nil)
        }
        try writer.performAndWait {
            try writer.existingObject(with: ann).setValue("Anna", forKey: "name")
            try writer.save()
            let dan = try writer.insertNewObject(forEntityName: "Author")
            try dan.setValue("Dan", forKey: "name")
            try writer.save()
            // The row cache now holds Anna's new row (the save cached it).
            #expect(container.coordinator.rowCache.snapshot(for: ann) != nil)
        }
        try pinned.performAndWait { () throws in
            #expect(try Self.names(pinned) == ["Ann", "Bob", "Cid"])
            #expect(try pinned.count(for: FetchRequest(entityName: "Author")) == 3)
            pinned.reset()
            // A reset moves to the current generation, as in Core Data.
            #expect(try Self.names(pinned) == ["Anna", "Bob", "Cid", "Dan"])
        }
    }

    @Test("A child reads its parent's generation, made before or after the pin, and follows it when the parent moves on; its own pin wins")
    func childrenReadTheParentsGeneration() throws {
        let (container, url, ann) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let early = parent.newChildContext()
        let writer = container.newBackgroundContext()
        try parent.performAndWait { try parent.setQueryGenerationFrom(.current) }
        let late = parent.newChildContext()
        try writer.performAndWait {
            try writer.existingObject(with: ann).setValue("Anna", forKey: "name")
            try writer.insertNewObject(forEntityName: "Author").setValue("Dan", forKey: "name")
            try writer.save()
        }
        let token = parent.performAndWait { parent.queryGenerationToken }
        for child in [early, late] {
            try child.performAndWait { () throws in
                #expect(child.queryGenerationToken == token)
                #expect(try Self.names(child) == ["Ann", "Bob", "Cid"])
                #expect(try child.count(for: FetchRequest(entityName: "Author")) == 3)
                #expect(try child.existingObject(with: ann).value(forKey: "name") as? String == "Ann", "a fault skips the row cache")
            }
        }
        // The child's own pin wins over its parent's; unpinned, it reads the parent's again.
        try early.performAndWait { () throws in
            try early.setQueryGenerationFrom(.current)
            #expect(early.queryGenerationToken != token)
            early.reset()
            #expect(try Self.names(early) == ["Anna", "Bob", "Cid", "Dan"])
            try early.setQueryGenerationFrom(nil)
            #expect(early.queryGenerationToken == token)
        }
        parent.performAndWait { parent.reset() }
        try late.performAndWait { () throws in
            late.reset()
            #expect(late.queryGenerationToken != nil && late.queryGenerationToken != token)
            #expect(try Self.names(late) == ["Anna", "Bob", "Cid", "Dan"], "the parent moved on, and the child with it")
        }
        try parent.performAndWait { try parent.setQueryGenerationFrom(nil) }
        late.performAndWait { #expect(late.queryGenerationToken == nil) }
    }

    @Test("A parent making a child per request keeps no entry for the children dropped since")
    func droppedChildrenLeaveNothing() throws {
        let (container, url, _) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        for _ in 0..<1_000 {
            let child = parent.newChildContext()
            child.performAndWait {}
        }
        #expect(parent.generation.entryCount <= 1)
    }

    @Test("Faults of a pinned context skip the row cache's newer rows, and what it reads is not cached for others")
    func faultsBypassTheCache() throws {
        let (container, url, ann) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let pinned = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        try writer.performAndWait {
            try writer.existingObject(with: ann).setValue("Anna", forKey: "name")
            try writer.save()
        }
        try pinned.performAndWait {
            let fault = try pinned.object(with: ann)
            #expect(fault.value(forKey: "name") as? String == "Ann")
            #expect(pinned.counters.faultsFulfilledFromCache == 0)
        }
        #expect(container.coordinator.rowCache.snapshot(for: ann)?.values.contains(.string("Anna")) == true,
                "the pinned read left the cache's newer row alone")
        let fresh = container.newBackgroundContext()
        fresh.performAndWait { #expect((try? fresh.existingObject(with: ann))?.value(forKey: "name") as? String == "Anna") }
    }

    @Test("Another context pinned with the first one's token reads the same generation; nil unpins; a save moves to the current one")
    func sharedTokenAndUnpin() throws {
        let (container, url, ann) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext(), second = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        let token = try first.performAndWait {
            try first.setQueryGenerationFrom(.current)
            return try #require(first.queryGenerationToken)
        }
        try writer.performAndWait {
            try writer.existingObject(with: ann).setValue("Anna", forKey: "name")
            try writer.save()
        }
        try second.performAndWait {
            try second.setQueryGenerationFrom(token)
            #expect(second.queryGenerationToken == token)
            #expect(try Self.names(second) == ["Ann", "Bob", "Cid"])
            try second.setQueryGenerationFrom(nil)
            #expect(second.queryGenerationToken == nil)
            // Registered objects keep what they read, as in Core Data, until refreshed.
            second.refreshAllObjects()
            #expect(try Self.names(second) == ["Anna", "Bob", "Cid"])
        }
        try first.performAndWait { () throws in
            #expect(try Self.names(first) == ["Ann", "Bob", "Cid"])
            let ed = try first.insertNewObject(forEntityName: "Author")
            try ed.setValue("Eddie", forKey: "name")
            try first.save()
            #expect(first.queryGenerationToken != token, "the save moved it on")
            first.reset()
            #expect(try Self.names(first) == ["Anna", "Bob", "Cid", "Eddie"])
        }
    }

    @Test("A pinned context that merges other saves automatically moves to the current generation with the merge")
    func mergeMovesOn() throws {
        let (container, url, ann) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let pinned = container.newBackgroundContext()
        pinned.automaticallyMergesChangesFromParent = true
        let writer = container.newBackgroundContext()
        let token = try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            return pinned.queryGenerationToken
        }
        try writer.performAndWait {
            try writer.existingObject(with: ann).setValue("Anna", forKey: "name")
            try writer.save()
        }
        try pinned.performAndWait { () throws in
            pinned.processPendingChanges()
            #expect(pinned.queryGenerationToken != token)
            #expect(try Self.names(pinned) == ["Anna", "Bob", "Cid"])
        }
    }

    @Test("An in-memory store has no query generations, and another store's token is refused: typed errors, the context unpinned")
    func refusals() throws {
        let memory = try PersistentContainer(model: LibraryModel.model())
        let context = memory.newBackgroundContext()
        #expect(throws: StoreError.queryGenerationsUnavailable(reason: "an in-memory store has a single connection")) {
            try context.setQueryGenerationFrom(.current)
        }
        #expect(context.queryGenerationToken == nil)
        let (container, url, _) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let (other, otherURL, _) = try Self.seeded()
        defer { LibraryModel.remove(otherURL) }
        let foreign = try other.newBackgroundContext().performAndWait {
            let context = other.newBackgroundContext()
            try context.setQueryGenerationFrom(.current)
            return try #require(context.queryGenerationToken)
        }
        let mine = container.newBackgroundContext()
        #expect(throws: StoreError.foreignQueryGeneration) { try mine.setQueryGenerationFrom(foreign) }
        #expect(mine.queryGenerationToken == nil)
    }
}
