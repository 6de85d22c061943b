import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// The aggregates kept over one to-many share their triggers: a child row
/// written costs its parent one UPDATE, whatever the number of aggregates.
@Suite("Aggregates over one to-many share one trigger per event")
struct MergedAggregateTriggerTests {
    static func model(aggregates: Bool = true) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string)
                Relationship("articles", to: "Article", inverse: "category", toMany: true)
                Derived("articleCount", .integer64, "articles.@count")
                if aggregates {
                    Derived("totalViews", .integer64, "@sum.articles.views")
                    Derived("averageViews", .double, "articles.@avg.views")
                    Derived("maxViews", .integer64, "articles.@max.views")
                }
            }
            Entity("Article") {
                Attribute("views", .integer64)
                Relationship("category", to: "Category", inverse: "articles")
            }
        }
    }

    private func changes(_ store: TestStore) throws -> Int64 {
        guard case .integer(let count)? = try store.value("SELECT total_changes()", []) else { return -1 }
        return count
    }

    @Test("Four aggregates: one trigger per event on the child table, one parent UPDATE per written row")
    func merged() throws {
        let store = try TestStore(StoreSchema(compiling: Self.model().checked()))
        let names = try store.connection.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            .compactMap { row -> String? in if case .text(let name)? = row.first { return name } else { return nil } }
        #expect(names == [
            "Z_DA_ZCATEGORY_INSERT",
            "Z_DA_ZCATEGORY_ZARTICLE_ZCATEGORY_DELETE",
            "Z_DA_ZCATEGORY_ZARTICLE_ZCATEGORY_INSERT",
            "Z_DA_ZCATEGORY_ZARTICLE_ZCATEGORY_UPDATE_ZCATEGORY",
            "Z_DA_ZCATEGORY_ZARTICLE_ZCATEGORY_UPDATE_ZVIEWS",
        ])
        try store.run("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'News'), (2, 1, 1, 'Sport')")
        var before = try changes(store)
        try store.run("INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZVIEWS, ZCATEGORY) VALUES (1, 2, 1, 10, 1)")
        #expect(try changes(store) - before == 2)
        try store.run("INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZVIEWS, ZCATEGORY) VALUES (2, 2, 1, 30, 1)")
        before = try changes(store)
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = 2 WHERE Z_PK = 2")
        #expect(try changes(store) - before == 3)
        try store.run("UPDATE ZARTICLE SET ZVIEWS = 50 WHERE Z_PK = 1")
        let rows = try store.connection.rows(
            "SELECT ZARTICLECOUNT, ZTOTALVIEWS, ZAVERAGEVIEWS, ZMAXVIEWS FROM ZCATEGORY ORDER BY Z_PK")
        #expect(rows == [[.integer(1), .integer(50), .real(50), .integer(50)],
                         [.integer(1), .integer(30), .real(30), .integer(30)]])
        before = try changes(store)
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 1")
        #expect(try changes(store) - before == 2)
        #expect(try store.connection.rows("SELECT ZARTICLECOUNT, ZTOTALVIEWS, ZAVERAGEVIEWS, ZMAXVIEWS FROM ZCATEGORY WHERE Z_PK = 1")
            == [[.integer(0), .integer(0), .null, .null]])
        #expect(try store.isIntact())
    }

    @Test("A single aggregate keeps the trigger names its column gives it")
    func alone() throws {
        let schema = try StoreSchema(compiling: Self.model(aggregates: false).checked())
        #expect(schema.triggers.map(\.name) == [
            "Z_DA_ZCATEGORY_ZARTICLECOUNT_INSERT",
            "Z_DA_ZCATEGORY_ZARTICLECOUNT_ZARTICLE_INSERT",
            "Z_DA_ZCATEGORY_ZARTICLECOUNT_ZARTICLE_DELETE",
            "Z_DA_ZCATEGORY_ZARTICLECOUNT_ZARTICLE_UPDATE_ZCATEGORY",
        ])
    }
}
