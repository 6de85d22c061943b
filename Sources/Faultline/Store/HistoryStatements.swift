import Foundation
import FaultlineSQLite

/// Every statement over Core Data's persistent-history tables — `ATRANSACTION`,
/// `ACHANGE`, `ATRANSACTIONSTRING` — in Core Data's own layout (read from the
/// fixture stores that record history): creating them, recording a commit,
/// reading and deleting history. Every value is bound; the only names spliced
/// in are the history tables' own columns and, for tombstones, an entity table
/// and columns of the compiled schema.
enum HistoryStatements {
    static let changeEntityNumber = 16001
    static let transactionEntityNumber = 16002
    static let stringEntityNumber = 16003

    enum ChangeType: Int64 { case insert = 0, update = 1, delete = 2 }

    /// What a store's history tables look like.
    struct TablesLayout: Equatable {
        /// `ATRANSACTIONSTRING` exists and `ATRANSACTION` names its strings by
        /// key (`ZAUTHORTS`…); older stores (iOS 11) keep them inline.
        var internsStrings: Bool
        /// How many `ZTOMBSTONEn` columns `ACHANGE` has.
        var tombstoneColumns: Int
    }

    /// The layout of the store's history tables; nil when it has none.
    static func layout(on connection: Connection) throws -> TablesLayout? {
        guard try connection.hasTable(named: "ATRANSACTION"), try connection.hasTable(named: "ACHANGE") else { return nil }
        let transactionColumns = Set(try connection.columns(ofTable: "ATRANSACTION").map { $0.name.uppercased() })
        let changeColumns = Set(try connection.columns(ofTable: "ACHANGE").map { $0.name.uppercased() })
        var tombstones = 0
        while changeColumns.contains("ZTOMBSTONE\(tombstones)") { tombstones += 1 }
        return TablesLayout(
            internsStrings: try connection.hasTable(named: "ATRANSACTIONSTRING") && transactionColumns.contains("ZAUTHORTS"),
            tombstoneColumns: tombstones)
    }

