import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// When the rows inserted with triggers off are most of their table (an
/// import into an empty one), a stand-in that only counts reads the link
/// column's index in order instead of the key range plus a sort; the counts
/// are the triggers' either way.
@Suite("A count's stand-in over most of a table reads the link's index")
struct TriggerlessCountTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string)
                Relationship("articles", to: "Article", inverse: "category", toMany: true)
                Derived("articleCount", .integer64, "articles.@count")
            }
            Entity("Article") {
                Attribute("title", .string)
                Relationship("category", to: "Category", inverse: "articles")
            }
        }
    }

    /// Five categories and two articles in the first.
    static func seeded() throws -> (PersistentContainer, URL, [ManagedObjectID]) {
        let (container, url) = try LibraryModel.container(model())
        let context = container.newBackgroundContext()
        let categories = try context.performAndWait { () throws -> [ManagedObjectID] in
            let categories = try (0..<5).map { index in
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("C\(index)", forKey: "name")
                return category
            }
            for index in 0..<2 {
                let article = try context.insertNewObject(forEntityName: "Article")
                try article.setValue("Old \(index)", forKey: "title")
                try article.setValue(categories[0], forKey: "category")
            }
            try context.save()
            return categories.map(\.objectID)
        }
        return (container, url, categories)
    }

    /// Articles `range`, every ninth without a category.
    static func insert(_ range: Range<Int>, categories: [ManagedObjectID], into container: PersistentContainer) throws -> BatchResult {
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try request.attribute("title"), category = try request.relationship("category")
        request.source = .rows(count: range.count) { row, offset in
            let index = range.lowerBound + offset
            row.set("Article \(index)", at: title)
            if index % 9 != 0 { row.set(categories[(index * 3) % categories.count], at: category) }
        }
        return try container.coordinator.execute(request)
    }

    static func counts(_ container: PersistentContainer) throws -> [[SQLValue]] {
        try BatchModel.rows(container, "SELECT Z_PK, ZARTICLECOUNT FROM ZCATEGORY ORDER BY Z_PK")
    }

    @Test("2,000 articles into a table of 2, then 1,000 into 2,002: the index form, then the ranged one, the triggers' counts both times")
    func importThenAppend() throws {
        let (bulk, bulkURL, bulkCategories) = try Self.seeded()
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try Self.seeded()
        defer { LibraryModel.remove(rowURL) }
        let upkeep = try #require(bulk.coordinator.schema.insertedRowsUpkeep["ZARTICLE"])
        let ranged = try #require(upkeep.aggregateStatements.first)
        let overMost = try #require(upkeep.aggregateStatementsOverMostOfTable.first)
        #expect(overMost == """
            UPDATE ZCATEGORY SET ZARTICLECOUNT = COALESCE(ZARTICLECOUNT, 0) + g.G_ZARTICLECOUNT \
            FROM (SELECT c.ZCATEGORY AS G_KEY, COUNT(*) AS G_ZARTICLECOUNT \
            FROM ZARTICLE c WHERE +c.Z_PK BETWEEN ?1 AND ?2 AND c.ZCATEGORY IS NOT NULL GROUP BY c.ZCATEGORY) AS g \
            WHERE ZCATEGORY.Z_PK = g.G_KEY
            """)
        #expect(ranged == overMost.replacingOccurrences(of: "+c.Z_PK", with: "c.Z_PK"))

        // The plans: Core Data's index on the to-one, covering and in the GROUP BY's order; the key range and a sort.
        let plans = try bulk.coordinator.writer.withConnection { connection in
            (try connection.queryPlan(overMost, [.integer(3), .integer(2_002)]).joined(separator: "\n"),
             try connection.queryPlan(ranged, [.integer(3), .integer(2_002)]).joined(separator: "\n"))
        }
        #expect(plans.0.contains("COVERING INDEX") && !plans.0.contains("TEMP B-TREE"), "\(plans.0)")
        #expect(plans.1.contains("INTEGER PRIMARY KEY") && plans.1.contains("TEMP B-TREE"), "\(plans.1)")

        let imported = try StatementLog.record { try Self.insert(0..<2_000, categories: bulkCategories, into: bulk) }
        #expect(imported.result.counters.rowsInsertedWithoutTriggers == 2_000)
        #expect(imported.statements.contains(overMost) && !imported.statements.contains(ranged))
        let appended = try StatementLog.record { try Self.insert(2_000..<3_000, categories: bulkCategories, into: bulk) }
        #expect(appended.result.counters.rowsInsertedWithoutTriggers == 1_000)
        #expect(appended.statements.contains(ranged) && !appended.statements.contains(overMost))

        for start in stride(from: 0, to: 3_000, by: 500) {
            _ = try Self.insert(start..<start + 500, categories: rowCategories, into: rowByRow)
        }
        let expected = try Self.counts(rowByRow)
        #expect(try Self.counts(bulk) == expected)
        let recounted = try BatchModel.rows(bulk, "SELECT (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c ORDER BY c.Z_PK")
        #expect(expected.map { [$0[1]] } == recounted)
    }

    @Test("A run of keys is most of its table when no more keys lie below it than in it")
    func mostOfTable() {
        #expect(TriggerlessInserts.isMostOfTable(1...1))
        #expect(TriggerlessInserts.isMostOfTable(3...2_002))
        #expect(TriggerlessInserts.isMostOfTable(1_001...2_000))
        #expect(!TriggerlessInserts.isMostOfTable(1_002...2_000))
        #expect(!TriggerlessInserts.isMostOfTable(2_003...3_002))
        #expect(TriggerlessInserts.isMostOfTable(Int64.max / 2 + 1...Int64.max))
        #expect(!TriggerlessInserts.isMostOfTable(Int64.max...Int64.max))
    }

    @Test("Aggregates that read a child's values keep the ranged statement over most of a table")
    func otherAggregates() throws {
        let schema = try StoreSchema(compiling: TriggerlessInsertTests.model().checked())
        let upkeep = try #require(schema.insertedRowsUpkeep["ZARTICLE"])
        #expect(upkeep.aggregateStatementsOverMostOfTable == upkeep.aggregateStatements)
    }
}
