import Foundation
import FaultlineSQLite

/// Every statement over the store's bookkeeping tables, the ones Core Data's
/// layout keeps beside the entities' (COREDATA-STORE.md): `Z_PRIMARYKEY` (an
/// entity list and one key counter per inheritance root), `Z_METADATA` (the
/// store's UUID and metadata property list) and `Z_MODELCACHE`. Key
/// reservation, the bootstrap of a new store, batch inserts' key blocks,
/// migrations and the Core Data store checks all read and write them through
/// these functions, so each statement's text is written once; every value is
/// bound, and the one table name spliced in comes from the compiled schema.
enum BookkeepingStatements {
    /// `Z_PRIMARYKEY` rows from here on are Core Data's own (persistent history).
    static let firstFrameworkEntityNumber: Int64 = 16001

    struct EntityRow: Equatable {
        var number: Int
        var name: String
        var superNumber: Int
    }

    /// The model's entities as the store lists them, ordered by number;
    /// Core Data's own rows (16001 on) are left out.
    static func entities(on connection: Connection) throws -> [EntityRow] {
        try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < ? ORDER BY Z_ENT",
                            [.integer(firstFrameworkEntityNumber)]).compactMap { row in
            guard row.count == 3, case .integer(let number) = row[0] else { return nil }
            let name: String = if case .text(let text) = row[1] { text } else { "" }
            let superNumber: Int64 = if case .integer(let value) = row[2] { value } else { 0 }
            return EntityRow(number: Int(number), name: name, superNumber: Int(superNumber))
        }
    }

    /// Adds an entity's row with its key counter at `keyMax`.
    static func insertEntity(number: Int, name: String, superNumber: Int, keyMax: Int64, on connection: Connection) throws {
        try connection.execute(
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
            [.integer(Int64(number)), .text(name), .integer(Int64(superNumber)), .integer(keyMax)])
    }

    /// Every key counter, Core Data's own included: entity number → `Z_MAX`.
    static func keyCounters(on connection: Connection) throws -> [Int: Int64] {
        var counters: [Int: Int64] = [:]
        for row in try connection.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY") {
            if row.count == 2, case .integer(let entity) = row[0], case .integer(let max) = row[1] { counters[Int(entity)] = max }
        }
        return counters
    }

    /// Removes the model's entity rows, keeping Core Data's own.
    static func deleteModelEntities(on connection: Connection) throws {
        try connection.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < ?", [.integer(firstFrameworkEntityNumber)])
    }

    // The two statements of key reservation run on every save that inserts:
    // bound by position on the cached statement, with no array of values.

    /// The key counter of the root entity `number`; nil when it has no row
    /// (or a NULL one).
    static func keyMax(ofEntity number: Int, on connection: Connection) throws -> Int64? {
        let statement = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        defer { statement.reset() }
        try statement.bind(Int64(number), at: 1)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// Compare-and-set of a key counter: moves it from `expected` to `newMax`,
    /// returning false when another writer moved it first.
    static func moveKeyMax(ofEntity number: Int, from expected: Int64, to newMax: Int64, on connection: Connection) throws -> Bool {
        let statement = try connection.cachedStatement("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        try statement.bind(newMax, at: 1)
        try statement.bind(Int64(number), at: 2)
        try statement.bind(expected, at: 3)
        try statement.execute()
        return connection.changes == 1
    }

    /// The largest `Z_PK` in `table` (an entity table of the compiled schema); nil when empty.
    static func largestKey(inTable table: String, on connection: Connection) throws -> Int64? {
        guard case .integer(let largest)? = try connection.scalar("SELECT max(Z_PK) FROM \(table)") else { return nil }
        return largest
    }

    /// The `Z_METADATA` row: its UUID (empty when NULL) and `Z_PLIST` (nil when NULL);
    /// nil when the row is missing.
    static func metadataRow(on connection: Connection) throws -> (uuid: String, plist: SQLValue)? {
        guard let row = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1").first,
              row.count == 2 else { return nil }
        let uuid: String = if case .text(let text) = row[0] { text } else { "" }
        return (uuid, row[1])
    }

    static func insertMetadata(uuid: String, propertyList: Data, on connection: Connection) throws {
        try connection.execute("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                               [.text(uuid), .blob(propertyList)])
    }

    static func replaceMetadataPropertyList(_ propertyList: Data, on connection: Connection) throws {
        try connection.execute("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", [.blob(propertyList)])
    }

    /// Empties Core Data's cached model archive, when the store has one: after
    /// a migration it would describe the old model.
    static func emptyModelCache(on connection: Connection) throws {
        if try connection.hasTable(named: "Z_MODELCACHE") { try connection.execute("DELETE FROM Z_MODELCACHE") }
    }
}
