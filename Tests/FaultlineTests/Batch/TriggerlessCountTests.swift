import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// When the rows inserted with triggers off are most of their table (an
/// import into an empty one), a stand-in that only counts reads the link
/// column's index in order instead of the key range plus a sort; every value
/// is the triggers' either way. The model and helpers are
/// `TriggerlessInsertTests`', the category keeping only its article count.
@Suite("A count's stand-in over most of a table reads the link's index")
struct TriggerlessCountTests {
    typealias Model = TriggerlessInsertTests

    @Test("2,000 articles into a table of 2, then 1,000 into 2,002: the index form, then the writer's totals, the triggers' values both times")
    func importThenAppend() throws {
        let (bulk, bulkURL, bulkCategories) = try Model.seeded(Model.model(countOnly: true))
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try Model.seeded(Model.model(countOnly: true))
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

        let imported = try StatementLog.record { try Model.insert(0..<2_000, categories: bulkCategories, into: bulk) }
        #expect(imported.result.counters.rowsInsertedWithoutTriggers == 2_000)
        #expect(imported.statements.contains(overMost) && !imported.statements.contains(ranged))
        let appended = try StatementLog.record { try Model.insert(2_000..<3_000, categories: bulkCategories, into: bulk) }
        #expect(appended.result.counters.rowsInsertedWithoutTriggers == 1_000)
        // Not most of the table: the writer reads the new rows and adds up each category's count itself.
        let tally = try #require(upkeep.aggregateTallies.first)
        #expect(appended.statements.contains(tally.read) && appended.statements.contains(tally.update))
        #expect(!appended.statements.contains(ranged) && !appended.statements.contains(overMost))

        for start in stride(from: 0, to: 3_000, by: 500) {
            _ = try Model.insert(start..<start + 500, categories: rowCategories, into: rowByRow)
        }
        try Model.expectSameTables(bulk, as: rowByRow)
        let counts = try Model.table(bulk, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 7 && counts.allSatisfy { $0[0] == $0[1] })
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
        let schema = try StoreSchema(compiling: Model.model().checked())
        let upkeep = try #require(schema.insertedRowsUpkeep["ZARTICLE"])
        #expect(upkeep.aggregateStatementsOverMostOfTable == upkeep.aggregateStatements)
    }
}
