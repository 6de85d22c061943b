import Foundation
import FaultlineSQLite

/// Core Data's own SQL functions that a store's triggers call (derived
/// attributes' `Z_DA_…` triggers, and whatever else Core Data installs).
///
/// - `NSCoreDataNow()` is implemented (StoreFunctions registers it on every
///   connection): seconds since 2001-01-01 UTC, as Core Data documents for
///   `now()` in derivation expressions.
/// - `NSCoreDataDATriggerUpdatedAffectedObjectValue` and
///   `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue` are accepted as
///   no-ops returning NULL. A `Z_DA_…` trigger computes the derived column in
///   its own SQL and then `SELECT`s one of them with (table, Z_ENT, Z_PK,
///   property, new value), discarding the result: the call only tells the
///   saving process which objects' derived values moved. Faultline needs no
///   telling: after a save it re-reads the rows its model's derivations make
///   stale (`DerivedDependencies`).
/// - Every other `NS…(` function a trigger calls has no documented behaviour.
///   It is registered on the writer as a function that fails, naming itself
///   and its triggers: the write that fires the trigger fails, its
///   transaction rolls back, and the store is left as it was. Without this,
///   SQLite would fail the same write with a bare "no such function".
enum CoreDataTriggerFunctions {
    static let derivedValueReports: Set<String> = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]
    static let implemented: Set<String> = derivedValueReports.union([StoreFunctions.now])

    /// Function name → the triggers that call it, for every `NS…(` call in a trigger.
    static func calledFunctions(on connection: Connection) throws -> [String: [String]] {
        var calls: [String: [String]] = [:]
        for trigger in try connection.schemaObjects(ofType: "trigger") {
            guard let sql = trigger.sql else { continue }
            for name in functionNames(in: sql) where !(calls[name]?.contains(trigger.name) ?? false) {
                calls[name, default: []].append(trigger.name)
            }
        }
        return calls
    }

    /// Identifiers starting `NS` followed by `(`, outside string literals.
    static func functionNames(in sql: String) -> Set<String> {
        var names = Set<String>()
        let characters = Array(sql.unicodeScalars)
        var index = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            if character == "'" { inString.toggle(); index += 1; continue }
            let startsWord = index == 0 || !isIdentifier(characters[index - 1])
            if !inString, startsWord, character == "N", index + 1 < characters.count, characters[index + 1] == "S" {
                var end = index
                while end < characters.count, isIdentifier(characters[end]) { end += 1 }
                var next = end
                while next < characters.count, characters[next].properties.isWhitespace { next += 1 }
                if next < characters.count, characters[next] == "(" {
                    names.insert(String(String.UnicodeScalarView(characters[index..<end])))
                }
                index = end
                continue
            }
            index += 1
        }
        return names
    }

    private static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// Registers the derived-value reports a trigger calls as no-ops and a
    /// refusing function for each other called function not implemented.
    /// Returns the refused names.
    @discardableResult
    static func register(for calls: [String: [String]], on connection: Connection) throws -> [String] {
        for name in calls.keys where derivedValueReports.contains(name) {
            try connection.createFunction(name, argumentCount: -1, deterministic: false) { _ in .null }
        }
        let refused = calls.keys.filter { !implemented.contains($0) }.sorted()
        for name in refused {
            let error = CoreDataStoreError.unsupportedFunction(name: name, triggers: calls[name] ?? [])
            try connection.createFunction(name, argumentCount: -1, deterministic: false) { _ in throw error }
        }
        return refused
    }
}
