import Faultline
import FaultlineSQLite
import Foundation

/// Whether lightweight migration covers a change from one model version to another.
///
/// The inference itself (`MigrationMapping` in Sources/Faultline/Migration/) is
/// internal to Faultline and only reachable through `LightweightMigration.migrate`,
/// which infers and then executes. So the check runs that migration on a
/// scratch in-memory store created empty from the old version: it infers the
/// mapping, refuses the changes inference refuses, builds the new schema and
/// verifies it, and touches no file. Conditions on existing rows (NULLs in a
/// newly required attribute, duplicates under a new uniqueness constraint)
/// cannot fail on an empty store; `ModelDiff.dataConditions` lists them.
enum LightweightCheck {
    enum Verdict {
        case covered
        case refused(String)
    }

    static func check(from old: ModelVersion, to new: ModelVersion) -> Verdict {
        do {
            let connection = try Connection(.inMemory)
            try StoreFunctions.register(on: connection)
            try StoreBootstrap.create(StoreSchema(compiling: old.model), on: connection)
            try LightweightMigration.migrate(on: connection, from: old, to: new)
            return .covered
        } catch {
            return .refused("\(error)")
        }
    }
}
