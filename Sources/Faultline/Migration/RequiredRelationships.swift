import FaultlineSQLite

/// Required to-one relationships a migration would leave empty, and to-many
/// ones whose members the new model's `minCount` or `maxCount` no longer
/// allows. Core Data refuses such a migration when it validates the migrated
/// objects (error 134110, a mandatory destination value missing, or a
/// relationship with too few or too many members): a model version that adds
/// a required to-one, or makes one required, needs every existing row to get
/// a destination — a custom stage's `didMigrate` can give them one.
enum RequiredRelationships {
    /// Throws `MigrationError.missingRelationship` for the first required
    /// to-one of `model` that a row of the migrated store (laid out by
    /// `schema`) leaves empty, `relationshipCountOutOfRange` for the first
    /// to-many whose members rows hold too few or too many of (an optional
    /// one may be empty, as at save).
    static func check(_ model: CheckedModel, schema: StoreSchema, on connection: Connection) throws {
        for entity in model.entities where !entity.isAbstract {
            let mapping = schema.entities[entity.index]
            for relationship in entity.relationships where relationship.isRequiredToOne {
                guard case .foreignKey(let column, _) = mapping.relationships[relationship.index] else { continue }
                let count = try MigrationStatements.nullCount(
                    in: mapping.table, entityNumber: mapping.sharesTable ? entity.number : nil, column: column, on: connection)
                if count > 0 {
                    throw MigrationError.missingRelationship(entity: entity.name, relationship: relationship.name, emptyRows: count)
                }
            }
            for relationship in entity.relationships where relationship.hasCountBounds {
                let count = try rowsOutside(
                    relationship, members: mapping.relationships[relationship.index], in: mapping.table,
                    entityNumber: mapping.sharesTable ? entity.number : nil, on: connection) ?? 0
                if count > 0 {
                    throw MigrationError.relationshipCountOutOfRange(
                        entity: entity.name, relationship: relationship.name, minCount: relationship.minCount,
                        maxCount: relationship.maxCount, rows: count)
                }
            }
        }
    }

    /// The rows of the old store (written by `mapping.old`) that would have
    /// no destination for each required to-one of the new model: all of an
    /// entity's rows for a new relationship, those whose key is NULL for one
    /// that was a to-one already. A to-many becoming a required to-one is
    /// left to the migration's own check.
    static func preflight(_ mapping: MigrationMapping, on connection: Connection) throws -> [MigrationPreflight.EmptyRelationships] {
        var found: [MigrationPreflight.EmptyRelationships] = []
        for (entity, oldMapping, entityNumber) in oldRows(mapping) {
            for relationship in entity.relationships where relationship.isRequiredToOne {
                let column: String?
                if let previous = mapping.oldRelationship(relationship, of: entity) {
                    guard oldMapping.relationships.indices.contains(previous.index),
                          case .foreignKey(let key, _) = oldMapping.relationships[previous.index] else { continue }
                    column = key
                } else {
                    column = nil
                }
                let count = try MigrationStatements.nullCount(
                    in: oldMapping.table, entityNumber: entityNumber, column: column, on: connection)
                if count > 0 { found.append(.init(entity: entity.name, relationship: relationship.name, rows: count)) }
            }
        }
        return found
    }

    /// The rows of the old store (written by `mapping.old`) whose members
    /// each to-many of the new model with a `minCount` or `maxCount` would
    /// count outside them: counted in the old storage for a to-many that was
    /// one already; for a new one, every row of the entity when it is
    /// required with a minimum (an optional one may be empty). A to-one
    /// becoming a to-many is left to the migration's own check.
    static func countPreflight(_ mapping: MigrationMapping, on connection: Connection) throws -> [MigrationPreflight.CountViolations] {
        var found: [MigrationPreflight.CountViolations] = []
        for (entity, oldMapping, entityNumber) in oldRows(mapping) {
            for relationship in entity.relationships where relationship.hasCountBounds {
                let count: Int
                if let previous = mapping.oldRelationship(relationship, of: entity) {
                    guard previous.isToMany, oldMapping.relationships.indices.contains(previous.index),
                          let outside = try rowsOutside(
                            relationship, members: oldMapping.relationships[previous.index], in: oldMapping.table,
                            entityNumber: entityNumber, on: connection)
                    else { continue }
                    count = outside
                } else if !relationship.isOptional, relationship.minCount > 0 {
                    count = try MigrationStatements.nullCount(
                        in: oldMapping.table, entityNumber: entityNumber, column: nil, on: connection)
                } else {
                    continue
                }
                if count > 0 {
                    found.append(.init(entity: entity.name, relationship: relationship.name, minCount: relationship.minCount,
                                       maxCount: relationship.maxCount, rows: count))
                }
            }
        }
        return found
    }

    /// The rows of `table` whose members in `members` (a to-many's storage,
    /// old or new) fall outside `relationship`'s bounds, by the save's rule:
    /// an optional to-many may be empty. Nil for storage no to-many has.
    private static func rowsOutside(
        _ relationship: CheckedRelationship, members: RelationshipStorage, in table: String, entityNumber: Int?,
        on connection: Connection
    ) throws -> Int? {
        try MigrationStatements.rowsOutsideCount(
            in: table, entityNumber: entityNumber, members: members, minimum: relationship.minCount,
            maximum: relationship.maxCount > 0 ? relationship.maxCount : Int(Int64.max),
            emptyAllowed: relationship.isOptional, on: connection)
    }

    /// How many members a to-many's bounds allow, as the errors and the
    /// preflight word it ("at least 2", "1 to 3"; a `maxCount` of 0 has no maximum).
    static func allowedCount(minCount: Int, maxCount: Int) -> String {
        maxCount > 0 ? "\(minCount) to \(maxCount)" : "at least \(minCount)"
    }

    /// Each concrete entity of the new model whose rows the old store holds,
    /// with the old store's layout of them and, in a table several entities
    /// share, the entity number those rows carry.
    private static func oldRows(_ mapping: MigrationMapping) -> [(CheckedEntity, EntityMapping, Int?)] {
        mapping.new.model.entities.compactMap { entity in
            guard !entity.isAbstract, let oldIndex = mapping.sourceEntity[entity.index] else { return nil }
            let layout = mapping.oldSchema.entities[oldIndex]
            return (entity, layout, layout.sharesTable ? mapping.old.model.entities[oldIndex].number : nil)
        }
    }
}

extension CheckedRelationship {
    /// A stored to-one that must not be nil.
    var isRequiredToOne: Bool { !isToMany && !isOptional && !isTransient }

    /// A stored to-many with a minimum or maximum count of members.
    var hasCountBounds: Bool { isToMany && !isTransient && (minCount > 0 || maxCount > 0) }
}
