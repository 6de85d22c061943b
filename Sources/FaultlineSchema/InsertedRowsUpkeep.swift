import FaultlineModel
import FaultlineSQLite

// Derived attributes for many inserted rows at once.
//
// SQLite has no statement-level triggers: inserting 100,000 articles into 100
// categories runs the count trigger's UPDATE 100,000 times. When Faultline's
// own writer inserts many rows into a table, it may instead turn the
// connection's triggers off for those INSERTs and then run, once, statements
// that leave every row as the triggers would have: an UPDATE … FROM over the
// inserted key range per parent table. The triggers stay in the store for
// every other writer and every other statement.
//
// Only where the set-based form is exact: a row derivation the INSERT computes
// itself; `@count`, integer `@sum`/`@avg` and numeric `@min`/`@max` over a
// to-many kept as a key in the child table; and a new parent's own aggregates,
// recomputed from its children. An INSERT trigger of any other kind (a key
// path through a relationship, `now()`, a join table's rows, a floating-point
// sum whose rounding depends on the order of the additions) has no stand-in,
// and its table keeps its triggers; so does a table whose aggregates are over
// its own rows (a category counting its subcategories).

/// What Faultline's writer does instead of one INSERT trigger.
public enum InsertStandIn: Sendable, Hashable {
    /// The INSERT computes the value the trigger would write (RowDerivation).
    case computedByStatement
    /// The parents of the inserted children get their aggregates in one
    /// statement.
    case parentAggregates(InsertedChildrenAggregates)
    /// The inserted parents' own aggregates, recomputed in one statement.
    case recomputed(InsertedParentsRecompute)

    /// The stand-in of two triggers merged into one (ParentUpdateTrigger), nil
    /// when either has none.
    func merged(with other: InsertStandIn?) -> InsertStandIn? {
        switch (self, other) {
        case (.parentAggregates(let mine), .parentAggregates(let theirs)?):
            mine.merged(with: theirs).map(InsertStandIn.parentAggregates)
        case (.recomputed(let mine), .recomputed(let theirs)?):
            mine.merged(with: theirs).map(InsertStandIn.recomputed)
        default:
            nil
        }
    }
}

/// The aggregates one trigger keeps in a parent table over the children that
/// hold its key, as one `UPDATE parent SET … FROM (SELECT … GROUP BY key)`
/// over the children whose keys lie between `?1` and `?2`.
///
/// Each assignment gives what the trigger's per-row assignments give applied
/// in sequence: a count and an integer sum add up exactly in any order, an
/// average's running sum and count too (its value is computed from them
/// last, as the trigger computes it after each row), and a minimum or maximum
/// of numbers is the best of the old value and the group's.
public struct InsertedChildrenAggregates: Sendable, Hashable {
    public let parentTable: String
    public let childTable: String
    let link: String
    /// ` AND Z_ENT IN (…)` when the parent table is shared.
    let parentFilter: String
    /// What each group computes, as `G_<alias>`.
    var selections: [Selection]
    var assignments: [Assignment]
    /// Whether every aggregate is a count: no column but the link is read.
    var countsOnly: Bool

    struct Selection: Sendable, Hashable {
        let alias: String
        let function: InsertedChildrenTally.Function
    }

    /// How one parent column takes its group's value, `group(alias)` naming it.
    enum Assignment: Sendable, Hashable {
        /// A count or an integer sum: added.
        case add(column: String, alias: String)
        /// An average from its running sum and count, both updated.
        case average(column: String, sum: String, count: String)
        /// A minimum or maximum: the better of the old value and the group's.
        case best(column: String, alias: String, better: String)

        func sql(_ group: (String) -> String) -> [String] {
            switch self {
            case .add(let d, let alias):
                return ["\(d) = COALESCE(\(d), 0) + \(group(alias))"]
            case .average(let d, let sum, let count):
                let newSum = "COALESCE(\(sum), 0) + \(group(sum))"
                let newCount = "COALESCE(\(count), 0) + \(group(count))"
                return ["\(sum) = \(newSum)", "\(count) = \(newCount)", "\(d) = CAST(\(newSum) AS REAL) / NULLIF(\(newCount), 0)"]
            case .best(let d, let alias, let better):
                let value = group(alias)
                return ["\(d) = CASE WHEN \(value) IS NULL THEN \(d) WHEN \(d) IS NULL OR \(value) \(better) \(d) THEN \(value) ELSE \(d) END"]
            }
        }
    }

