import Foundation
import FaultlineModel

// The schema compiler: a checked model compiled to SQLite in Core Data's own
// store layout (../shared/COREDATA-STORE.md), with derived attributes kept right
// by triggers inside the database.
//
// Layout, in brief:
//  - one table per inheritance root, `Z<ROOT>`, starting `Z_PK, Z_ENT, Z_OPT`;
//    sub-entities share it and are told apart by `Z_ENT`;
//  - one column per stored leaf attribute, `Z<NAME>` (composite leaves
//    `Z<COMPOSITE>_<ELEMENT>`), numbered `ZNAME1, ZNAME2…` when names collide
//    in a hierarchy;
//  - to-one: `Z<REL>` holding the destination's `Z_PK` (plus `Z<n>_<REL>` with
//    its `Z_ENT` when the destination has sub-entities), indexed;
//  - to-many with a to-one inverse: nothing of its own (the inverse's key);
//    without an inverse: a hidden key `Z<n><REL>` in the destination's table;
//    many-to-many: a join table `Z_<n><REL>`; ordered: a `Z_FOK_…` column;
//  - `Z_PRIMARYKEY`, `Z_METADATA` bookkeeping.
//
// Invariants:
// 1. Every identifier the compiler writes is built from validated model names
//    (ASCII letters, digits, underscore) upper-cased behind a `Z`, so it can
//    never be an SQL keyword and is written unquoted, as Core Data writes it.
// 2. Nothing depends on column order: mappings name columns, never positions.
// 3. Derived attributes are maintained only by the triggers generated here, so
//    every write path (objects, batch requests, raw SQL) keeps them right.
// 4. Compilation is a pure function of the checked model: same model, same SQL.

/// A SQLite column type as Core Data declares it.
public enum DeclaredType: String, Sendable, Hashable {
    case integer = "INTEGER"
    case float = "FLOAT"
    case decimal = "DECIMAL"
    case timestamp = "TIMESTAMP"
    case varchar = "VARCHAR"
    case blob = "BLOB"

    /// Core Data groups columns by type in this order (foreign keys come right
    /// after the integer attributes).
    var groupOrder: Int {
        switch self {
        case .integer: 0
        case .float: 2
        case .timestamp: 3
        case .decimal: 4
        case .varchar: 5
        case .blob: 6
        }
    }
}

/// One column of a store table.
public struct StoreColumn: Sendable, Hashable {
    public let name: String
    public let declaredType: DeclaredType
}

/// A table: an entity hierarchy's or a many-to-many join table.
public struct StoreTable: Sendable, Hashable {
    public let name: String
    public let columns: [StoreColumn]
    /// The composite primary key of a join table; entity tables use `Z_PK`.
    public let compositePrimaryKey: [String]?

    /// `CREATE TABLE …`, spaced as Core Data writes it.
    public var createStatement: String {
        var parts = columns.map { column -> String in
            column.name == "Z_PK" && compositePrimaryKey == nil
                ? "Z_PK INTEGER PRIMARY KEY" : "\(column.name) \(column.declaredType.rawValue)"
        }
        if let key = compositePrimaryKey { parts.append("PRIMARY KEY (\(key.joined(separator: ", ")))") }
        return "CREATE TABLE \(name) ( \(parts.joined(separator: ", ")) )"
    }
}

