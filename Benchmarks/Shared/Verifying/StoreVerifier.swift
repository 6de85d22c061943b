import FaultlineBench
import FaultlineSQLite

/// Reads a store back with plain SQL, on a connection of its own, and
/// compares it with what a line meant to write or read; throws a
/// `VerificationFailure` naming the first table, row and column that differ.
/// Every suite's `verify` steps go through it, Faultline and raw lines alike.
public final class StoreVerifier {
    public let connection: Connection

    /// `functions` registers SQL functions a query needs (e.g. the store's).
    public init(path: String, functions: (Connection) throws -> Void = { _ in }) throws {
        connection = try Connection(.file(path))
        try functions(connection)
    }

    public init(connection: Connection) {
        self.connection = connection
    }

    /// The row count, then every sampled row column by column.
    public func verify(_ expected: ExpectedTable) throws {
        try expectCount(expected.table, expected.count)
        guard !expected.columns.isEmpty else { return }
        let names = expected.columns.map(\.name).joined(separator: ", ")
        let statement = try connection.prepare(
            "SELECT \(names) FROM \(expected.table) WHERE \(expected.keyColumn) = ?")
        for key in expected.sampleKeys {
            try statement.bind(key, at: 1)
            defer { statement.reset() }
            guard try statement.step() else {
                throw VerificationFailure("\(expected.table) has no row \(expected.keyColumn) = \(key)")
            }
            for (index, column) in expected.columns.enumerated() {
                let actual = statement.value(at: Int32(index))
                let wanted = column.value(key)
                guard Self.same(actual, wanted) else {
                    throw VerificationFailure(
                        "\(expected.table) row \(expected.keyColumn) = \(key): \(column.name) is \(Self.show(actual)), expected \(Self.show(wanted))")
                }
            }
        }
    }

    public func expectCount(_ table: String, _ expected: Int, where condition: String? = nil) throws {
        let sql = "SELECT COUNT(*) FROM \(table)" + (condition.map { " WHERE \($0)" } ?? "")
        let actual = try integer(sql)
        guard actual == Int64(expected) else {
            throw VerificationFailure("\(table)\(condition.map { " (\($0))" } ?? "") has \(actual) rows, expected \(expected)")
        }
    }

    /// The first column of the first row, as an integer (NULL is 0: the
    /// `SUM` of no rows).
    public func integer(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int64 {
        switch try connection.scalar(sql, bindings) {
        case .integer(let value)?: return value
        case .null?, nil: return 0
        case let other?: throw VerificationFailure("\(sql) returned \(other), not an integer")
        }
    }

    /// Fails unless a line's result equals what plain SQL computes.
    public func expect(_ what: String, _ actual: Int64, equals expected: Int64) throws {
        guard actual == expected else {
            throw VerificationFailure("\(what) is \(actual), the store read by plain SQLite says \(expected)")
        }
    }

    /// The checksum the raw C loops return for the rows of `sql`
    /// (`read_row` in CSQLiteReference: integers as they are, reals
    /// truncated, text its byte length plus its first byte, blobs their
    /// length), computed here in Swift, and how many rows there were.
    public func rawChecksum(_ sql: String, _ bindings: [SQLValue] = []) throws -> (checksum: Int64, rows: Int) {
        let statement = try connection.prepare(sql)
        try statement.bind(bindings)
        var sum: Int64 = 0
        var rows = 0
        while try statement.step() {
            rows += 1
            for column in 0..<statement.columnCount {
                switch statement.value(at: column) {
                case .null: break
                case .integer(let value): sum &+= value
                case .real(let value): sum &+= value.magnitude < 9e18 ? Int64(value) : 0
                case .text(let text): sum &+= Int64(text.utf8.count) &+ Int64(text.utf8.first ?? 0)
                case .blob(let data): sum &+= Int64(data.count)
                }
            }
        }
        return (sum, rows)
    }

    /// Equal values, where a whole real and its integer are the same: a
    /// date column (`TIMESTAMP`, numeric affinity) stores 709896208.0 as the
    /// integer 709896208.
    static func same(_ actual: SQLValue, _ wanted: SQLValue) -> Bool {
        switch (actual, wanted) {
        case (.integer(let integer), .real(let real)), (.real(let real), .integer(let integer)):
            return Double(integer) == real
        default:
            return actual == wanted
        }
    }

    /// Long texts cut, so a message stays one readable line.
    static func show(_ value: SQLValue) -> String {
        let text = value.description
        return text.count > 60 ? String(text.prefix(57)) + "…'" : text
    }
}
