import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Batch deletes apply the model's delete rules in SQL: cascade, nullify, deny.
@Suite("Batch delete rules")
struct BatchDeleteRuleTests {
    /// Two categories with three articles each (views 1…3), one tagged article per category.
    static func seed(_ container: PersistentContainer) throws -> [ManagedObjectID] {
        let categories = try BatchModel.categories(["Keep", "Drop"], in: container)
        var articles: [[String: Any]] = []
        for (offset, category) in categories.enumerated() {
            for views in 1...3 { articles.append(["title": "A\(offset)\(views)", "views": views, "category": category]) }
        }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Article", in: container.model, objects: articles))
        try container.coordinator.writer.withConnection { connection in
            try connection.execute("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, 4, 1, 'hot')")
            try connection.execute("INSERT INTO Z_1TAGS (Z_1ARTICLES, Z_4TAGS) VALUES (1, 1), (4, 1)")
        }
        return categories
    }

    @Test("Cascade deletes the destinations; their join rows go; the surviving category's derived values stand")
    func cascade() throws {
        let (container, url) = try BatchModel.container(articlesRule: .cascade)
        defer { LibraryModel.remove(url) }
        let categories = try Self.seed(container)
        var request = BatchDeleteRequest(entityName: "Category", predicate: try FetchPredicate(format: "name == %@", "Drop"))
        request.resultType = .objectIDs
        let result = try container.coordinator.execute(request)
        #expect(result.objectIDs == [categories[1]])
        #expect(result.changes.deletedObjectIDs.count == 4)
        #expect(try BatchModel.count(container, "ZCATEGORY") == 1)
        #expect(try BatchModel.rows(container, "SELECT ZTITLE FROM ZARTICLE ORDER BY Z_PK") == [["A01"], ["A02"], ["A03"]])
        #expect(try BatchModel.rows(container, "SELECT Z_1ARTICLES FROM Z_1TAGS") == [[1]])
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY") == [[3, 6]])
    }

    @Test("Nullify clears the destinations' keys (bumping Z_OPT) and keeps them")
    func nullify() throws {
        let (container, url) = try BatchModel.container(articlesRule: .nullify)
        defer { LibraryModel.remove(url) }
        let categories = try Self.seed(container)
        var request = BatchDeleteRequest(objectIDs: [categories[1]])
        request.resultType = .count
        let result = try container.coordinator.execute(request)
        #expect(result.count == 1)
        #expect(result.changes.updatedObjectIDs.count == 3)
        #expect(try BatchModel.count(container, "ZARTICLE") == 6)
        #expect(try BatchModel.rows(container, "SELECT count(*), min(Z_OPT) FROM ZARTICLE WHERE ZCATEGORY IS NULL") == [[3, 2]])
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY") == [[3, 6]])
    }

    @Test("Deleting articles by predicate nullifies the many-to-many and the category's count drops")
    func toManySide() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        _ = try Self.seed(container)
        let request = BatchDeleteRequest(entityName: "Article", predicate: try FetchPredicate(format: "views >= 2"))
        try container.coordinator.execute(request)
        #expect(try BatchModel.count(container, "ZARTICLE") == 2)
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY ORDER BY Z_PK") == [[1, 1], [1, 1]])
        #expect(try BatchModel.count(container, "Z_1TAGS") == 2)
    }

    @Test("A delete from a fetch request deletes what its predicate matches, with the delete rules")
    func fromFetchRequest() throws {
        let (container, url) = try BatchModel.container(articlesRule: .cascade)
        defer { LibraryModel.remove(url) }
        _ = try Self.seed(container)
        let request = BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Category", format: "name == %@", "Drop"))
        try container.coordinator.execute(request)
        #expect(try BatchModel.count(container, "ZCATEGORY") == 1)
        #expect(try BatchModel.count(container, "ZARTICLE") == 3)
    }

    @Test("Deny fails the request while a destination remains, and deletes nothing")
    func deny() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let categories = try Self.seed(container)
        try container.coordinator.execute(try BatchInsertRequest(
            entityName: "Sponsor", in: container.model, objects: [["name": "Acme", "category": categories[1]]]))
        let request = BatchDeleteRequest(entityName: "Category")
        #expect(throws: BatchError.deleteDenied(entity: "Category", relationship: "sponsors")) {
            try container.coordinator.execute(request)
        }
        #expect(try BatchModel.count(container, "ZCATEGORY") == 2)
        #expect(try BatchModel.count(container, "ZARTICLE") == 6)
        // Deleting the sponsor first lets it through.
        try container.coordinator.execute(BatchDeleteRequest(entityName: "Sponsor"))
        try container.coordinator.execute(request)
        #expect(try BatchModel.count(container, "ZCATEGORY") == 0)
        #expect(try BatchModel.count(container, "ZARTICLE") == 0)
    }
}
