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
    @Test("An entity number out of range, small or past 32 bits, never crashes nor names another entity")
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
        let content = try #require(model.checked().entity(named: "Content"))
        for bogus: Int64 in [99, 1 << 32 | 3, -5] {
            // Entity number 3 is Page: past 32 bits the number must not wrap onto it.
            try Connection(.file(url.path)).execute("UPDATE ZCOMMENT SET Z1_CONTENT = \(bogus)")
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
}
