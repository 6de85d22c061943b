import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// A to-one to an entity with sub-entities stores the destination's entity
/// number beside its key. A number no entity has, in a damaged or foreign
/// store, must not be trusted: the reference falls back to the relationship's
/// declared destination, as in a store without the column.
@Suite("Corrupt entity numbers in to-one references")
struct CorruptEntityColumnTests {
    @Test("An entity number out of range, past 32 bits, or of an entity outside the destination's hierarchy is not trusted")
    func outOfRange() throws {
        let model = ManagedObjectModel {
            Entity("Content", abstract: true) { Attribute("title", .string) }
            Entity("Article", parent: "Content") { Attribute("views", .integer64) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Comment") {
                Attribute("text", .string)
                Relationship("content", to: "Content")
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let page = try context.insertNewObject(forEntityName: "Page")
            try page.setValue("P", forKey: "title")
            let article = try context.insertNewObject(forEntityName: "Article")
            try article.setValue("A", forKey: "title")
            let comment = try context.insertNewObject(forEntityName: "Comment")
            try comment.setValue(article, forKey: "content")
            try context.save()
        }
        let checked = try model.checked()
        let content = try #require(checked.entity(named: "Content"))
        let page = try #require(checked.entity(named: "Page")).index + 1
        let comment = try #require(checked.entity(named: "Comment")).index + 1
        // Past 32 bits Page's number must not wrap onto Page; Comment's own
        // number is a real entity outside Content's hierarchy.
        for bogus: Int64 in [99, 1 << 32 | Int64(page), -5, Int64(comment)] {
            try Connection(.file(url.path)).execute("UPDATE ZCOMMENT SET Z2_CONTENT = \(bogus)")
            container.coordinator.rowCache.removeAll()
            try context.performAndWait {
                context.reset()
                let comment = try #require(try context.fetch(FetchRequest(entityName: "Comment")).first)
                let destination = try #require(comment.value(forKey: "content") as? ManagedObject)
                #expect(destination.objectID.entityIndex == content.index)
                #expect(destination.entity?.name != "Page")
            }
        }
    }

    @Test("A row whose Z_ENT names no entity of the hierarchy is left out of ID fetches and batched fetches, as of full fetches")
    func corruptZENT() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ann", "Bob", "Cy"] {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(name + "-author", forKey: "name")
            }
            try context.save()
        }
        try Connection(.file(url.path)).execute("UPDATE ZAUTHOR SET Z_ENT = 4294967297 WHERE ZNAME = 'Bob-author'")
        try context.performAndWait {
            context.reset()
            var request = FetchRequest(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let ids = try context.fetchObjectIDs(request)
            let full = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            request.fetchBatchSize = 2
            let batched = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            #expect(ids.count == 2)
            #expect(full == ["Ann-author", "Cy-author"])
            #expect(batched == ["Ann-author", "Cy-author"])
        }
    }

    @Test("A uniqueness check meeting a row with a damaged Z_ENT fails the save with a typed error and writes nothing")
    func uniquenessAgainstDamagedRow() throws {
        let model = ManagedObjectModel {
            Entity("Other") { Attribute("name", .string) }
            Entity("Tag") {
                Attribute("name", .string)
                Unique("name")
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext()
        try first.performAndWait {
            let tag = try first.insertNewObject(forEntityName: "Tag")
            try tag.setValue("x", forKey: "name")
            try first.save()
        }
        for bogus: Int64 in [1 << 31 | 1, 1 << 32 | 1] {
            try Connection(.file(url.path)).execute("UPDATE ZTAG SET Z_ENT = \(bogus)")
            let second = container.newBackgroundContext()
            second.mergePolicy = .mergeByPropertyObjectTrump
            try second.performAndWait {
                let tag = try second.insertNewObject(forEntityName: "Tag")
                try tag.setValue("x", forKey: "name")
                #expect(throws: StoreError.unknownEntityNumber(bogus, primaryKey: 1)) { try second.save() }
                #expect(second.hasChanges)
            }
            let rows = try Connection(.file(url.path)).rows("SELECT count(*) FROM ZTAG")
            #expect(rows == [[.integer(1)]])
        }
    }

    @Test("existingObject refuses an ID whose entity index is negative")
    func negativeEntityIndex() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let id = ManagedObjectID(storeIdentifier: container.coordinator.identifier, entityIndex: -1, primaryKey: 1)
        context.performAndWait {
            _ = #expect(throws: StoreError.foreignObjectID(id.description)) { try context.existingObject(with: id) }
        }
    }
}
