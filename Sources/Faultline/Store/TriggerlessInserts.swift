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

    /// The stand-ins of each table inserted into (nil for a table with no
    /// INSERT trigger), by the caller's table number.
    private let upkeeps: [InsertedRowsUpkeep?]
    private let connection: Connection

    private init(upkeeps: [InsertedRowsUpkeep?], connection: Connection) {
        self.upkeeps = upkeeps
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
        guard upkeeps.contains(where: { $0 != nil }) else { return nil }
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
        return TriggerlessInserts(upkeeps: upkeeps, connection: connection)
    }

    /// Triggers back on, then the stand-ins over `keys`: runs of keys, each
    /// inserted into the table of the caller's number while the triggers were
    /// off, every key in a run. With the triggers on, so triggers on the rows
    /// the stand-ins update fire as they would have for the per-row updates.
    func finish(keys: [(table: Int, keys: ClosedRange<Int64>)]) throws {
        connection.setTriggersEnabled(true)
        for (table, keys) in keys {
            guard let upkeep = upkeeps[table] else { continue }
            for sql in upkeep.statements {
                try connection.execute(sql, [.integer(keys.lowerBound), .integer(keys.upperBound)])
            }
        }
    }

    /// Triggers back on after a failed insert; its transaction rolls back.
    func abandon() {
        connection.setTriggersEnabled(true)
    }
}
