import FaultlineSQLite

/// What a line meant to leave in one table: how many rows, and for the rows
/// it samples (by key), the value of each column it checks.
public struct ExpectedTable {
    public var table: String
    public var keyColumn: String
    public var count: Int
    public var columns: [ExpectedColumn]
    /// The keys whose rows are compared column by column.
    public var sampleKeys: [Int64]

    /// A table keyed 1…`count` (Core Data's `Z_PK`, or an `INTEGER PRIMARY
    /// KEY` filled in order), sampled by `ExpectedTable.sample(count:)`.
    public init(_ table: String, keyColumn: String = "Z_PK", count: Int, columns: [ExpectedColumn], sampleKeys: [Int64]? = nil) {
        self.table = table
        self.keyColumn = keyColumn
        self.count = count
        self.columns = columns
        self.sampleKeys = sampleKeys ?? Self.sample(count: count)
    }

    /// Keys 1…`count` to compare: the first two, the last, and seven spread
    /// evenly between them, so a shift by one, a truncated tail and a
    /// mix-up in the middle each land on a sampled row.
    public static func sample(count: Int) -> [Int64] {
        guard count > 0 else { return [] }
        let spread = (1...7).map { Int64(1 + (count - 1) * $0 / 8) }
        return Array(Set([1, min(2, Int64(count)), Int64(count)] + spread)).sorted()
    }
}

/// One checked column: its name and the value the row with a given key
/// should hold.
public struct ExpectedColumn {
    public let name: String
    public let value: (Int64) -> SQLValue

    public init(_ name: String, _ value: @escaping (Int64) -> SQLValue) {
        self.name = name
        self.value = value
    }

    /// A column every row holds the same value in.
    public static func constant(_ name: String, _ value: SQLValue) -> ExpectedColumn {
        ExpectedColumn(name) { _ in value }
    }
}
