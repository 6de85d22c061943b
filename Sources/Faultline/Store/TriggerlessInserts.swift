import FaultlineSQLite

/// Many rows inserted with the writer's triggers off, and the statements that
/// stand in for the tables' INSERT triggers run once after them
/// (InsertedRowsUpkeep): a count kept by a trigger costs one UPDATE per parent
/// instead of one per inserted child.
///
/// Invariants: the triggers are off only between `begin` and `finish` or
/// `abandon`, inside the writer's transaction, around INSERTs only; every
/// table inserted into meanwhile has a stand-in for each of its INSERT
/// triggers (or has none) and the store's triggers on it are exactly the
/// schema's. The stand-ins of a table cover the runs of keys the caller
/// names, so every row of the table in a run must have been inserted in the
/// window: a batch names the runs of keys it inserted after the switch, a
/// save its new keys when they are one run per table.
struct TriggerlessInserts {
    /// Turning the triggers off and on makes SQLite re-prepare each statement
    /// of the writer once; below this many rows the triggers cost less.
    static let minimumRows = 1_000

    /// A stand-in with its table's number (the caller's), in the form for a
    /// run of keys that is most of the table and in the form for any other,
    /// and for parents' aggregates the writer's own form of the latter.
    struct Step {
        let table: Int
        let sql: String
        let overMostOfTable: String
        var tally: InsertedChildrenTally?
    }

    /// The stand-ins of the tables inserted into, in the order they run.
    private let steps: [Step]
    private let connection: Connection

    private init(steps: [Step], connection: Connection) {
        self.steps = steps
        self.connection = connection
    }

    /// Turns the triggers off for `rows` rows about to go into `tables` (the
    /// caller numbers them by position), when they are enough and every
    /// table's triggers allow it; nil, triggers left on, otherwise.
    static func begin(rows: Int, tables: [String], schema: StoreSchema, on connection: Connection) throws -> TriggerlessInserts? {
        guard rows >= minimumRows, !tables.isEmpty else { return nil }
        // From the schema first: nothing to gain when no INSERT trigger fires,
        // nothing allowed when one has no stand-in.
        var upkeeps: [InsertedRowsUpkeep?] = []
        for table in tables {
            let upkeep = schema.insertedRowsUpkeep[table]
            if upkeep == nil, schema.hasInsertTriggers(on: table) { return nil }
            upkeeps.append(upkeep)
        }
        guard upkeeps.contains(where: { $0 != nil }), let steps = order(upkeeps, tables: tables) else { return nil }
        // The store's triggers on each table must be exactly the schema's: one
        // added by hand, or Core Data's, is not covered.
        let stored = Dictionary(grouping: try connection.schemaObjects(ofType: "trigger"), by: \.table)
        for table in tables {
            let expected = schema.triggers(on: table)
            let actual = stored[table] ?? []
            guard actual.count == expected.count, actual.allSatisfy({ expected[$0.name] == $0.sql }) else { return nil }
        }
        guard connection.setTriggersEnabled(false) else {
            connection.setTriggersEnabled(true)
            return nil
        }
        return TriggerlessInserts(steps: steps, connection: connection)
    }

    /// The stand-ins of `tables` in the order InsertedRowsUpkeep says: every
    /// `parentAggregates` with parents before children (a new row's values
    /// must be added to its parents before its own children's stand-in
    /// changes them, or the parents would get that change twice), then the
    /// `recomputes`, children first so that a parent reads its children's
    /// final values (in another order the UPDATE triggers a child's recompute
    /// fires would still carry its change up, at the price of more trigger
    /// work). Nil when the tables' aggregates form a cycle.
    private static func order(_ upkeeps: [InsertedRowsUpkeep?], tables: [String]) -> [Step]? {
        // A table is placed once every table its aggregates update is (or is
        // not inserted into): a handful of tables, searched linearly.
        func placeable(_ table: Int, after placed: [Int]) -> Bool {
            !placed.contains(table) && (upkeeps[table]?.parentAggregates ?? []).allSatisfy { aggregate in
                tables.firstIndex(of: aggregate.parentTable).map(placed.contains) ?? true
            }
        }
        var parentsFirst: [Int] = []
        parentsFirst.reserveCapacity(tables.count)
        while parentsFirst.count < tables.count {
            guard let next = tables.indices.first(where: { placeable($0, after: parentsFirst) }) else { return nil }
            parentsFirst.append(next)
        }
        var steps: [Step] = []
        for table in parentsFirst {
            guard let upkeep = upkeeps[table] else { continue }
            for (index, sql) in upkeep.aggregateStatements.enumerated() {
                steps.append(Step(table: table, sql: sql, overMostOfTable: upkeep.aggregateStatementsOverMostOfTable[index],
                                  tally: upkeep.aggregateTallies[index]))
            }
        }
        for table in parentsFirst.reversed() {
            for sql in upkeeps[table]?.recomputeStatements ?? [] { steps.append(Step(table: table, sql: sql, overMostOfTable: sql)) }
        }
        return steps
    }

    /// Triggers back on, then the stand-ins over `keys`: runs of keys, each
    /// inserted into the table of the caller's number while the triggers were
    /// off, every key in a run. With the triggers on, so triggers on the rows
    /// the stand-ins update fire as they would have for the per-row updates.
    ///
    /// Parents' aggregates are added up by the writer (InsertedChildTotals)
    /// unless the run is most of its table and the statement has a form for
    /// that (counts read from the link's index, in order, without a row).
    func finish(keys: [(table: Int, keys: ClosedRange<Int64>)]) throws {
        connection.setTriggersEnabled(true)
        for step in steps {
            for (table, keys) in keys where table == step.table {
                let bounds: [SQLValue] = [.integer(keys.lowerBound), .integer(keys.upperBound)]
                if Self.isMostOfTable(keys), step.overMostOfTable != step.sql {
                    try connection.execute(step.overMostOfTable, bounds)
                } else if let tally = step.tally, try InsertedChildTotals.apply(tally, over: keys, on: connection) {
                    continue
                } else {
                    try connection.execute(step.sql, bounds)
                }
            }
        }
    }

    /// Whether a run of new keys is at least half of its table: keys are
    /// handed out in order, so no more rows than the keys below the run's
    /// first are older.
    static func isMostOfTable(_ keys: ClosedRange<Int64>) -> Bool {
        // lower − 1 ≤ upper − lower + 1, without overflow for any keys.
        keys.lowerBound <= keys.upperBound / 2 + 1
    }

    /// Triggers back on after a failed insert; its transaction rolls back.
    func abandon() {
        connection.setTriggersEnabled(true)
    }
}