    /// Creates the three tables, their indexes and their `Z_PRIMARYKEY` rows
    /// exactly as Core Data does, with `tombstoneColumns` tombstone columns.
    static func createTables(tombstoneColumns: Int, on connection: Connection) throws {
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        try connection.execute("""
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, \
            ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstones) )
            """)
        try connection.execute("""
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, \
            ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, \
            ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )
            """)
        try connection.execute("CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )")
        try connection.execute("CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)")
        for column in ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS"] {
            try connection.execute("CREATE INDEX ATRANSACTION_\(column)_INDEX ON ATRANSACTION (\(column))")
        }
        try connection.execute("CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)")
        try connection.execute("CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)")
        try connection.execute(
            "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)")
        try ensureKeyCounters(on: connection)
    }

    /// Whether the three `Z_PRIMARYKEY` rows are all there.
    static func hasKeyCounters(on connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT COUNT(*) FROM Z_PRIMARYKEY WHERE Z_ENT IN (?, ?, ?)",
            [.integer(Int64(changeEntityNumber)), .integer(Int64(transactionEntityNumber)), .integer(Int64(stringEntityNumber))]
        ) == .integer(3)
    }

    /// The three `Z_PRIMARYKEY` rows, added where missing.
    static func ensureKeyCounters(on connection: Connection) throws {
        for (number, name) in [(changeEntityNumber, "CHANGE"), (transactionEntityNumber, "TRANSACTION"),
                               (stringEntityNumber, "TRANSACTIONSTRING")] {
            try connection.execute(
                "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                [.integer(Int64(number)), .text(name)])
        }
    }

    /// Adds tombstone columns `from..<to` (a model preserving more attributes
    /// of one entity than the store has columns for).
    static func addTombstoneColumns(from: Int, to: Int, on connection: Connection) throws {
        for number in from..<to { try connection.addColumn(named: "ZTOMBSTONE\(number)", declaredType: "BLOB", toTable: "ACHANGE") }
    }

    /// The largest key of each history table, by its entity number (keys
    /// start above them even where `Z_MAX` is lower).
    static func largestKeys(internsStrings: Bool, on connection: Connection) throws -> [Int: Int64] {
        var keys: [Int: Int64] = [:]
        var tables = [(changeEntityNumber, "ACHANGE"), (transactionEntityNumber, "ATRANSACTION")]
        if internsStrings { tables.append((stringEntityNumber, "ATRANSACTIONSTRING")) }
        for (number, table) in tables {
            if case .integer(let largest)? = try connection.scalar("SELECT max(Z_PK) FROM \(table)") { keys[number] = largest }
        }
        return keys
    }

    // MARK: - Recording a commit

    /// The key of an interned string; nil when it has none.
    static func stringKey(_ name: String, on connection: Connection) throws -> Int64? {
        let statement = try connection.cachedStatement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    static func insertString(_ name: String, key: Int64, on connection: Connection) throws {
        try connection.execute("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)",
                               [.integer(key), .integer(Int64(stringEntityNumber)), .text(name)])
    }

    /// The names of one transaction: interned keys, or the text itself in a
    /// store without `ATRANSACTIONSTRING`.
    enum Name { case key(Int64), text(String), none }

    /// One `ATRANSACTION` row; `names` are author, bundle ID, context name, process ID.
    static func insertTransaction(key: Int64, timestamp: Date, names: [Name], internsStrings: Bool,
                                  on connection: Connection) throws {
        let sql = internsStrings
            ? "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS) VALUES (?, ?, ?, ?, ?, ?, ?)"
            : "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID) VALUES (?, ?, ?, ?, ?, ?, ?)"
        let statement = try connection.cachedStatement(sql)
        try statement.bind(key, at: 1)
        try statement.bind(Int64(transactionEntityNumber), at: 2)
        try statement.bind(timestamp.timeIntervalSinceReferenceDate, at: 3)
        for (offset, name) in names.enumerated() {
            switch name {
            case .key(let key): try statement.bind(key, at: Int32(4 + offset))
            case .text(let text): try statement.bind(text, at: Int32(4 + offset))
            case .none: try statement.bindNull(at: Int32(4 + offset))
            }
        }
        try statement.execute()
    }

    /// Up to this many change rows go in as one multi-row `VALUES` statement
    /// (one cached text per row count), more as a JSON list: SQLite parses
    /// JSON with allocations a small save need not pay.
    static let valuesRowLimit = 16

    /// Change rows without tombstones as one multi-row `VALUES` statement,
    /// row `i` taking key `firstKey + i`; at most `valuesRowLimit` rows.
    static func insertChanges(firstKey: Int64, transaction: Int64,
                              rows: [(type: ChangeType, entity: Int, key: Int64, mask: [UInt8])],
                              on connection: Connection) throws {
        let tuples = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
        let statement = try connection.cachedStatement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES \(tuples)")
        var position: Int32 = 1
        for (offset, row) in rows.enumerated() {
            try statement.bind(firstKey + Int64(offset), at: position)
            try statement.bind(Int64(changeEntityNumber), at: position + 1)
            try statement.bind(row.type.rawValue, at: position + 2)
            try statement.bind(Int64(row.entity), at: position + 3)
            try statement.bind(row.key, at: position + 4)
            try statement.bind(transaction, at: position + 5)
            if row.mask.isEmpty { try statement.bindNull(at: position + 6) } else { try statement.bind(row.mask, at: position + 6) }
            position += 7
        }
        try statement.execute()
    }

    /// Every change row of a commit without tombstones, in one statement:
    /// `rows` is a JSON array of `[type, entity, key, maskStart, maskLength]`
    /// (the mask a slice of `masks`, 1-based; length 0 for none), row `i`
    /// taking key `firstKey + i`.
    static func insertChanges(firstKey: Int64, transaction: Int64, rows: String, masks: [UInt8],
                              on connection: Connection) throws {
        let statement = try connection.cachedStatement("""
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) \
            SELECT ?1 + key, ?2, value ->> 0, value ->> 1, value ->> 2, ?3, \
            CASE WHEN value ->> 4 > 0 THEN substr(?4, value ->> 3, value ->> 4) END FROM json_each(?5)
            """)
        try statement.bind(firstKey, at: 1)
        try statement.bind(Int64(changeEntityNumber), at: 2)
        try statement.bind(transaction, at: 3)
        try statement.bind(masks, at: 4)
        try statement.bind(rows, at: 5)
        try statement.execute()
    }

    /// The insert rows of a batch insert's key range of one entity table,
    /// change key `firstKey` for the range's first key.
    /// Built once per entity table (a recorder keeps them): no text is built per commit.
    static func insertionsSQL(table: String) -> String {
        """
        INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) \
        SELECT ?1 + Z_PK - ?2, ?3, \(ChangeType.insert.rawValue), Z_ENT, Z_PK, ?4 FROM \(table) \
        WHERE Z_PK BETWEEN ?2 AND ?5 ORDER BY Z_PK
        """
    }

    /// Runs `sql` (`insertionsSQL` of the range's table).
    static func insertInsertions(sql: String, keys: ClosedRange<Int64>, firstKey: Int64, transaction: Int64,
                                 on connection: Connection) throws {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(firstKey, at: 1)
        try statement.bind(keys.lowerBound, at: 2)
        try statement.bind(Int64(changeEntityNumber), at: 3)
        try statement.bind(transaction, at: 4)
        try statement.bind(keys.upperBound, at: 5)
        try statement.execute()
    }

    /// The delete rows of one entity table's objects with preserved
    /// attributes, their tombstones copied from the rows (so before the rows
    /// go): the `i`th of `keys` takes change key `firstKey + i`.
    /// Built once per entity (a recorder keeps them): `columns` are its preserved attributes' columns.
    static func tombstonesSQL(table: String, columns: [String]) -> String {
        let tombstones = columns.indices.map { ", ZTOMBSTONE\($0)" }.joined()
        let values = columns.map { ", t.\(Connection.quotedIdentifier($0))" }.joined()
        return """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID\(tombstones)) \
            SELECT ?1 + j.key, ?2, \(ChangeType.delete.rawValue), t.Z_ENT, t.Z_PK, ?3\(values) \
            FROM json_each(?4) AS j JOIN \(table) AS t ON t.Z_PK = j.value
            """
    }

    /// Runs `sql` (`tombstonesSQL` of the keys' entity).
    static func insertTombstones(sql: String, firstKey: Int64, transaction: Int64, keys: [Int64],
                                 on connection: Connection) throws {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(firstKey, at: 1)
        try statement.bind(Int64(changeEntityNumber), at: 2)
        try statement.bind(transaction, at: 3)
        try statement.bind(jsonKeyList(keys), at: 4)
        try statement.execute()
    }

    /// The rows whose derived attributes read the rows with `keys` (a
    /// derivation's reach, HistoryRecorder+DerivedObjects.swift): keys and entity numbers.
    static func dependents(of reach: HistoryRecorder.ForeignDerivation.Reach, keys: [Int64],
                           on connection: Connection) throws -> [(key: Int64, entityNumber: Int64)] {
        try dependents(of: reach, condition: "IN (SELECT value FROM json_each(?))", [jsonKeyList(keys)], on: connection)
    }

    /// The same for the rows with keys in `range` (a batch insert's).
    static func dependents(of reach: HistoryRecorder.ForeignDerivation.Reach, range: ClosedRange<Int64>,
                           on connection: Connection) throws -> [(key: Int64, entityNumber: Int64)] {
        try dependents(of: reach, condition: "BETWEEN ? AND ?", [.integer(range.lowerBound), .integer(range.upperBound)],
                       on: connection)
    }

    private static func dependents(of reach: HistoryRecorder.ForeignDerivation.Reach, condition: String, _ values: [SQLValue],
                                   on connection: Connection) throws -> [(key: Int64, entityNumber: Int64)] {
        let sql = switch reach {
        case .owners(let memberTable, let ownerColumn, let ownerTable):
            "SELECT DISTINCT o.Z_PK, o.Z_ENT FROM \(memberTable) m JOIN \(ownerTable) o ON o.Z_PK = m.\(ownerColumn) "
                + "WHERE m.Z_PK \(condition)"
        case .referrers(let table, let column):
            "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) \(condition)"
        }
        return try connection.rows(sql, values).compactMap { row in
            guard row.count == 2, case .integer(let key) = row[0], case .integer(let entity) = row[1] else { return nil }
            return (key, entity)
        }
    }

    // MARK: - Reading and deleting

    /// One `ATRANSACTION` row, its names resolved.
    struct TransactionRow {
        var key: Int64
        var timestamp: Double
        var author, bundleID, contextName, processID: String?
    }

    /// Transactions with keys above `afterKey` and timestamps after `afterTime` (either may be nil), by key.
    static func transactions(afterKey: Int64?, afterTime: Double?, internsStrings: Bool,
                             on connection: Connection) throws -> [TransactionRow] {
        let names = internsStrings
            ? ["ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID"].map { column in
                "coalesce((SELECT s.ZNAME FROM ATRANSACTIONSTRING s WHERE s.Z_PK = t.\(column)TS), t.\(column))"
            }
            : ["t.ZAUTHOR", "t.ZBUNDLEID", "t.ZCONTEXTNAME", "t.ZPROCESSID"]
        let statement = try connection.cachedStatement("""
            SELECT t.Z_PK, t.ZTIMESTAMP, \(names.joined(separator: ", ")) FROM ATRANSACTION t \
            WHERE t.Z_PK > coalesce(?1, -9223372036854775808) AND t.ZTIMESTAMP > coalesce(?2, -1e300) ORDER BY t.Z_PK
            """)
        defer { statement.reset() }
        try statement.bind(afterKey.map(SQLValue.integer) ?? .null, at: 1)
        try statement.bind(afterTime.map(SQLValue.real) ?? .null, at: 2)
        var rows: [TransactionRow] = []
        while try statement.step() {
            rows.append(TransactionRow(
                key: statement.int64(at: 0), timestamp: statement.double(at: 1), author: statement.string(at: 2),
                bundleID: statement.string(at: 3), contextName: statement.string(at: 4), processID: statement.string(at: 5)))
        }
        return rows
    }

    /// One `ACHANGE` row.
    struct ChangeRow {
        var key: Int64
        var transaction: Int64
        var type: Int64
        var entity: Int64
        var entityKey: Int64
        var columns: [UInt8]?
        /// A delete's tombstone columns, read as attributes of the types given.
        var tombstones: [AttributeValue]
    }

    /// The changes of transactions `first...last`, by transaction then key;
    /// `tombstoneTypes` gives, by entity number, the types of its tombstone columns.
    static func changes(transactions first: Int64, through last: Int64, tombstoneColumns: Int,
                        tombstoneTypes: (Int64) -> [AttributeType], on connection: Connection) throws -> [ChangeRow] {
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try connection.cachedStatement("""
            SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstones) FROM ACHANGE \
            WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY ZTRANSACTIONID, Z_PK
            """)
        defer { statement.reset() }
        try statement.bind(first, at: 1)
        try statement.bind(last, at: 2)
        var rows: [ChangeRow] = []
        while try statement.step() {
            let type = statement.int64(at: 2), entity = statement.int64(at: 3)
            var tombstones: [AttributeValue] = []
            if type == ChangeType.delete.rawValue {
                for (column, attributeType) in tombstoneTypes(entity).prefix(tombstoneColumns).enumerated() {
                    tombstones.append(ValueCoding.read(statement, at: Int32(6 + column), as: attributeType))
                }
            }
            rows.append(ChangeRow(
                key: statement.int64(at: 0), transaction: statement.int64(at: 1), type: type, entity: entity,
                entityKey: statement.int64(at: 4), columns: statement.data(at: 5).map { [UInt8]($0) }, tombstones: tombstones))
        }
        return rows
    }

    /// Deletes the transactions with keys below `key` and their changes;
    /// returns how many transactions went.
    static func deleteTransactions(before key: Int64, on connection: Connection) throws -> Int {
        try connection.execute("DELETE FROM ACHANGE WHERE ZTRANSACTIONID < ?", [.integer(key)])
        try connection.execute("DELETE FROM ATRANSACTION WHERE Z_PK < ?", [.integer(key)])
        return connection.changes
    }

    /// The key of the first transaction committed at or after `date`; nil when there is none.
    static func firstTransaction(after date: Date, on connection: Connection) throws -> Int64? {
        guard case .integer(let key)? = try connection.scalar(
            "SELECT min(Z_PK) FROM ATRANSACTION WHERE ZTIMESTAMP >= ?", [.real(date.timeIntervalSinceReferenceDate)])
        else { return nil }
        return key
    }

    /// Whether transactions after `key` were deleted (`deleteHistory`): the
    /// oldest one kept is later than the next after `key`, or none is kept
    /// though later ones were committed. Reading after `key` would skip them.
    static func transactionsDeleted(after key: Int64, on connection: Connection) throws -> Bool {
        guard case .integer(let oldest)? = try connection.scalar("SELECT min(Z_PK) FROM ATRANSACTION") else {
            return try latestTransaction(on: connection) > key
        }
        return oldest > key + 1
    }

    /// The key of the store's latest transaction: the larger of the
    /// transaction counter and the largest row (0 for none).
    static func latestTransaction(on connection: Connection) throws -> Int64 {
        let counter = try BookkeepingStatements.keyMax(ofEntity: transactionEntityNumber, on: connection) ?? 0
        guard case .integer(let largest)? = try connection.scalar("SELECT max(Z_PK) FROM ATRANSACTION") else { return counter }
        return max(counter, largest)
    }
}
