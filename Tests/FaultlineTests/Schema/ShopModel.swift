import FixtureSupport
import Foundation
import FaultlineSQLite
@testable import Faultline

/// The Category/Article model of the schema tests: every kind of derived
/// attribute, a self-referential to-one, a many-to-many and a compound constraint.
enum ShopModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string).required()
                Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: .cascade)
                Relationship("parent", to: "Category", inverse: "children")
                Relationship("children", to: "Category", inverse: "parent", toMany: true)
                Derived("articlesCount", .integer64, "articles.@count")
                Derived("totalViews", .integer64, "@sum.articles.views")
                Derived("minViews", .integer64, "articles.@min.views")
                Derived("maxViews", .integer64, "articles.@max.views")
                Derived("averageViews", .double, "articles.@avg.views")
                Derived("lastModified", .date, "now()")
            }
            Entity("Article") {
                Attribute("title", .string).required()
                Attribute("views", .integer64).defaultValue(.integer(0))
                Relationship("category", to: "Category", inverse: "articles")
                Relationship("tags", to: "Tag", inverse: "articles", toMany: true)
                Derived("searchTitle", .string, "canonical:(title)")
                Derived("categoryName", .string, "category.name")
                Derived("sectionName", .string, "category.parent.name")
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("articles", to: "Article", inverse: "tags", toMany: true)
                Derived("articleCount", .integer64, "articles.@count")
            }
            Entity("Person") {
                Attribute("firstName", .string)
                Attribute("lastName", .string)
                Unique("firstName", "lastName")
            }
        }
    }

    static func schema() throws -> StoreSchema {
        try StoreSchema(compiling: model().checked())
    }
}

/// A store created from a schema in a temporary file, read back with plain SQL.
final class TestStore {
    let path: String
    let connection: Connection
    let schema: StoreSchema

    init(_ schema: StoreSchema) throws {
        path = ScratchStores.url().path
        connection = try Connection(.file(path))
        try StoreFunctions.register(on: connection)
        try StoreBootstrap.create(schema, on: connection)
        self.schema = schema
    }

    /// Runs SQL that bypasses any object layer.
    func run(_ sql: String, _ values: [SQLValue] = []) throws {
        try connection.execute(sql, values)
    }

    func value(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try connection.scalar(sql, values)
    }

    /// `PRAGMA integrity_check` answers "ok".
    func isIntact() throws -> Bool {
        try connection.scalar("PRAGMA integrity_check") == .text("ok")
    }

    deinit {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
