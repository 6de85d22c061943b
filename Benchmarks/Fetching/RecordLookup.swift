import FaultlineSQLite

/// The floor under `fetch.byKey`: each key bound in turn to `raw.lookup`'s
/// statement through FaultlineSQLite and its row decoded into a
/// `RecordFetch.Record` (three `String`s, the integers, the date), every
/// field read — no object, registry, row cache or reader bookkeeping. Its
/// ratio to `raw.lookup` is what Swift values cost a lookup before the object
/// graph adds anything; `fetch.byKey` minus it is what the object graph costs.
final class RecordLookup {
    private let connection: Connection
    private let statement: Statement
    private let keys: [Int64]

    init(store: ArticleStore, keys: [Int64]) throws {
        connection = try store.connection()
        statement = try connection.cachedStatement(LookupBenchmarks.rawLookup)
        self.keys = keys
    }

    /// Every key's row as a record, every field read; returns the checksum
    /// `fetch.byKey` gives for the same keys.
    func readEach() throws -> Int {
        var checksum = 0
        for key in keys {
            try statement.bind(key, at: 1)
            // A key names one row: the second step ends the execution and resets the statement.
            while try statement.step() { checksum &+= RecordFetch.Record(statement).checksum }
        }
        return checksum
    }
}
