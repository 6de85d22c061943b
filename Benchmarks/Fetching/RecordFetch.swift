import FaultlineSQLite
import Foundation

/// The floor under every object fetch: the rows `raw.fetch` reads, decoded
/// through FaultlineSQLite into an array of plain Swift structs holding what a
/// full object holds (three `String`s, two integers, a date, the key and
/// version), with no objects, registry or row cache. The ratio of this line
/// to `raw.fetch` is what Swift values cost before the object graph adds
/// anything; `fetch.full` minus it is what the object graph costs.
final class RecordFetch {
    struct Record {
        var entity: Int64
        var primaryKey: Int64
        var version: Int64
        var title: String?
        var body: String?
        var views: Int64
        var score: Int64
        var created: Date
        var searchTitle: String?

        /// The row `statement` stands on, its columns in `FetchingModel.columns`' order.
        @inline(__always)
        init(_ statement: Statement) {
            entity = statement.int64(at: 0)
            primaryKey = statement.int64(at: 1)
            version = statement.int64(at: 2)
            title = statement.string(at: 3)
            body = statement.string(at: 4)
            views = statement.int64(at: 5)
            score = statement.int64(at: 6)
            created = Date(timeIntervalSinceReferenceDate: statement.double(at: 7))
            searchTitle = statement.string(at: 8)
        }

        /// Every field read as `FetchBenchmarks.readAttributes` reads an
        /// object's attributes, into the same kind of checksum.
        @inline(__always)
        var checksum: Int {
            var checksum = Int(primaryKey)
            checksum &+= title?.utf8.count ?? 0
            checksum &+= body?.utf8.count ?? 0
            checksum &+= Int(views)
            checksum &+= Int(score)
            checksum &+= Int(created.timeIntervalSinceReferenceDate)
            checksum &+= searchTitle?.utf8.count ?? 0
            return checksum
        }
    }

    private let connection: Connection
    private let statement: Statement
    private let rows: Int

    init(store: ArticleStore) throws {
        rows = store.rows
        connection = try store.connection()
        statement = try connection.cachedStatement(FetchBenchmarks.rawRows)
    }

    /// The records, read in one pass into an array sized up front (a lower
    /// bound: a fetch does not know its row count before it steps).
    func fetch() throws -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(rows)
        while try statement.step() { records.append(Record(statement)) }
        return records
    }

    /// Fetches, then reads every field as `FetchBenchmarks.readFull` reads an
    /// object's attributes; returns the same kind of checksum.
    func readAll() throws -> Int {
        var checksum = 0
        for record in try fetch() { checksum &+= record.checksum }
        return checksum
    }
}