/// An index on a store table.
public struct StoreIndex: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `<TABLE>_<COLUMN>_INDEX`: a to-one key, an indexed attribute, a
        /// canonical column, `Z_ENT` of a shared table, a join table's reverse.
        case column
        /// `Z_<Entity>_<name>`: a fetch index.
        case fetchIndex
        /// `<TABLE>_<COLUMN>_<COLUMN>…`: a compound index.
        case compoundIndex
        /// `Z_<Entity>_UNIQUE_<attributes>`: a uniqueness constraint.
        case uniqueness
    }

    public let name: String
    public let table: String
    /// Column terms, e.g. `ZNAME` or `ZNAME COLLATE BINARY ASC`.
    public let terms: [String]
    public let kind: Kind
    /// Restricts a sub-entity's index to its own rows (`Z_ENT IN (…)`).
    public let whereClause: String?

    public var isUnique: Bool { kind == .uniqueness }

    public var createStatement: String {
        var sql = "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(Self.sqlName(name)) ON \(table) (\(terms.joined(separator: ", ")))"
        if let whereClause { sql += " WHERE \(whereClause)" }
        return sql
    }

    /// The name as SQL: quoted when it is not a plain identifier — a
    /// constraint on a composite's element names it `login.email`, and a
    /// model file's fetch index may be named anything.
    static func sqlName(_ name: String) -> String {
        let plain = name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
            && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return plain ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A trigger maintaining a derived attribute.
public struct StoreTrigger: Sendable, Hashable {
    /// What every derived-attribute trigger's name begins with (Core Data's
    /// own derivation triggers share it).
    public static let namePrefix = "Z_DA_"

    public let name: String
    /// The full `CREATE TRIGGER … END` statement.
    public let createStatement: String
    /// The table it is on and the event it fires on (`INSERT`, `UPDATE OF x`,
    /// `DELETE`); empty for a trigger made from another store's text.
    public let table: String
    public let event: String
    /// For an INSERT trigger: how Faultline's writer does its work for many
    /// rows at once with the table's triggers off (InsertedRowsUpkeep.swift);
    /// nil when it cannot.
    public let standIn: InsertStandIn?

    public var firesOnInsert: Bool { event == "INSERT" }

    public init(name: String, createStatement: String, table: String = "", event: String = "", standIn: InsertStandIn? = nil) {
        self.name = name
        self.createStatement = createStatement
        self.table = table
        self.event = event
        self.standIn = standIn
    }
}

/// A checked model compiled to its store schema.
public struct StoreSchema: Sendable {
    public let model: CheckedModel
    /// Entity tables (in root-entity order), then join tables.
    public let tables: [StoreTable]
    /// Storage of each entity, by entity index.
    public let entities: [EntityMapping]
    public let indexes: [StoreIndex]
    public let triggers: [StoreTrigger]
    /// Derived attributes computed from their own row, by entity index: what
    /// Faultline's INSERT and UPDATE statements compute themselves.
    public let rowDerivations: [[RowDerivation]]
    /// By table: what stands in for its INSERT triggers when Faultline's
    /// writer inserts many rows with triggers off; only tables whose every
    /// INSERT trigger has a stand-in.
    public let insertedRowsUpkeep: [String: InsertedRowsUpkeep]

    /// Compiles `model`. Throws for the few derivations SQLite triggers cannot
    /// express (see `SchemaError`).
    public init(compiling model: CheckedModel) throws(SchemaError) {
        let layout = TableLayout(model: model)
        self.model = model
        self.tables = layout.tables
        self.entities = layout.mappings
        self.indexes = IndexPlanner(model: model, layout: layout).indexes()
        self.triggers = try DerivedAttributeTriggers(model: model, mappings: layout.mappings).triggers()
        self.rowDerivations = model.entities.map { RowDerivation.derivations(of: $0, mapping: layout.mappings[$0.index]) }
        self.insertedRowsUpkeep = InsertedRowsUpkeep.byTable(triggers)
    }

    /// The mapping of the entity called `name`.
    public func entity(named name: String) -> EntityMapping? {
        model.entityIndexByName[name].map { entities[$0] }
    }

    /// The bookkeeping tables every store has.
    public static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    ]

    /// Every statement that creates the schema: tables, indexes, triggers, then
    /// the bookkeeping tables.
    public var creationStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement) + triggers.map(\.createStatement)
            + StoreSchema.bookkeepingStatements
    }
}

/// A derivation the store cannot maintain.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    public let entity: String
    public let attribute: String
    public let reason: String

    public var description: String { "\(entity).\(attribute): \(reason)" }
}

extension SchemaError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
