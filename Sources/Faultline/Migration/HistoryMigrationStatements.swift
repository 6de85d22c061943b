import Foundation
import FaultlineSQLite

/// The statements that carry a store's persistent history (`ACHANGE`, in Core
/// Data's layout: see `HistoryStatements`) from an old model to a new one.
/// Every value is bound; only `ZTOMBSTONEn` column names are spliced in.
///
/// Renamed rows are marked by a negative `ZENTITY` until `finishRenumbering`,
/// so a row moved to a number another old entity still has is not moved twice.
enum HistoryMigrationStatements {
    /// The distinct `ZCOLUMNS` masks of one entity's change rows (nil for rows without one).
    static func masks(ofEntity number: Int, on connection: Connection) throws -> [[UInt8]?] {
        try connection.rows("SELECT DISTINCT ZCOLUMNS FROM ACHANGE WHERE ZENTITY = ?", [.integer(Int64(number))]).map { row in
            if case .blob(let data) = row[0] { return [UInt8](data) }
            return nil
        }
    }

    /// One entity's delete rows get their tombstones in the new order: new
    /// column `i` takes old column `sources[i]`, or NULL. SQLite evaluates
    /// every assignment against the row before the update, so a permutation
    /// is safe in one statement.
    static func moveTombstones(ofEntity number: Int, sources: [Int?], on connection: Connection) throws {
        guard !sources.isEmpty else { return }
        let assignments = sources.enumerated().map { column, source in
            "ZTOMBSTONE\(column) = " + (source.map { "ZTOMBSTONE\($0)" } ?? "NULL")
        }
        try connection.execute(
            "UPDATE ACHANGE SET \(assignments.joined(separator: ", ")) WHERE ZENTITY = ? AND ZCHANGETYPE = ?",
            [.integer(Int64(number)), .integer(HistoryStatements.ChangeType.delete.rawValue)])
    }

    /// One entity's rows with `mask` take the new entity number (marked) and `newMask`.
    static func renumber(entity old: Int, mask: [UInt8]?, to new: Int, mask newMask: [UInt8]?,
                         on connection: Connection) throws {
        let oldMask: SQLValue = mask.map { .blob(Data($0)) } ?? .null
        let replacement: SQLValue = newMask.map { .blob(Data($0)) } ?? .null
        try connection.execute(
            "UPDATE ACHANGE SET ZENTITY = ?, ZCOLUMNS = ? WHERE ZENTITY = ? AND ZCOLUMNS IS ?",
            [.integer(-Int64(new)), replacement, .integer(Int64(old)), oldMask])
    }

    /// Clears the marks `renumber` left.
    static func finishRenumbering(on connection: Connection) throws {
        try connection.execute("UPDATE ACHANGE SET ZENTITY = -ZENTITY WHERE ZENTITY < 0")
    }

    /// Deletes the change rows of an entity the new model no longer has.
    static func deleteChanges(ofEntity number: Int, on connection: Connection) throws {
        try connection.execute("DELETE FROM ACHANGE WHERE ZENTITY = ?", [.integer(Int64(number))])
    }
}
