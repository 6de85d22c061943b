import CSQLiteReference
import Faultline
import FaultlineSQLite

/// The raw reference for a user's model: the SQLite C API doing the profiled
/// reads by hand on a read-only connection. One statement reads every row of
/// the entity (as the strategies' fetch does); then, along the key-path tree,
/// one statement per relationship reads the rows reached from the keys of the
/// level above (`… IN (SELECT value FROM json_each(?))`): by the destination's
/// key column for a to-many, through the source's key column for a to-one,
/// through the join table for a many-to-many. Prepared once, at creation.
public final class RawModelReader {
    private struct Step {
        let statement: Int
        /// An upper bound on the rows the statement returns (its table's size).
        let capacity: Int
        let children: [Step]
    }

    private let statements: RawStatements
    private let root: [Step]
    private let touchedKeys: [Int64]
    /// The work of the last `run()` (also added to the process totals).
    public private(set) var lastRun = SQLiteCounters()

    /// `keys`: the entity's primary keys in ascending order (the order the
    /// workload's touched indexes refer to).
    public init(storePath: String, workload: ModelWorkload, keys: [Int64]) throws {
        let connection = try Connection(.file(storePath), configuration: .inspecting(storePath))
        try StoreFunctions.register(on: connection)
        let node = workload.tree.root
        var sql = ["SELECT \(Self.selectList(node)) FROM \(node.mapping.table)\(Self.entityFilter(node.mapping, "WHERE"))"]
        func steps(_ node: KeyPathTree.Node) throws -> [Step] {
            try node.edges.map { edge in
                sql.append(Self.statement(for: edge))
                let statement = sql.count - 1
                let table = edge.destination.mapping.table
                guard case .integer(let rows)? = try connection.scalar("SELECT count(*) FROM \(table)") else {
                    throw ObjectGraphInputError("cannot count the rows of \(table)")
                }
                return Step(statement: statement, capacity: Int(rows), children: try steps(edge.destination))
            }
        }
        root = try steps(node)
        touchedKeys = workload.touched.compactMap { keys.indices.contains($0) ? keys[$0] : nil }
        statements = try RawStatements(sql, on: connection)
    }

    /// Runs the reads; returns a checksum. Records the work in the process counters.
    public func run() throws -> Int64 {
        var counters = fl_ref_counters()
        var code = SQLITE_OK
        var checksum = fl_ref_read_all(statements[0], &counters, &code)
        func walk(_ steps: [Step], keys: [Int64]) {
            for step in steps where code == SQLITE_OK && !keys.isEmpty {
                var children = [Int64](repeating: 0, count: max(1, step.capacity))
                var found: Int64 = 0
                checksum &+= fl_ref_read_children(
                    statements[step.statement], keys, Int64(keys.count), &children, Int64(children.count),
                    &found, &counters, &code)
                walk(step.children, keys: Array(children.prefix(Int(found))))
            }
        }
        walk(root, keys: touchedKeys)
        lastRun = SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw ObjectGraphInputError("raw read failed with SQLite code \(code)") }
        return checksum
    }

    /// `Z_PK` first (the key the next level reads from), then every attribute column.
    static func selectList(_ node: KeyPathTree.Node) -> String {
        (["Z_PK"] + node.columns).joined(separator: ", ")
    }

    static func entityFilter(_ mapping: EntityMapping, _ keyword: String) -> String {
        guard mapping.sharesTable else { return "" }
        return " \(keyword) Z_ENT IN (\(mapping.entityNumbers.map(String.init).joined(separator: ", ")))"
    }

    static func statement(for edge: KeyPathTree.Edge) -> String {
        let destination = edge.destination
        let select = "SELECT \(selectList(destination)) FROM \(destination.mapping.table)"
        let keys = "(SELECT value FROM json_each(?))"
        switch edge.storage {
        case .destinationKey(_, let column, _, _):
            return "\(select) WHERE \(column) IN \(keys)"
        case .foreignKey(let column, _):
            return "\(select) WHERE Z_PK IN (SELECT \(column) FROM \(edge.sourceTable) WHERE Z_PK IN \(keys))"
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            return "\(select) WHERE Z_PK IN (SELECT \(destinationColumn) FROM \(table) WHERE \(sourceColumn) IN \(keys))"
        case .transient:
            // KeyPathTree refuses transient relationships.
            return "\(select) WHERE 0"
        }
    }
}
