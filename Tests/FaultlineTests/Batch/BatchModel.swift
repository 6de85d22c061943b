import Foundation
import FaultlineSQLite
@testable import Faultline

/// Categories and articles for the batch tests: a canonical column, a count
/// and a sum trigger, unique keys on both sides, and every delete rule.
enum BatchModel {
    /// `articlesRule` is what deleting a category does to its articles.
    static func model(articlesRule: DeleteRule = .cascade) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string).required()
                Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: articlesRule)
                Relationship("sponsors", to: "Sponsor", inverse: "category", toMany: true, deleteRule: .deny)
                Derived("articlesCount", .integer64, "articles.@count")
                Derived("totalViews", .integer64, "@sum.articles.views")
                Unique("name")
            }
            Entity("Article") {
                Attribute("title", .string).required().validated(.minimumLength(2))
                Attribute("slug", .string)
                Attribute("views", .integer64).defaultValue(.integer(0))
                Attribute("rating", .double).defaultValue(.double(2.5))
                Attribute("flagged", .boolean).defaultValue(.bool(false))
                Attribute("published", .date)
                Attribute("body", .binaryData)
                Relationship("category", to: "Category", inverse: "articles")
                Relationship("tags", to: "Tag", inverse: "articles", toMany: true)
                Derived("searchTitle", .string, "canonical:(title)")
                Unique("slug")
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("articles", to: "Article", inverse: "tags", toMany: true)
            }
            Entity("Sponsor") {
                Attribute("name", .string)
                Relationship("category", to: "Category", inverse: "sponsors")
            }
        }
    }

    static func container(articlesRule: DeleteRule = .cascade) throws -> (PersistentContainer, URL) {
        try LibraryModel.container(model(articlesRule: articlesRule))
    }

    /// Inserts categories named `names` through a batch insert; returns their IDs in order.
    @discardableResult
    static func categories(_ names: [String], in container: PersistentContainer) throws -> [ManagedObjectID] {
        var request = try BatchInsertRequest(entityName: "Category", in: container.model,
                                             objects: names.map { ["name": $0] })
        request.resultType = .objectIDs
        return try container.coordinator.execute(request).objectIDs
    }

    /// Plain SQL against the store, bypassing the object layer.
    static func scalar(_ container: PersistentContainer, _ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try container.coordinator.writer.withConnection { try $0.scalar(sql, values) }
    }

    static func rows(_ container: PersistentContainer, _ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try container.coordinator.writer.withConnection { try $0.rows(sql, values) }
    }

    static func count(_ container: PersistentContainer, _ table: String) throws -> Int64 {
        guard case .integer(let count)? = try scalar(container, "SELECT count(*) FROM \(table)") else { return -1 }
        return count
    }
}