    /// nil for an aggregate whose set-based form would not be exact.
    init?(
        parentTable: String, childTable: String, link: String, parentFilter: String,
        function: AggregateFunction, column d: String, value: String?, valueType: AttributeType?
    ) {
        self.parentTable = parentTable
        self.childTable = childTable
        self.link = link
        self.parentFilter = parentFilter
        countsOnly = function == .count
        switch function {
        case .count:
            selections = [Selection(alias: d, function: .count)]
            assignments = [.add(column: d, alias: d)]
        case .sum:
            guard let value, valueType?.isInteger == true else { return nil }
            selections = [Selection(alias: d, function: .sum(value))]
            assignments = [.add(column: d, alias: d)]
        case .avg:
            guard let value, valueType?.isInteger == true else { return nil }
            let sum = AverageColumns.sum(of: d)
            let count = AverageColumns.count(of: d)
            selections = [Selection(alias: sum, function: .sum(value)), Selection(alias: count, function: .countOf(value))]
            assignments = [.average(column: d, sum: sum, count: count)]
        case .min, .max:
            guard let value, valueType?.isNumeric == true || valueType == .dateAttributeType else { return nil }
            selections = [Selection(alias: d, function: function == .min ? .min(value) : .max(value))]
            assignments = [.best(column: d, alias: d, better: function == .min ? "<" : ">")]
        }
    }

    /// Both sets of aggregates in one statement, when they update the same parents.
    func merged(with other: InsertedChildrenAggregates) -> InsertedChildrenAggregates? {
        guard parentTable == other.parentTable, childTable == other.childTable, link == other.link,
              parentFilter == other.parentFilter else { return nil }
        var both = self
        both.selections += other.selections
        both.assignments += other.assignments
        both.countsOnly = countsOnly && other.countsOnly
        return both
    }

    /// The statement, its bounds `?1` and `?2` the first and last key inserted:
    /// the children read by key range, then sorted for the GROUP BY.
    public var sql: String { statement(key: "c.Z_PK") }

    /// The statement for inserted keys that are most of the child table (an
    /// import into an empty one). `+c.Z_PK` keeps SQLite off the key range,
    /// so it reads the link column's index (Core Data's on every to-one) in
    /// the GROUP BY's order: no sort, and for counts no table row at all.
    /// Other aggregates would fetch each child's row out of key order, which
    /// costs more than the sort (measured), so they keep the ranged statement.
    public var sqlOverMostOfTable: String { countsOnly ? statement(key: "+c.Z_PK") : sql }

    /// The same aggregates summed up by the writer over the children it reads
    /// in key order, with no sort.
    public var tally: InsertedChildrenTally {
        var columns: [String] = []
        let functions = selections.map(\.function)
        for function in functions {
            if let column = function.column, !columns.contains(column) { columns.append(column) }
        }
        let read = "SELECT \(Connection.rowVisitorFunction)(c.\(link)" + columns.map { ", c.\($0)" }.joined()
            + ") FROM \(childTable) c WHERE c.Z_PK BETWEEN ?1 AND ?2 AND c.\(link) IS NOT NULL"
        // ?1 the parent's key, then one parameter per selection.
        let parameterOf = Dictionary(uniqueKeysWithValues: selections.enumerated().map { ($1.alias, "?\($0 + 2)") })
        let update = "UPDATE \(parentTable) SET "
            + assignments.flatMap { $0.sql { parameterOf[$0] ?? "NULL" } }.joined(separator: ", ")
            + " WHERE Z_PK = ?1\(parentFilter)"
        let parts = functions.map { function in
            InsertedChildrenTally.Part(
                aggregate: function.aggregate, column: function.column.flatMap(columns.firstIndex).map { Int32($0 + 1) } ?? 0)
        }
        return InsertedChildrenTally(functions: functions, parts: parts, read: read, update: update)
    }

