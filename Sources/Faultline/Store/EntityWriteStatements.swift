/// The statements a save sends for one concrete entity, built when the
/// coordinator opens, so the save path hands the store indexes and values and
/// never SQL.
///
/// Invariants:
/// 1. Every text here is built once: the fixed ones at open, an update's on
///    the first save that changes that set of columns (then cached by the
///    shape, so a row never builds SQL).
/// 2. An update sets only the changed columns, never all of them: SQLite
///    fires `UPDATE OF` triggers (derived attributes) for every column named
///    in `SET`, changed or not, and a fault changed only through an inverse
///    has no values to rebind.
/// 3. A join-table row is written by whichever side recorded it with the
///    columns in one order (the lesser column name first), so both sides'
///    statements are the same text and agree on which object is "first".
struct EntityWriteStatements: Sendable {
    /// How a change of one relationship's members is stored besides the objects' own rows.
    enum Membership: Sendable {
        /// A to-one, or a to-many kept by its inverse's key: the rows say it.
        case inRows
        /// A many-to-many row. `table` names the join table among the store's
        /// tables (both sides agree on it); `sourceFirst` says whether this
        /// entity's object goes in the first column.
        case joinRow(table: Int, sourceFirst: Bool, insert: String, delete: String)
        /// A to-many without inverse: the member's hidden key column,
        /// `UPDATE T SET Z<n><REL> = ? WHERE Z_PK = ?`.
        case hiddenKey(update: String)
    }

    /// How an ordered to-many stores its members' positions.
    enum Ordering: Sendable {
        case unordered
        /// `UPDATE T SET order = ? WHERE Z_PK = ?` on the member's row.
        case memberRow(String)
        /// `UPDATE J SET order = ? WHERE source = ? AND destination = ?`.
        case joinRow(String)
    }

    /// One uniqueness constraint as the store checks it.
    struct Uniqueness: Sendable {
        /// A stored property of the constraint: its value is bound in this order.
        enum Property: Sendable {
            case attribute(Int)
            case toOne(Int)
        }
        let properties: [Property]
        /// `SELECT Z_ENT, Z_PK FROM T WHERE c1 = ? AND … [AND Z_ENT IN (…)]`.
        let select: String
        /// The same number for every constraint on the same columns of the same
        /// table (a sub-entity's inherited one included): a save's own objects
        /// conflict when they agree on it and on the values.
        let signature: Int
        /// Property names, for error messages.
        let names: [String]
    }

    let membership: [Membership]
    let ordering: [Ordering]
    let uniqueness: [Uniqueness]
    /// `DELETE FROM T WHERE Z_PK = ? AND Z_OPT = ?`.
    let delete: String
    /// `SELECT Z_OPT FROM T WHERE Z_PK = ?`, to tell a lost version from a vanished row.
    let version: String
    /// `DELETE FROM J WHERE source = ?` for each join table of the entity.
    let joinRowDeletes: [String]
    /// `SELECT 1 FROM D WHERE key = ? LIMIT 1` for each to-many kept as a key
    /// in its destination's rows whose delete rule nullifies or cascades: run
    /// after a delete, a row found is one the save's delete rules did not
    /// reach (another context added it since), so the delete is a conflict.
    let remainingReferences: [String]

    init(entity: CheckedEntity, mapping: EntityMapping, schema: StoreSchema, signatures: inout [String: Int]) {
        let table = mapping.table
        var membership: [Membership] = []
        var ordering: [Ordering] = []
        var joinRowDeletes: [String] = []
        var remainingReferences: [String] = []
        for relationship in entity.relationships {
            switch mapping.relationships[relationship.index] {
            case let .joinTable(joinTable, sourceColumn, destinationColumn, order):
                let sourceFirst = sourceColumn < destinationColumn
                let (first, second) = sourceFirst ? (sourceColumn, destinationColumn) : (destinationColumn, sourceColumn)
                membership.append(.joinRow(
                    table: schema.tables.firstIndex { $0.name == joinTable } ?? -1, sourceFirst: sourceFirst,
                    insert: "INSERT OR IGNORE INTO \(joinTable) (\(first), \(second)) VALUES (?, ?)",
                    delete: "DELETE FROM \(joinTable) WHERE \(first) = ? AND \(second) = ?"))
                ordering.append(order.map {
                    .joinRow("UPDATE \(joinTable) SET \($0) = ? WHERE \(sourceColumn) = ? AND \(destinationColumn) = ?")
                } ?? .unordered)
                joinRowDeletes.append("DELETE FROM \(joinTable) WHERE \(sourceColumn) = ?")
                // Its own inverse: the rows naming the object as a member go too.
                if schema.model.isOwnInverse(relationship) {
                    joinRowDeletes.append("DELETE FROM \(joinTable) WHERE \(destinationColumn) = ?")
                }
            case let .destinationKey(destinationTable, column, order, isHidden):
                if relationship.deleteRule == .nullifyDeleteRule || relationship.deleteRule == .cascadeDeleteRule {
                    remainingReferences.append("SELECT 1 FROM \(destinationTable) WHERE \(column) = ? LIMIT 1")
                }
                membership.append(isHidden ? .hiddenKey(update: "UPDATE OR FAIL \(destinationTable) SET \(column) = ? WHERE Z_PK = ?") : .inRows)
                ordering.append(order.map { .memberRow("UPDATE OR FAIL \(destinationTable) SET \($0) = ? WHERE Z_PK = ?") } ?? .unordered)
            case .foreignKey, .transient:
                membership.append(.inRows)
                ordering.append(.unordered)
            }
        }
        self.membership = membership
        self.ordering = ordering
        self.joinRowDeletes = joinRowDeletes
        self.remainingReferences = remainingReferences

        var uniqueness: [Uniqueness] = []
        for constraint in entity.uniquenessConstraints {
            var properties: [Uniqueness.Property] = []
            var columns: [String] = []
            var names: [String] = []
            for property in constraint {
                switch property {
                case .attribute(let index):
                    guard let column = mapping.column(forAttributeAt: index) else { continue }
                    properties.append(.attribute(index))
                    columns.append(column)
                    names.append(entity.attributes[index].name)
                case .relationship(let index):
                    guard case .foreignKey(let column, _) = mapping.relationships[index] else { continue }
                    properties.append(.toOne(index))
                    columns.append(column)
                    names.append(entity.relationships[index].name)
                case .composite:
                    continue
                }
            }
            var select = "SELECT Z_ENT, Z_PK FROM \(table) WHERE " + columns.map { "\($0) = ?" }.joined(separator: " AND ")
            // The rows of the entity that declares the constraint, as its unique
            // index covers: an inherited one holds across sibling entities.
            let declaring = Self.declaringEntity(of: constraint, in: entity, model: schema.model)
            if let filter = schema.entities[declaring.index].entityFilter(alias: nil) { select += " AND \(filter)" }
            let key = table + "(" + columns.joined(separator: ",") + ")"
            let signature = signatures[key] ?? signatures.count
            signatures[key] = signature
            uniqueness.append(Uniqueness(properties: properties, select: select, signature: signature, names: names))
        }
        self.uniqueness = uniqueness
        delete = "DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?"
        version = "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?"
    }

