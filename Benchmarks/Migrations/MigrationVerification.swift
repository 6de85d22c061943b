import BenchmarkData
import Faultline
import FaultlineSQLite

/// What each Migrations line should leave in `ZSAMPLE`: the rows
/// `MigrationsModel.fillSQL` wrote (key i: `'sample i'`, level i % 30000,
/// amount i × 0.25), every one kept, in the columns of the target version.
enum MigrationVerification {
    /// `change` nil: the V1 layout, as the raw copy keeps it.
    static func expected(rows: Int, entity: Int64, change: MigrationsModel.Change?) -> ExpectedTable {
        var columns: [ExpectedColumn] = [
            .constant("Z_ENT", .integer(entity)), .constant("Z_OPT", 1),
            ExpectedColumn("ZNAME") { .text("sample \($0)") },
            // The rebuild's FLOAT column holds the widened level as a real.
            ExpectedColumn("ZLEVEL") { change == .rebuild ? .real(Double($0 % 30_000)) : .integer($0 % 30_000) },
            ExpectedColumn("ZAMOUNT") { .real(Double($0) * 0.25) },
        ]
        if change == .addColumn { columns.append(.constant("ZNOTE", .null)) }
        return ExpectedTable(MigrationsModel.table, count: rows, columns: columns)
    }

    static func verify(_ url: String, rows: Int, change: MigrationsModel.Change?) throws {
        let verifier = try StoreVerifier(path: url)
        try verifier.verify(expected(rows: rows, entity: try verifier.entityNumber("Sample"), change: change))
    }
}

extension MigrationFixture {
    /// The migration happened (the store opens with the target model and no
    /// migration allowed) and every row came through with its values.
    func verifyMigrated(_ change: MigrationsModel.Change, rows: Int) throws {
        do {
            _ = try PersistentContainer(model: MigrationsModel.v2(change), location: .file(url), migration: .none)
        }
        try MigrationVerification.verify(url.path, rows: rows, change: change)
    }
}
