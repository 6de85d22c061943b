import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A batch insert of N rows costs one prepared insert and one key-reservation
/// pair, whatever N: no SQL is built per row.
@Suite("Batch insert statement counts")
struct BatchStatementCountTests {
    /// Counters of a typed insert of `count` articles into a fresh store, after
    /// a warm-up batch of categories (which prepares BEGIN, COMMIT and the
    /// key-reservation statements).
    static func typedInsert(_ count: Int) throws -> (SQLiteCounters, BatchCounters) {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try BatchModel.categories(["Warm-up"], in: container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try request.attribute("title"), views = try request.attribute("views")
        request.source = .rows(count: count) { row, index in
            row.set("Article \(index)", at: title)
            row.set(Int64(index), at: views)
        }
        let before = container.coordinator.sqlCounters
        let result = try container.coordinator.execute(request)
        return (container.coordinator.sqlCounters - before, result.counters)
    }

    @Test("Typed insert: one prepare, one reservation pair, one transaction, N row executions")
    func typedIsOnePrepare() throws {
        for count in [100, 10_000] {
            let (sql, counters) = try Self.typedInsert(count)
            // From TriggerlessInserts.minimumRows rows on, the writer reads the
            // table's triggers from the catalog and, after the rows, reads them
            // once for the count's and sum's stand-in (InsertedChildTotals):
            // none has a category, so no parent is updated.
            let standIn = count >= TriggerlessInserts.minimumRows ? 2 : 0
            #expect(sql.statementsPrepared == 1 + standIn)
            #expect(counters.keyReservations == 1)
            // BEGIN + SELECT Z_MAX + UPDATE Z_PRIMARYKEY + N inserts + COMMIT.
            #expect(sql.statementsExecuted == count + 4 + standIn)
            #expect(counters.sql == sql)
        }
    }

    @Test("statementsPrepared stays constant as N grows, for every form")
    func preparedIsConstant() throws {
        var prepared: [Int] = []
        for count in [10, 1_001, 20_000] {
            let (container, url) = try BatchModel.container()
            defer { LibraryModel.remove(url) }
            var request = try BatchInsertRequest(entityName: "Article", in: container.model)
            var next = 0
            request.source = .dictionaryHandler { row in
                guard next < count else { return true }
                row["title"] = "T\(next)"
                next += 1
                return false
            }
            let before = container.coordinator.sqlCounters
            let result = try container.coordinator.execute(request)
            prepared.append((container.coordinator.sqlCounters - before).statementsPrepared)
            #expect(result.counters.rowsInserted == count)
        }
        // After its first TriggerlessInserts.minimumRows rows a stream reads
        // the table's triggers from the catalog and, after its last row, reads
        // the rows for the count's stand-in: two statements, whatever N.
        #expect(prepared[1] == prepared[0] + 2)
        #expect(prepared[2] == prepared[1])
    }
}
