import FaultlineSQLite

/// Recording a statement's `EXPLAIN QUERY PLAN` for a benchmark's
/// `queryPlans` closure, so the regression gate can tell when an index stops
/// being used.
public enum QueryPlan {
    /// The query plan of `sql` on `connection`, one node per line, children
    /// indented by two spaces under their parent, e.g.
    ///
    ///     SEARCH ZARTICLE USING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)
    ///
    /// Parameters (`?`) may stay unbound; SQLite plans them as unknown values.
    public static func explain(_ sql: String, on connection: Connection) throws -> String {
        try connection.queryPlan(sql).joined(separator: "\n")
    }

    /// What the gate compares in a plan: the indexes used and the tables
    /// searched (with an index or key) or scanned (every row).
    public struct Usage: Equatable, Sendable {
        /// Index names (`USING INDEX x`, `USING COVERING INDEX x`), plus
        /// `PRIMARY KEY` for rowid or primary-key lookups.
        public var indexes: Set<String> = []
        /// The subset of `indexes` used as covering indexes.
        public var coveringIndexes: Set<String> = []
        public var searchedTables: Set<String> = []
        public var scannedTables: Set<String> = []

        /// Reads the usage out of plan text as `explain` writes it (and as
        /// older SQLite versions do: `SCAN TABLE x`, `SEARCH TABLE x`).
        public init(plan: String) {
            for rawLine in plan.split(separator: "\n") {
                let words = rawLine.split(separator: " ").map(String.init)
                guard let verb = words.first else { continue }
                var rest = words.dropFirst()
                if rest.first == "TABLE" { rest = rest.dropFirst() }
                if let table = rest.first {
                    if verb == "SEARCH" { searchedTables.insert(table) }
                    if verb == "SCAN" { scannedTables.insert(table) }
                }
                read(indexesIn: Array(words))
            }
        }

        private mutating func read(indexesIn words: [String]) {
            for (position, word) in words.enumerated() where word == "USING" {
                let after = Array(words[(position + 1)...].prefix(3))
                if after.first == "COVERING", after.count >= 3, after[1] == "INDEX" {
                    indexes.insert(after[2])
                    coveringIndexes.insert(after[2])
                } else if after.first == "INDEX", after.count >= 2 {
                    indexes.insert(after[1])
                } else if after.starts(with: ["PRIMARY", "KEY"]) || after.starts(with: ["INTEGER", "PRIMARY", "KEY"]) {
                    indexes.insert("PRIMARY KEY")
                }
                // `USING AUTOMATIC … INDEX` is built per query, not a schema index: not tracked.
            }
        }
    }
}
