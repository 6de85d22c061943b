import BenchmarkData
import FaultlineSQLite

/// The same workloads through FaultlineSQLite's cached statements.
enum WrappedWorkloads {
    static func openFresh(_ path: String) throws -> Connection {
        let connection = try Connection(.file(path))
        try connection.execute(ArticleSQL.schema)
        // Prepared before the clock, as the raw side's statements are.
        _ = try connection.cachedStatement(ArticleSQL.insert)
        _ = try connection.cachedStatement(ArticleSQL.begin)
        _ = try connection.cachedStatement(ArticleSQL.commit)
        return connection
    }

    static func insert(_ dataset: ArticleDataset, rows: Range<Int>? = nil, into connection: Connection) throws {
        let insert = try connection.cachedStatement(ArticleSQL.insert)
        for row in rows ?? 0..<dataset.count {
            try insert.bind(dataset.titles[row], at: 1)
            try insert.bind(dataset.bodies[row], at: 2)
            try insert.bind(dataset.views[row], at: 3)
            try insert.bind(dataset.created[row], at: 4)
            try insert.bind(dataset.categoryIDs[row], at: 5)
            try insert.execute()
        }
    }

    /// Reads every column of every row into Swift values (text becomes a
    /// `String`, one copy each), returning a checksum like the raw loop's.
    static func readAll(_ statement: Statement) throws -> Int64 {
        var sum: Int64 = 0
        while try statement.step() {
            sum &+= readRow(statement)
        }
        return sum
    }

    static func lookUp(_ keys: [Int64], with statement: Statement) throws -> Int64 {
        var sum: Int64 = 0
        for key in keys {
            try statement.bind(key, at: 1)
            while try statement.step() {
                sum &+= readRow(statement)
            }
        }
        return sum
    }

    @inline(__always)
    private static func readRow(_ statement: Statement) -> Int64 {
        let id = statement.int64(at: 0)
        let title = statement.string(at: 1) ?? ""
        let body = statement.string(at: 2) ?? ""
        let views = statement.int64(at: 3)
        let created = statement.double(at: 4)
        let category = statement.int64(at: 5)
        return id &+ Int64(title.utf8.count) &+ Int64(body.utf8.count) &+ views &+ Int64(created) &+ category
    }
}
