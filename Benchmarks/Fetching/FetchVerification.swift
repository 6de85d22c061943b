import BenchmarkData
import FaultlineSQLite

/// What each Fetching line should have read, computed from the store file by
/// plain SQL on a connection of its own.
enum FetchVerification {
    /// `FetchBenchmarks.readFull`'s (and `RecordFetch.readAll`'s) checksum of
    /// one row, in SQL: the key, text lengths in bytes, integers, the date
    /// truncated to whole seconds.
    static let fullRowSum = """
        SUM(t0.Z_PK + COALESCE(length(CAST(t0.ZTITLE AS BLOB)), 0) + COALESCE(length(CAST(t0.ZBODY AS BLOB)), 0) \
        + t0.ZVIEWS + t0.ZSCORE + CAST(t0.ZCREATED AS INTEGER) + COALESCE(length(CAST(t0.ZSEARCHTITLE AS BLOB)), 0))
        """
    static let titleBytes = "SUM(length(CAST(t0.ZTITLE AS BLOB)))"
    static let rowCount = "COUNT(*)"

    /// Fails unless `result` is `aggregate` over the table (`rest`: a
    /// WHERE, ORDER BY or LIMIT the line's fetch had, read as a subquery).
    static func expect(_ what: String, _ result: Int64, is aggregate: String, store: ArticleStore, rest: String = "") throws {
        let verifier = try StoreVerifier(connection: store.connection())
        let table = rest.isEmpty
            ? "\(FetchingModel.table) t0"
            : "(SELECT * FROM \(FetchingModel.table) t0 \(rest)) t0"
        try verifier.expect(what, result, equals: try verifier.integer("SELECT \(aggregate) FROM \(table)"))
    }

    /// The store holds the data set before any line reads it: every read's
    /// expectation is computed from this file, so it must be right itself.
    static func verifyContents(_ store: ArticleStore, _ dataset: ArticleDataset) throws {
        let verifier = try StoreVerifier(connection: store.connection())
        try verifier.verify(dataset.expectedTable(FetchingModel.table, [
            .constant("Z_ENT", .integer(try verifier.entityNumber(FetchingModel.entity))), .constant("Z_OPT", 1),
            dataset.column("ZTITLE", .title), dataset.column("ZBODY", .body), dataset.column("ZVIEWS", .views),
            dataset.column("ZSCORE", .views), dataset.column("ZCREATED", .created),
            dataset.column("ZSEARCHTITLE", .canonicalTitle),
        ]))
    }
}

extension RawArticleReader {
    /// The raw loop's checksum (or count) against the same statement read
    /// through FaultlineSQLite.
    func verify(_ result: Int64, store: ArticleStore) throws {
        let verifier = try StoreVerifier(connection: store.connection())
        let expected: Int64
        switch mode {
        case .rows: expected = try verifier.rawChecksum(sql).checksum
        case .rowsMatching(let text): expected = try verifier.rawChecksum(sql, [.text(text)]).checksum
        case .scalar: expected = try verifier.integer(sql)
        case .lookups(let keys):
            // Every key once: the rows of the set, read in one statement.
            let rows = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0 WHERE t0.Z_PK IN (SELECT value FROM json_each(?))"
            expected = try verifier.rawChecksum(rows, [.text(StoreVerifier.jsonArray(keys))]).checksum
        }
        try verifier.expect("\(sql): the raw read's checksum", result, equals: expected)
    }
}
