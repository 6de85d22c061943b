import BenchmarkData
import Faultline
import FaultlineSQLite
import Foundation

/// A store file holding `rows` articles from `ArticleDataset`, filled once by a
/// typed batch insert and shared by every line of that size. Each iteration
/// reads it through a fresh context with the row cache emptied.
final class ArticleStore {
    let rows: Int
    let url: URL
    let container: PersistentContainer

    init(rows: Int) throws {
        self.rows = rows
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-fetching-\(rows)-\(UUID().uuidString).sqlite")
        // The cache holds every row, so a fault fetch of all of them loses none.
        container = try PersistentContainer(
            model: FetchingModel.model(), location: .file(url), rowCacheCapacity: max(100_000, rows + 1_000))
        let dataset = ArticleDataset(count: rows)
        var request = try BatchInsertRequest(entityName: FetchingModel.entity, in: container.model)
        let title = try request.attribute("title")
        let body = try request.attribute("body")
        let views = try request.attribute("views")
        let score = try request.attribute("score")
        let created = try request.attribute("created")
        request.source = .rows(count: rows) { row, index in
            row.set(dataset.titles[index], at: title)
            row.set(dataset.bodies[index], at: body)
            row.set(dataset.views[index], at: views)
            row.set(dataset.views[index], at: score)
            row.set(Date(timeIntervalSinceReferenceDate: dataset.created[index]), at: created)
        }
        _ = try container.coordinator.execute(request)
        try FetchVerification.verifyContents(self, dataset)
    }

    /// A context to measure in, with nothing cached from a previous iteration.
    func freshContext() -> ManagedObjectContext {
        container.coordinator.rowCache.removeAll()
        return container.newBackgroundContext()
    }

    /// A plain connection to the file (store SQL functions registered), for
    /// the raw loops and query plans.
    func connection() throws -> Connection {
        let connection = try Connection(.file(url.path))
        try StoreFunctions.register(on: connection)
        return connection
    }

    /// The `EXPLAIN QUERY PLAN` of the statement Faultline runs for `request`
    /// (selecting the same columns as the raw loops).
    func plan(of request: FetchRequest, on connection: Connection) throws -> String {
        var sql = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0"
        var bindings: [SQLValue] = []
        if let predicate = request.predicate {
            let compiled = try PredicateSQLCompiler.compile(predicate, entityName: request.entityName, schema: container.coordinator.schema)
            sql += compiled.joins + " WHERE " + compiled.whereClause
            bindings = compiled.bindings
        }
        if !request.sortDescriptors.isEmpty {
            sql += " ORDER BY " + request.sortDescriptors.map { "t0.Z\($0.key.uppercased()) \($0.ascending ? "ASC" : "DESC")" }
                .joined(separator: ", ")
        }
        if request.fetchLimit > 0 { sql += " LIMIT \(request.fetchLimit)" }
        return try connection.queryPlan(sql, bindings).joined(separator: "\n")
    }

    private var readers: [String: RawArticleReader] = [:]

    /// The raw reader of `sql`, prepared once and kept (like a statement
    /// cache's), so its connection's page cache is as warm as the store's.
    func rawReader(_ sql: String, mode: RawArticleReader.Mode = .rows) throws -> RawArticleReader {
        let key = "\(mode)|\(sql)"
        if let reader = readers[key] { return reader }
        let reader = try RawArticleReader(store: self, sql: sql, mode: mode)
        readers[key] = reader
        return reader
    }

    private var records: RecordFetch?

    /// The record fetch, kept like the raw readers.
    func recordFetch() throws -> RecordFetch {
        if let records { return records }
        let fetch = try RecordFetch(store: self)
        records = fetch
        return fetch
    }

    func remove() {
        readers.removeAll()
        records = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// A store file built for one row count, removed when done.
protocol SizedStore: AnyObject {
    var rows: Int { get }
    init(rows: Int) throws
    func remove()
}

extension ArticleStore: SizedStore {}

/// The store of one row count at a time, built on first use (so filtered-out
/// sizes cost nothing). The suite runs size by size; asking for another size
/// (or `removeAll`, before lines that use no such store) removes the store
/// in use, so no line runs beside an earlier size's store, row cache and
/// connections (the suite's peak resident memory: 204 MB with every article
/// store kept, 124 MB now).
final class StoresBySize<Store: SizedStore> {
    private var current: Store?

    func store(_ rows: Int) throws -> Store {
        if let current, current.rows == rows { return current }
        removeAll()
        let store = try Store(rows: rows)
        current = store
        return store
    }

    func removeAll() {
        current?.remove()
        current = nil
    }
}

typealias ArticleStores = StoresBySize<ArticleStore>
