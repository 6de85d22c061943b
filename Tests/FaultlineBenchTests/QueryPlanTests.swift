import Foundation
import Testing
import FaultlineSQLite
@testable import FaultlineBench

/// Query plans are recorded from SQLite once per benchmark, stored in the
/// report, and read back into index and table usage.
@Suite("Query plans")
struct QueryPlanTests {
    private func database(indexed: Bool) throws -> Connection {
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE ZARTICLE (Z_PK INTEGER PRIMARY KEY, ZCATEGORY INTEGER, ZTITLE TEXT)")
        if indexed { try connection.execute("CREATE INDEX ZARTICLE_ZCATEGORY_INDEX ON ZARTICLE (ZCATEGORY)") }
        return connection
    }

    @Test("EXPLAIN QUERY PLAN with and without the index; the usage tells them apart")
    func explain() throws {
        let sql = "SELECT Z_PK, ZTITLE FROM ZARTICLE WHERE ZCATEGORY = ?"
        let indexed = try QueryPlan.explain(sql, on: database(indexed: true))
        #expect(indexed.contains("SEARCH ZARTICLE USING INDEX ZARTICLE_ZCATEGORY_INDEX"))
        let scanned = try QueryPlan.explain(sql, on: database(indexed: false))
        #expect(scanned.contains("SCAN ZARTICLE"))
        let reasons = RegressionGate.planRegressions(from: QueryPlan.Usage(plan: indexed), to: QueryPlan.Usage(plan: scanned))
        #expect(reasons == ["index ZARTICLE_ZCATEGORY_INDEX is no longer used", "SEARCH ZARTICLE became SCAN ZARTICLE"])
    }

    @Test("Usage reads covering indexes, primary keys, nested lines and old-style TABLE wording")
    func usage() {
        let usage = QueryPlan.Usage(plan: """
            SEARCH TABLE ZBOOK USING COVERING INDEX ZBOOK_ZAUTHOR (ZAUTHOR=?)
              SEARCH ZCHAPTER USING INTEGER PRIMARY KEY (rowid=?)
            SCAN ZAUTHOR
            SEARCH ZTAG USING AUTOMATIC COVERING INDEX (ZNAME=?)
            """)
        #expect(usage.indexes == ["ZBOOK_ZAUTHOR", "PRIMARY KEY"])
        #expect(usage.coveringIndexes == ["ZBOOK_ZAUTHOR"])
        #expect(usage.searchedTables == ["ZBOOK", "ZCHAPTER", "ZTAG"])
        #expect(usage.scannedTables == ["ZAUTHOR"])
    }

    @Test("A benchmark's queryPlans closure runs once, outside measurement, and lands in the report")
    func recordedInReport() throws {
        let calls = Counter()
        let suite = BenchmarkSuite("Plans", benchmarks: [
            Benchmark("fetch.category", parameters: ["rows": 10], items: 10,
                      queryPlans: {
                          calls.value += 1
                          calls.events.append("plans")
                          let connection = try database(indexed: true)
                          return ["byCategory": try QueryPlan.explain(
                              "SELECT * FROM ZARTICLE WHERE ZCATEGORY = ?", on: connection)]
                      },
                      setUp: { () -> Int in
                          calls.events.append("setUp")
                          return 0
                      },
                      measure: { value in value += 1 }),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("plans.json")
        let status = suite.run(arguments: ["--iterations", "3", "--json", path, "--quiet"]) { _ in }
        #expect(status == 0)
        #expect(calls.value == 1)
        let report = try ReportFile.read(path)
        #expect(report.schemaVersion == 2)
        let plan = try #require(report.benchmarks.first?.queryPlans?["byCategory"])
        #expect(plan.contains("USING INDEX ZARTICLE_ZCATEGORY_INDEX"))
        // The plans are taken before any iteration is set up, so their statements
        // never fall inside a measured iteration. (Counting them through the
        // process-wide SQLite totals would race with tests running in parallel.)
        #expect(calls.events.first == "plans")
        #expect(calls.events.filter { $0 == "plans" }.count == 1)
    }

    final class Counter: @unchecked Sendable {
        var value = 0
        var events: [String] = []
    }
}
