import Faultline
import Foundation

/// The Migrations suite's entity: a `Sample` with a name, a 16-bit level and an
/// amount. Two V2 models: one adds an optional attribute (SQLite's
/// `ALTER TABLE ADD COLUMN`, done in place), one widens `level` from int16 to
/// double (its declared column type changes from INTEGER to FLOAT and it moves
/// out of the integer columns: SQLite's table-rebuild procedure). Widening
/// int16 → int64 would not do: both are INTEGER columns, so the table stays.
enum MigrationsModel {
    enum Change: String, CaseIterable {
        case addColumn
        case rebuild
    }

    static func v1() -> ManagedObjectModel { model(change: nil) }
    static func v2(_ change: Change) -> ManagedObjectModel { model(change: change) }

    private static func model(change: Change?) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Sample") {
                Attribute("name", .string)
                Attribute("level", change == .rebuild ? .double : .integer16)
                Attribute("amount", .double)
                if change == .addColumn { Attribute("note", .string) }
            }
        }
    }

    static let table = "ZSAMPLE"

    /// Fills the V1 table with `rows` rows in one statement (a recursive CTE),
    /// in one transaction, and moves the key allocator past them.
    static func fillSQL(rows: Int, entity: Int64) -> String {
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEVEL, ZAMOUNT)
        SELECT i, \(entity), 1, 'sample ' || i, i % 30000, i * 0.25 FROM n
        """
    }

    /// The raw reference: the same table copied with plain SQL, as SQLite's
    /// rebuild procedure does it (new table, `INSERT INTO … SELECT`, drop the
    /// old one, rename), in one transaction.
    static let rawCopy = [
        "BEGIN IMMEDIATE TRANSACTION",
        "CREATE TABLE ZSAMPLE_COPY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME TEXT, ZLEVEL INTEGER, ZAMOUNT REAL)",
        "INSERT INTO ZSAMPLE_COPY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEVEL, ZAMOUNT) SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLEVEL, ZAMOUNT FROM ZSAMPLE",
        "DROP TABLE ZSAMPLE",
        "ALTER TABLE ZSAMPLE_COPY RENAME TO ZSAMPLE",
        "COMMIT TRANSACTION",
    ]
}