    /// The topmost ancestor of `entity` that has `constraint` (`entity` itself
    /// when no parent has it): the entity that declares it.
    private static func declaringEntity(
        of constraint: [PropertyReference], in entity: CheckedEntity, model: CheckedModel
    ) -> CheckedEntity {
        var declaring = entity
        while let parent = declaring.superentityIndex.map({ model.entities[$0] }), parent.uniquenessConstraints.contains(constraint) {
            declaring = parent
        }
        return declaring
    }
}

/// Which columns an update sets: its attributes' and to-ones' indexes as bits.
/// Two words without allocating for entities of up to 64 of each.
struct UpdateShape: Hashable, Sendable {
    private var attributes: UInt64 = 0
    private var toOnes: UInt64 = 0
    /// Indexes past 63, rare enough for an array.
    private var overflow: [Int] = []

    init(attributes: some Sequence<Int>, toOnes: some Sequence<Int>) {
        for index in attributes {
            if index < 64 { self.attributes |= 1 << UInt64(index) } else { overflow.append(index) }
        }
        for index in toOnes {
            if index < 64 { self.toOnes |= 1 << UInt64(index) } else { overflow.append(-1 - index) }
        }
    }
}

/// The update statements of one entity, by shape, made on first use (invariant 1).
final class UpdateStatements: Sendable {
    private let texts = Locked<[UpdateShape: String]>([:])
    /// The update of the version alone, made up front: the commonest shape
    /// (an object whose only change is a to-many, such as the destination of
    /// each new member's to-one) then costs no hash and no lock.
    private let versionOnly: String

    init(table: String) {
        versionOnly = Self.text(table: table, assignments: [])
    }

    private static func text(table: String, assignments: [String]) -> String {
        "UPDATE OR FAIL \(table) SET \((assignments + ["Z_OPT = ?"]).joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// `UPDATE T SET a = ?, …, k = ?, [k_ent = ?,] Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`
    /// for `attributes` then `toOnes`, each ascending (the order values are
    /// bound in). Called per updated row: a known shape costs its bits and one
    /// lookup, no array and no text.
    func text(
        attributes: some Collection<Int>, toOnes: some Collection<Int>, mapping: EntityMapping,
        derivations: [RowDerivation]
    ) -> String {
        if attributes.isEmpty, toOnes.isEmpty { return versionOnly }
        let shape = UpdateShape(attributes: attributes, toOnes: toOnes)
        if let known = texts.withLock({ $0[shape] }) { return known }
        var assignments: [String] = []
        var parameterOfAttribute: [Int: Int] = [:]
        for index in attributes {
            guard let column = mapping.column(forAttributeAt: index) else { continue }
            assignments.append("\(column) = ?")
            parameterOfAttribute[index] = assignments.count
        }
        for index in toOnes {
            guard case .foreignKey(let column, let entityColumn) = mapping.relationships[index] else { continue }
            assignments.append("\(column) = ?")
            if let entityColumn { assignments.append("\(entityColumn) = ?") }
        }
        // A numbered parameter no higher than those before it leaves the
        // numbering of the later `?`s as it was.
        for derivation in derivations {
            guard let parameter = parameterOfAttribute[derivation.sourceAttributeIndex] else { continue }
            assignments.append("\(derivation.column) = \(derivation.value(of: "?\(parameter)"))")
        }
        let text = Self.text(table: mapping.table, assignments: assignments)
        texts.withLock { $0[shape] = text }
        return text
    }

    /// How many texts have been built: one per shape ever saved, the
    /// version-only one aside.
    var count: Int { texts.withLock { $0.count } }
}

extension EntityWriteStatements {
    /// The keys of `table`'s rows whose `column` is not NULL.
    static func keys(withValueIn column: String, of table: String) -> String {
        "SELECT Z_PK FROM \(table) WHERE \(column) IS NOT NULL ORDER BY Z_PK"
    }

    /// Sets `column` of the row by key: `?1` the value, `?2` the key.
    static func setColumn(_ column: String, ofRowIn table: String) -> String {
        "UPDATE \(table) SET \(column) = ?1 WHERE Z_PK = ?2"
    }
}
