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
    private let statements: RawStatements
    var write: OpaquePointer { statements[0] }
    var begin: OpaquePointer { statements[1] }
    var commit: OpaquePointer { statements[2] }

    /// `sql`: the statement the loop binds per row.
    init(_ sql: String, fixture: DerivedFixture) throws {
        self.fixture = fixture
        statements = try RawStatements(
            [sql, "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION"], on: fixture.connection)
    }

    /// The C insert loop (`fl_ref_insert_keyed`): keys 1…count, one transaction.
    func insert(_ dataset: ArticleDataset) throws {
        var counters = fl_ref_counters()
        let code = dataset.withCArticles { articles in
            fl_ref_insert_keyed(write, begin, commit, articles, 1, 1, &counters)
        }
        SQLiteCounters.recordExternalWork(counters)
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
        SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw DerivedError("raw update failed with SQLite code \(code)") }
    }
}
