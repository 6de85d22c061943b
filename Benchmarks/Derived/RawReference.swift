import BenchmarkData
import CSQLiteReference
import FaultlineSQLite
import Foundation

/// The raw references: the SQLite C API driven by hand on the store with no
/// derived attributes at all (the onRead schema, no canonical column), so each
/// line's ratio is what its way of keeping the counts and sums costs on top of
/// the bare writes.
final class RawReference {
    let fixture: DerivedFixture
    private var statements: [OpaquePointer] = []
    let write: OpaquePointer
    let begin: OpaquePointer
    let commit: OpaquePointer

    /// `sql`: the statement the loop binds per row.
    init(_ sql: String, fixture: DerivedFixture) throws {
        self.fixture = fixture
        var prepared: [OpaquePointer] = []
        try fixture.connection.withUnsafeHandle { db in
            var counters = fl_ref_counters()
            for text in [sql, "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION"] {
                var statement: OpaquePointer?
                guard fl_ref_prepare(db, text, &statement, &counters) == SQLITE_OK, let statement else {
                    prepared.forEach(fl_ref_finalize)
                    throw DerivedError("raw: cannot prepare \(text)")
                }
                prepared.append(statement)
            }
        }
        statements = prepared
        write = prepared[0]
        begin = prepared[1]
        commit = prepared[2]
    }

    /// The C insert loop (`fl_ref_insert_keyed`): keys 1…count, one transaction.
    func insert(_ dataset: ArticleDataset) throws {
        var counters = fl_ref_counters()
        let code = dataset.withCArticles { articles in
            fl_ref_insert_keyed(write, begin, commit, articles, 1, 1, &counters)
        }
        record(statements: Int(counters.statements_executed), vmSteps: Int(counters.vm_steps))
        guard code == SQLITE_OK else { throw DerivedError("raw insert failed with SQLite code \(code)") }
    }

    /// The C update loop (`fl_ref_update_pairs`): bind, step, reset per row,
    /// one transaction.
    func update(_ updates: ViewUpdates) throws {
        var counters = fl_ref_counters()
        let code = updates.views.withUnsafeBufferPointer { values in
            updates.keys.withUnsafeBufferPointer { keys in
                fl_ref_update_pairs(write, begin, commit, values.baseAddress, keys.baseAddress, Int64(updates.count), &counters)
            }
        }
        record(statements: Int(counters.statements_executed), vmSteps: Int(counters.vm_steps))
        guard code == SQLITE_OK else { throw DerivedError("raw update failed with SQLite code \(code)") }
    }

    private func record(statements: Int, vmSteps: Int) {
        var recorded = SQLiteCounters()
        recorded.statementsExecuted = statements
        recorded.vmSteps = vmSteps
        SQLiteCounters.recordExternalWork(recorded)
    }

    deinit {
        statements.forEach(fl_ref_finalize)
    }
}
