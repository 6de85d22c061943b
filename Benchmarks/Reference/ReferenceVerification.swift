import BenchmarkData
import FaultlineSQLite

/// The Reference suite's checks, shared by its raw and wrapped lines: what
/// the inserts left in `article`, and what each read should have returned,
/// computed from the file with plain SQL.
enum ReferenceVerification {
    /// `article` holds every row of `dataset`, in order, each column its own.
    static func inserted(_ dataset: ArticleDataset, at path: String) throws {
        try StoreVerifier(path: path).verify(dataset.expectedTable("article", keyColumn: "id", [
            dataset.column("title", .title), dataset.column("body", .body), dataset.column("views", .views),
            dataset.column("created", .created), dataset.column("category_id", .categoryID),
        ]))
    }

    /// The wrapped reads' checksum of one row (`WrappedWorkloads.readRow`), in SQL.
    private static let wrappedRowSum = """
        SUM(a.id + length(CAST(a.title AS BLOB)) + length(CAST(a.body AS BLOB)) + a.views \
        + CAST(a.created AS INTEGER) + a.category_id)
        """
    private static let looked = "json_each(?) AS j JOIN article AS a ON a.id = j.value"

    static func fetched(_ result: Int64, raw: Bool, at path: String) throws {
        let verifier = try StoreVerifier(path: path)
        let expected = raw
            ? try verifier.rawChecksum(ArticleSQL.selectAll).checksum
            : try verifier.integer("SELECT \(wrappedRowSum) FROM article AS a")
        try verifier.expect("the fetch's checksum", result, equals: expected)
    }

    static func lookedUp(_ result: Int64, keys: [Int64], raw: Bool, at path: String) throws {
        let verifier = try StoreVerifier(path: path)
        let json: [SQLValue] = [.text(StoreVerifier.jsonArray(keys))]
        let expected = raw
            ? try verifier.rawChecksum(
                "SELECT a.id, a.title, a.body, a.views, a.created, a.category_id FROM \(looked)", json).checksum
            : try verifier.integer("SELECT \(wrappedRowSum) FROM \(looked)", json)
        try verifier.expect("the lookups' checksum", result, equals: expected)
    }
}
