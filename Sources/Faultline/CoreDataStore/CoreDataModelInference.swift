import Foundation
import FaultlineSQLite

/// A model read back from the schema of a store that carries none — no
/// `Z_MODELCACHE` model, no model file (third-party apps' stores met in
/// forensics, as Kik's or the legacy Notes store in the fixtures) — so its
/// rows can be read. Core Data's layout says most of it:
/// - entities, their numbers and inheritance from `Z_PRIMARYKEY`; each
///   hierarchy's table is `Z` + its root's name, upper-cased;
/// - a to-one whose destination has sub-entities leaves a `Z<n>_<REL>` column
///   beside `Z<REL>`: a relationship to entity n;
/// - a many-to-many leaves a join table whose two columns `Z_<a><X>` and
///   `Z_<b><Y>` hold entity a's and b's keys: b declares X to a, a declares
///   Y to b, each the other's inverse;
/// - every other column is an attribute of the root, typed by its declared
///   type (INTEGER → Integer 64, FLOAT → Double, VARCHAR → String, TIMESTAMP →
///   Date, DECIMAL → Decimal, BLOB → Binary), indexed when
///   `<TABLE>_<COLUMN>_INDEX` exists.
/// What the schema cannot say is guessed plainly: names are the column names
/// lower-cased (`ZDATECREATED` → `datecreated`), a to-one into an entity
/// without sub-entities stays an integer attribute holding the `Z_PK`, booleans
/// and 16/32-bit integers read as 64-bit integers, transformables as their
/// bytes, and nothing is optional-checked or validated. The model is for
/// reading: `PersistentContainer(coreDataStoreInferringModelAt:)` opens the
/// store read-only, matching tables, columns and entity numbers but not
/// indexes (older Core Data kept other ones; reads do not depend on them).
public enum CoreDataModelInference {
    /// Matches the store at `url` to `model`, inferred from it, on a
    /// read-only connection (tables, columns and entity numbers, not
    /// indexes), as opening it would; throws `CoreDataStoreError.modelMismatch`
    /// otherwise.
    public static func inspect(storeAt url: URL, inferred model: ManagedObjectModel) throws -> CoreDataStoreInspection {
        let checked = try model.checked()
        return try CoreDataStore.inspect(url: url, model: checked, schema: StoreSchema(compiling: checked),
                                         options: CoreDataStoreOptions(), ignoringIndexes: true)
    }