    private func statement(key: String) -> String {
        "UPDATE \(parentTable) SET \(assignments.flatMap { $0.sql { "g.G_\($0)" } }.joined(separator: ", ")) "
            + "FROM (SELECT c.\(link) AS G_KEY, "
            + selections.map { "\($0.function.sql) AS G_\($0.alias)" }.joined(separator: ", ")
            + " FROM \(childTable) c WHERE \(key) BETWEEN ?1 AND ?2 AND c.\(link) IS NOT NULL GROUP BY c.\(link)) AS g"
            + " WHERE \(parentTable).Z_PK = g.G_KEY\(parentFilter)"
    }
}

/// What stands in for a table's INSERT triggers when Faultline's writer
/// inserts many rows into it with triggers off. Right only when the store's
/// triggers on the table are exactly the schema's (`StoreSchema.triggers(on:)`):
/// one added by hand, or Core Data's, keeps the triggers firing.
///
/// Run once after the inserts with the triggers back on (so triggers on the
/// rows these update fire as they would have), each bound to the first and
/// last key of a run of inserted keys. With rows inserted into several tables,
/// every table's `parentAggregates` run parents first (a new row must be in
/// its parents' aggregates before its children's stand-ins change it), then
/// every table's `recomputes` (TriggerlessInserts).
public struct InsertedRowsUpkeep: Sendable, Hashable {
    /// Each adds the inserted rows to the aggregates of their parents in one table.
    public let parentAggregates: [InsertedChildrenAggregates]
    /// The inserted rows' own aggregates over their children.
    public let recomputes: [InsertedParentsRecompute]

    /// Their statements, built once with the schema; `aggregateStatements`
    /// in two forms, by how much of the table the inserted keys are.
    public let aggregateStatements: [String]
    public let aggregateStatementsOverMostOfTable: [String]
    /// `parentAggregates` added up by the writer instead (InsertedChildrenTally).
    public let aggregateTallies: [InsertedChildrenTally]
    public let recomputeStatements: [String]

    init(parentAggregates: [InsertedChildrenAggregates], recomputes: [InsertedParentsRecompute]) {
        self.parentAggregates = parentAggregates
        self.recomputes = recomputes
        aggregateStatements = parentAggregates.map(\.sql)
        aggregateStatementsOverMostOfTable = parentAggregates.map(\.sqlOverMostOfTable)
        aggregateTallies = parentAggregates.map(\.tally)
        recomputeStatements = recomputes.map(\.sql)
    }

    /// The statements in the order they run for this table alone.
    public var statements: [String] { aggregateStatements + recomputeStatements }

    /// The tables whose every INSERT trigger has a stand-in.
    static func byTable(_ triggers: [StoreTrigger]) -> [String: InsertedRowsUpkeep] {
        let byTable = Dictionary(grouping: triggers.filter { !$0.table.isEmpty }, by: \.table)
        var result: [String: InsertedRowsUpkeep] = [:]
        for (table, onTable) in byTable {
            let onInsert = onTable.filter(\.firesOnInsert)
            guard !onInsert.isEmpty else { continue }
            var aggregates: [InsertedChildrenAggregates] = []
            var recomputes: [InsertedParentsRecompute] = []
            var complete = true
            for trigger in onInsert {
                switch trigger.standIn {
                case .computedByStatement?: break
                case .parentAggregates(let upkeep)?: aggregates.append(upkeep)
                case .recomputed(let upkeep)?: recomputes.append(upkeep)
                case nil: complete = false
                }
            }
            // Aggregates over the table's own rows: the order of the updates
            // within one statement would matter.
            let ownRows = aggregates.contains { $0.parentTable == table } || recomputes.contains { $0.sources.contains(table) }
            guard complete, !ownRows else { continue }
            result[table] = InsertedRowsUpkeep(parentAggregates: aggregates, recomputes: recomputes)
        }
        return result
    }
}

extension StoreSchema {
    /// Whether a trigger of the schema fires on an INSERT into `table`.
    public func hasInsertTriggers(on table: String) -> Bool {
        triggers.contains { $0.table == table && $0.firesOnInsert }
    }

    /// The schema's triggers on `table`, by name, as their `CREATE TRIGGER` statements.
    public func triggers(on table: String) -> [String: String] {
        Dictionary(triggers.filter { $0.table == table }.map { ($0.name, $0.createStatement) }, uniquingKeysWith: { first, _ in first })
    }
}
