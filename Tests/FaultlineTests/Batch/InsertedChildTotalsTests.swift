import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// After many rows inserted with the triggers off, the writer adds up their
/// parents' aggregates itself (InsertedChildTotals): it reads the new rows in
/// key order (handed over inside SQLite's loop, `Connection.visitRows`),
/// keeps a total per parent and updates each parent once, where
/// the GROUP BY statement would sort every row first. Every value must be the
/// triggers'; a value it cannot add up as SQLite does sends it back to the
/// statement. The model and helpers are `TriggerlessInsertTests`'.
@Suite("Parents' aggregates over inserted rows, added up by the writer")
struct InsertedChildTotalsTests {
    typealias Model = TriggerlessInsertTests

    @Test("The read of the new rows and the one-parent UPDATE, every aggregate bound as the GROUP BY would give it")
    func statements() throws {
        let schema = try StoreSchema(compiling: Model.model().checked())
        let tally = try #require(schema.insertedRowsUpkeep["ZARTICLE"]?.aggregateTallies.first)
        #expect(tally.read == """
            SELECT FAULTLINE_VISIT_ROWS(c.ZCATEGORY, c.ZVIEWS, c.ZRATING) FROM ZARTICLE c \
            WHERE c.Z_PK BETWEEN ?1 AND ?2 AND c.ZCATEGORY IS NOT NULL
            """)
        #expect(tally.update == """
            UPDATE ZCATEGORY SET ZARTICLECOUNT = COALESCE(ZARTICLECOUNT, 0) + ?2, \
            Z_DA_ZAVERAGEVIEWS_SUM = COALESCE(Z_DA_ZAVERAGEVIEWS_SUM, 0) + ?3, \
            Z_DA_ZAVERAGEVIEWS_COUNT = COALESCE(Z_DA_ZAVERAGEVIEWS_COUNT, 0) + ?4, \
            ZAVERAGEVIEWS = CAST(COALESCE(Z_DA_ZAVERAGEVIEWS_SUM, 0) + ?3 AS REAL) / \
            NULLIF(COALESCE(Z_DA_ZAVERAGEVIEWS_COUNT, 0) + ?4, 0), \
            ZBESTRATING = CASE WHEN ?5 IS NULL THEN ZBESTRATING WHEN ZBESTRATING IS NULL OR ?5 > ZBESTRATING \
            THEN ?5 ELSE ZBESTRATING END, \
            ZMAXVIEWS = CASE WHEN ?6 IS NULL THEN ZMAXVIEWS WHEN ZMAXVIEWS IS NULL OR ?6 > ZMAXVIEWS \
            THEN ?6 ELSE ZMAXVIEWS END, \
            ZMINVIEWS = CASE WHEN ?7 IS NULL THEN ZMINVIEWS WHEN ZMINVIEWS IS NULL OR ?7 < ZMINVIEWS \
            THEN ?7 ELSE ZMINVIEWS END, \
            ZTOTALVIEWS = COALESCE(ZTOTALVIEWS, 0) + ?8 \
            WHERE Z_PK = ?1
            """)
        #expect(tally.functions == [.count, .sum("ZVIEWS"), .countOf("ZVIEWS"), .max("ZRATING"), .max("ZVIEWS"), .min("ZVIEWS"), .sum("ZVIEWS")])
        #expect(tally.parts.map(\.column) == [0, 1, 1, 2, 1, 1, 1])
        #expect(tally.parts.map(\.aggregate) == [.count, .sum, .countOf, .max, .max, .min, .sum])
    }

    @Test("2,500 rows: one read, one UPDATE per category, no GROUP BY, and every table as the triggers leave it")
    func onePassThenOneUpdateEach() throws {
        let (bulk, bulkURL, bulkCategories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(rowURL) }
        let upkeep = try #require(bulk.coordinator.schema.insertedRowsUpkeep["ZARTICLE"])
        let tally = try #require(upkeep.aggregateTallies.first)

        let before = bulk.coordinator.sqlCounters
        let inserted = try StatementLog.record { try Model.insert(0..<2_500, categories: bulkCategories, into: bulk) }
        let counters = bulk.coordinator.sqlCounters - before
        #expect(inserted.result.counters.rowsInsertedWithoutTriggers == 2_500)
        #expect(inserted.statements.contains(tally.read) && inserted.statements.contains(tally.update))
        #expect(!inserted.statements.contains(upkeep.aggregateStatements[0]))
        // BEGIN, Z_MAX, Z_PRIMARYKEY, the rows, COMMIT; the catalog, the read,
        // and one UPDATE for each of the seven categories (which fires the
        // shelves' triggers).
        #expect(counters.statementsExecuted == 4 + 2_500 + 2 + 7)

        for start in stride(from: 0, to: 2_500, by: 500) {
            _ = try Model.insert(start..<start + 500, categories: rowCategories, into: rowByRow)
        }
        try Model.expectSameTables(bulk, as: rowByRow, ignoringVersions: true)
    }

    @Test("A category given only articles without views gets NULL for its minimum and maximum, as MIN and MAX give")
    func nothingToCompare() throws {
        let (container, url, categories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(url) }
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try request.attribute("title"), category = try request.relationship("category")
        // Category 6 has no articles yet; these have no views.
        request.source = .rows(count: 1_200) { row, index in
            row.set("T\(index)", at: title)
            row.set(categories[6], at: category)
        }
        #expect(try container.coordinator.execute(request).counters.rowsInsertedWithoutTriggers == 1_200)
        let kept = try Model.table(container, """
            SELECT ZARTICLECOUNT, ZTOTALVIEWS, ZMINVIEWS, ZMAXVIEWS, ZAVERAGEVIEWS, Z_DA_ZAVERAGEVIEWS_COUNT FROM ZCATEGORY WHERE ZNAME = 'C6'
            """)
        #expect(kept == [[.integer(1_200), .integer(0), .null, .null, .null, .integer(0)]])
    }

    @Test("A sum past Int64 is not added up here: the statement runs, fails as SQLite's SUM does, and nothing is kept")
    func overflowFallsBack() throws {
        let (container, url, categories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(url) }
        let upkeep = try #require(container.coordinator.schema.insertedRowsUpkeep["ZARTICLE"])
        let before = try Model.table(container, Model.everyTable[1])
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let views = try request.attribute("views"), category = try request.relationship("category")
        request.source = .rows(count: 1_000) { row, _ in
            row.set(Int64.max / 4, at: views)
            row.set(categories[1], at: category)
        }
        let attempt = try StatementLog.record { () -> Result<BatchResult, any Error> in
            Result { try container.coordinator.execute(request) }
        }
        #expect(throws: (any Error).self) { try attempt.result.get() }
        #expect(attempt.statements.contains(upkeep.aggregateTallies[0].read))
        #expect(attempt.statements.contains(upkeep.aggregateStatements[0]))
        #expect(!attempt.statements.contains(upkeep.aggregateTallies[0].update))
        #expect(try Model.table(container, Model.everyTable[1]) == before)
        #expect(try Model.table(container, "SELECT COUNT(*) FROM ZARTICLE") == [[.integer(2)]])
    }

    /// Categories are one kind of topic, in the topics' table: the UPDATE
    /// names the entity as the trigger does.
    static func sharedTable() -> ManagedObjectModel { ManagedObjectModel {
        Entity("Topic") { Attribute("name", .string) }
        Entity("Category", parent: "Topic") {
            Relationship("articles", to: "Article", inverse: "category", toMany: true)
            Derived("articleCount", .integer64, "articles.@count")
            Derived("totalViews", .integer64, "@sum.articles.views")
        }
        Entity("Tag", parent: "Topic") { Attribute("color", .string) }
        Entity("Article") {
            Attribute("views", .integer64)
            Relationship("category", to: "Category", inverse: "articles")
        }
    } }

    @Test("Parents in a table they share with other entities: each UPDATE keeps to the parent's entity, values as the triggers'")
    func sharedParentTable() throws {
        func seeded() throws -> (PersistentContainer, URL, [ManagedObjectID]) {
            let (container, url) = try LibraryModel.container(Self.sharedTable())
            let context = container.newBackgroundContext()
            let categories = try context.performAndWait { () throws -> [ManagedObjectID] in
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue("T", forKey: "name")
                let categories = try (0..<3).map { index in
                    let category = try context.insertNewObject(forEntityName: "Category")
                    try category.setValue("C\(index)", forKey: "name")
                    return category
                }
                try context.save()
                return categories.map(\.objectID)
            }
            return (container, url, categories)
        }
        func insert(_ range: Range<Int>, _ categories: [ManagedObjectID], into container: PersistentContainer) throws -> BatchResult {
            var request = try BatchInsertRequest(entityName: "Article", in: container.model)
            let views = try request.attribute("views"), category = try request.relationship("category")
            request.source = .rows(count: range.count) { row, offset in
                let index = range.lowerBound + offset
                row.set(Int64(index % 50), at: views)
                row.set(categories[index % 3], at: category)
            }
            return try container.coordinator.execute(request)
        }
        let (bulk, bulkURL, bulkCategories) = try seeded()
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try seeded()
        defer { LibraryModel.remove(rowURL) }
        let tally = try #require(bulk.coordinator.schema.insertedRowsUpkeep["ZARTICLE"]?.aggregateTallies.first)
        #expect(tally.update.hasSuffix("WHERE Z_PK = ?1 AND Z_ENT IN (3)"), "\(tally.update)")

        let inserted = try StatementLog.record { try insert(0..<1_500, bulkCategories, into: bulk) }
        #expect(inserted.result.counters.rowsInsertedWithoutTriggers == 1_500)
        #expect(inserted.statements.contains(tally.update))
        for start in stride(from: 0, to: 1_500, by: 500) {
            _ = try insert(start..<start + 500, rowCategories, into: rowByRow)
        }
        let topics = "SELECT * FROM ZTOPIC ORDER BY Z_PK"
        #expect(try Model.table(bulk, topics) == Model.table(rowByRow, topics))
        #expect(try Model.table(bulk, "SELECT ZARTICLECOUNT, ZTOTALVIEWS FROM ZTOPIC WHERE Z_ENT = 3 ORDER BY Z_PK")
            == [[.integer(500), .integer(12_250)], [.integer(500), .integer(12_250)], [.integer(500), .integer(12_250)]])
    }

    @Test("Random rows — views missing or up to ±10¹², ratings of either sign, some without a category — leave every table as the triggers do",
          arguments: [UInt64(1), 7, 2_026])
    func randomRows(seed: UInt64) throws {
        struct Row { let views: Int64?; let rating: Double; let category: Int? }
        var random = SeededGenerator(seed: seed)
        let rows = (0..<1_100).map { _ in
            Row(views: Int.random(in: 0..<5, using: &random) == 0 ? nil : Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &random),
                rating: Double.random(in: -100...100, using: &random),
                category: Int.random(in: 0..<10, using: &random) == 0 ? nil : Int.random(in: 0..<7, using: &random))
        }
        func insert(_ range: Range<Int>, _ categories: [ManagedObjectID], into container: PersistentContainer) throws -> BatchResult {
            var request = try BatchInsertRequest(entityName: "Article", in: container.model)
            let title = try request.attribute("title"), views = try request.attribute("views")
            let rating = try request.attribute("rating"), category = try request.relationship("category")
            request.source = .rows(count: range.count) { writer, offset in
                let row = rows[range.lowerBound + offset]
                writer.set("R\(range.lowerBound + offset)", at: title)
                if let value = row.views { writer.set(value, at: views) }
                writer.set(row.rating, at: rating)
                if let index = row.category { writer.set(categories[index], at: category) }
            }
            return try container.coordinator.execute(request)
        }
        let (bulk, bulkURL, bulkCategories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(rowURL) }
        #expect(try insert(0..<1_100, bulkCategories, into: bulk).counters.rowsInsertedWithoutTriggers == 1_100)
        for start in [0, 500, 1_000] {
            #expect(try insert(start..<min(start + 500, 1_100), rowCategories, into: rowByRow).counters.rowsInsertedWithoutTriggers == 0)
        }
        try Model.expectSameTables(bulk, as: rowByRow)
    }
}