    /// The model the store at `url` was laid out by, as far as its schema says.
    ///
    /// - Throws: `CoreDataStoreError.notACoreDataStore` when it has no
    ///   `Z_PRIMARYKEY` or an entity's table is missing.
    public static func model(ofStoreAt url: URL) throws -> ManagedObjectModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw CoreDataStoreError.missingStore(path: path) }
        let connection = try Connection(.file(path), configuration: .inspecting(path))
        var rows: [(number: Int, name: String, superNumber: Int)] = []
        do {
            rows = try BookkeepingStatements.entities(on: connection).map { ($0.number, $0.name, $0.superNumber) }
        } catch {
            throw CoreDataStoreError.notACoreDataStore(path: path, reason: "it has no readable Z_PRIMARYKEY table")
        }
        var entities: [Int: EntityDescription] = [:]
        for row in rows {
            let entity = EntityDescription()
            entity.name = row.name
            entities[row.number] = entity
        }
        for row in rows where row.superNumber != 0 && row.superNumber != row.number {
            guard let child = entities[row.number], let parent = entities[row.superNumber] else { continue }
            parent.subentities.append(child)
        }
        let tables = Set(try connection.schemaObjectNames(ofType: "table"))
        let indexes = Set(try connection.schemaObjectNames(ofType: "index"))
        for row in rows where row.superNumber == 0 {
            guard let root = entities[row.number] else { continue }
            let table = "Z" + row.name.uppercased()
            guard tables.contains(table) else {
                throw CoreDataStoreError.notACoreDataStore(path: path, reason: "entity \(row.name) has no table \(table)")
            }
            try addColumns(of: table, to: root, entities: entities, indexes: indexes, connection: connection)
        }
        for table in tables.sorted() where table.hasPrefix("Z_") && table.dropFirst(2).first?.isNumber == true {
            try addManyToMany(table, entities: entities, connection: connection)
        }
        let model = ManagedObjectModel()
        model.entities = rows.compactMap { entities[$0.number] }
        return model
    }

    private static func addColumns(of table: String, to root: EntityDescription, entities: [Int: EntityDescription],
                                   indexes: Set<String>, connection: Connection) throws {
        let columns = try connection.columns(ofTable: table).map { (name: $0.name, type: $0.declaredType.uppercased()) }
        let names = Set(columns.map(\.name))
        var destinations: [String: Int] = [:]
        var companions: Set<String> = []
        for column in columns {
            // Z<n>_<REL> beside Z<REL>: a to-one into entity n's hierarchy.
            guard column.name.hasPrefix("Z"), let underscore = column.name.firstIndex(of: "_"),
                  let number = Int(column.name[column.name.index(after: column.name.startIndex)..<underscore]),
                  entities[number] != nil else { continue }
            let key = "Z" + column.name[column.name.index(after: underscore)...]
            if names.contains(key) {
                destinations[key] = number
                companions.insert(column.name)
            }
        }
        var properties: [PropertyDescription] = []
        for column in columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) && !column.name.hasPrefix("Z_FOK_") {
            if let number = destinations[column.name], let destination = entities[number] {
                let relationship = RelationshipDescription()
                relationship.name = String(column.name.dropFirst()).lowercased()
                relationship.destinationEntity = destination
                relationship.maxCount = 1
                relationship.isOptional = true
                properties.append(relationship)
                continue
            }
            if companions.contains(column.name) { continue }
            let attribute = AttributeDescription()
            attribute.name = String(column.name.dropFirst()).lowercased()
            attribute.attributeType = switch column.type {
            case "INTEGER": .integer64AttributeType
            case "FLOAT", "REAL", "DOUBLE": .doubleAttributeType
            case "TIMESTAMP": .dateAttributeType
            case "DECIMAL": .decimalAttributeType
            case "BLOB": .binaryDataAttributeType
            default: .stringAttributeType
            }
            attribute.isOptional = true
            attribute.isIndexed = indexes.contains("\(table)_\(column.name)_INDEX")
            properties.append(attribute)
        }
        root.properties += properties
    }

    /// `Z_<n><NAME>` with columns `Z_<a><X>` and `Z_<b><Y>`.
    private static func addManyToMany(_ table: String, entities: [Int: EntityDescription], connection: Connection) throws {
        let columns = try connection.columns(ofTable: table).map(\.name)
        func split(_ column: String) -> (number: Int, name: String)? {
            guard column.hasPrefix("Z_") else { return nil }
            let rest = column.dropFirst(2)
            let digits = rest.prefix { $0.isNumber }
            guard let number = Int(digits), !rest.dropFirst(digits.count).isEmpty else { return nil }
            return (number, String(rest.dropFirst(digits.count)).lowercased())
        }
        guard columns.count == 2, let first = split(columns[0]), let second = split(columns[1]),
              let a = entities[first.number], let b = entities[second.number] else { return }
        // Column Z_<a><X> holds a's keys for relationship X, which b declares.
        // On one entity, the schema compiler names the table after the greater
        // of the two names; when the store's table (Z_<n><NAME>) is named after
        // the lesser, the other name's letters after the first are written in
        // upper case, which sorts it below and leaves its SQL name as it is.
        let fromB = RelationshipDescription()
        fromB.name = first.name
        fromB.destinationEntity = a
        fromB.maxCount = 0
        fromB.isOptional = true
        let fromA = RelationshipDescription()
        fromA.name = second.name
        fromA.destinationEntity = b
        fromA.maxCount = 0
        fromA.isOptional = true
        if first.number == second.number {
            let tableName = String(table.dropFirst(2).drop { $0.isNumber }).lowercased()
            let naming = tableName == first.name ? fromB : fromA
            let other = naming === fromB ? fromA : fromB
            if naming.name < other.name, let head = other.name.first {
                other.name = String(head) + other.name.dropFirst().uppercased()
            }
        }
        fromB.inverseRelationship = fromA
        fromA.inverseRelationship = fromB
        b.properties.append(fromB)
        a.properties.append(fromA)
    }
}
