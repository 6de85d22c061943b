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
}
