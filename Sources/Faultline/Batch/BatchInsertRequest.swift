import Foundation

// MARK: - Design note: batch requests
//
// WHAT THIS IS
// Batch requests write straight to the store, bypassing contexts: Core Data's
// NSBatchInsertRequest / NSBatchUpdateRequest / NSBatchDeleteRequest, plus
// upsert, to-one relationships and delete rules, which Core Data's lack.
// Each request runs on the coordinator's writer in ONE immediate transaction
// and is rolled back whole on the first error: nothing is half-written.
//
// INSERT: ONE STATEMENT, KEYS IN BLOCKS, NOTHING PER ROW BUT BINDS
//   INSERT INTO ZARTICLE(Z_PK, Z_ENT, Z_OPT, ZVIEWS, ZCATEGORY, ZTITLE)
//   VALUES(?1, ?2, ?3, ?4, (SELECT Z_PK FROM ZCATEGORY WHERE ZNAME = ?5), ?6)
//   [ON CONFLICT (ZTITLE) DO UPDATE SET ZVIEWS = excluded.ZVIEWS, …, Z_OPT = Z_OPT + 1
//    RETURNING Z_PK]
// - The SQL is built once per request from the entity's written columns, with
//   numbered parameters; `Z_ENT` and `Z_OPT = 1` are bound once and persist.
// - Keys come from Z_PRIMARYKEY: one block when the row count is known, growing
//   blocks (1,024 doubling to 65,536) for the handler forms; the unused tail
//   of the last block is given back, so keys stay dense.
// - The typed form (`BatchInsertRow`) resolves names to `AttributeHandle`s
//   before the loop; `set(_:at:)` checks the handle's type with a switch and
//   binds into the prepared statement. Per row: the handler, the defaults of
//   unset columns (rebound only when the previous row had set them), the key,
//   one step. No hashing, no `Any`, no SQL text.
// - Defaults are the model's; values are type-checked against the attribute
//   (exact conversions only, as `AttributeValue.coerced(to:)`); validation
//   rules run only with `validatesValues` (Core Data skips them too).
// - Uniqueness: without a policy SQLite's unique index fails the request and
//   the error names the row and the constraint. Object trump adds
//   `ON CONFLICT (target) DO UPDATE SET every column = excluded.column`
//   (Core Data's behaviour: unset columns get their defaults); the per-column
//   policy writes `col = CASE WHEN ?flag THEN excluded.col ELSE col END`, the
//   flag bound per row, so unset columns keep their stored values — still one
//   statement. Store trump is `DO NOTHING`. Every update bumps `Z_OPT`.
//   `RETURNING Z_PK` tells inserts from updates (a key is consumed only when
//   the returned key is the bound one).
// - Derived attributes and canonical columns are never written here: the
//   schema's triggers are their only maintenance path, for batch writes too.
//
// UPDATE / DELETE: set-based SQL over `Z_PK IN (SELECT t0.Z_PK FROM T t0 WHERE …)`
// with the predicate compiled to a WHERE clause (see BatchStatements.swift),
// `RETURNING Z_PK, Z_ENT` for the IDs. Delete rules run in SQL, level by level:
// deny checks, cascades (recursively, by key), nullify (clearing keys and
// join rows, bumping `Z_OPT` of the rows it changes).
//
// AFTERWARDS (BatchExecution.swift): the row cache drops the rows changed and
// the entities whose derived attributes the triggers may have rewritten; live
// contexts get a `ContextDidSave` through the coordinator's observers and merge
// it (automatically, or through `mergeChanges(fromRemoteContextSave:into:)`).

/// How a batch insert treats a row that duplicates a uniqueness constraint.
public enum BatchConflictPolicy: Sendable, Equatable {
    /// Fail the request, naming the row and the constraint (no merge policy).
    case fail
    /// Core Data's object trump: the stored row takes every column of the new
    /// row; columns the row did not set get their defaults.
    case objectTrump
    /// Beyond Core Data: the stored row takes only the columns the new row set;
    /// the others keep their stored values.
    case updateSetColumns
    /// Store trump: the stored row is kept as it is and the new row dropped.
    case keepStored

    /// The policy a context's merge policy stands for.
    public init(_ mergePolicy: MergePolicy) {
        switch mergePolicy {
        case .error: self = .fail
        case .mergeByPropertyObjectTrump, .overwrite: self = .objectTrump
        case .mergeByPropertyStoreTrump, .rollback: self = .keepStored
        }
    }
}

/// Inserts rows of one entity straight into the store.
///
/// ```swift
/// var request = try BatchInsertRequest(entityName: "Article", in: container.model)
/// let title = try request.attribute("title"), views = try request.attribute("views")
/// request.source = .rows(count: 100_000) { row, index in
///     row.set("Article \(index)", at: title)
///     row.set(Int64(index), at: views)
/// }
/// let result = try container.coordinator.execute(request)
/// ```
public struct BatchInsertRequest {
    /// Where the rows come from.
    public enum Source {
        /// Core Data's array of dictionaries, keyed by property name.
        case objects([[String: Any]])
        /// Core Data's streaming form: fill the (empty) dictionary with one row
        /// and return false, or return true to stop (that call's row is dropped).
        case dictionaryHandler((inout [String: Any]) -> Bool)
        /// The typed form, for a known number of rows: `handler(row, index)`.
        case rows(count: Int, (BatchInsertRow, Int) -> Void)
        /// The typed streaming form: set one row and return false, or return
        /// true to stop (that call's row is dropped).
        case rowHandler((BatchInsertRow) -> Bool)
    }

    public let entity: CheckedEntity
    let model: CheckedModel
    public var source: Source = .objects([])
    public var conflictPolicy: BatchConflictPolicy = .fail
    public var resultType: BatchResultType = .statusOnly
    /// Enforce validation rules (and required values) row by row; off by
    /// default, as in Core Data.
    public var validatesValues = false
    /// To-one relationships given by the destination's unique attribute:
    /// relationship index → destination attribute index.
    var lookups: [Int: Int] = [:]

    public init(entityName: String, in model: CheckedModel) throws {
        guard let entity = model.entity(named: entityName) else { throw BatchError.unknownEntity(entityName) }
        if entity.isAbstract { throw BatchError.abstractEntity(entityName) }
        self.entity = entity
        self.model = model
    }

    public init(entityName: String, in model: CheckedModel, objects: [[String: Any]]) throws {
        try self.init(entityName: entityName, in: model)
        source = .objects(objects)
    }

    public init(entityName: String, in model: CheckedModel,
                dictionaryHandler: @escaping (inout [String: Any]) -> Bool) throws {
        try self.init(entityName: entityName, in: model)
        source = .dictionaryHandler(dictionaryHandler)
    }

    /// The handle of a stored, non-derived attribute, for `BatchInsertRow.set`.
    public func attribute(_ name: String) throws -> AttributeHandle {
        guard let attribute = entity.attribute(named: name) else {
            throw BatchError.unknownProperty(entity: entity.name, key: name)
        }
        guard attribute.isStored, !attribute.isDerived, attribute.attributeType != .compositeAttributeType else {
            throw BatchError.readOnlyProperty(entity: entity.name, key: name)
        }
        return AttributeHandle(entityIndex: entity.index, attributeIndex: attribute.index, type: attribute.attributeType)
    }

    /// The handle of the attribute at `index` in `entity.attributes`.
    public func attribute(at index: Int) throws -> AttributeHandle {
        guard entity.attributes.indices.contains(index) else {
            throw BatchError.unknownProperty(entity: entity.name, key: "#\(index)")
        }
        return try attribute(entity.attributes[index].name)
    }

    /// The handle of a to-one relationship, set with object IDs — or, after
    /// `lookUp(_:by:)`, with the destination's unique key.
    public func relationship(_ name: String) throws -> RelationshipHandle {
        guard let relationship = entity.relationship(named: name), !relationship.isToMany, !relationship.isTransient else {
            throw BatchError.unknownProperty(entity: entity.name, key: name)
        }
        let keyType = lookups[relationship.index].map { model.entities[relationship.destinationEntityIndex].attributes[$0].attributeType }
        return RelationshipHandle(entityIndex: entity.index, relationshipIndex: relationship.index,
                                  destinationEntityIndex: relationship.destinationEntityIndex, keyType: keyType)
    }

    /// Makes the to-one `relationship` take the value of the destination's
    /// unique attribute `attribute` instead of an object ID (in dictionaries
    /// and through `RelationshipHandle`); the insert finds the key with
    /// `(SELECT Z_PK FROM <destination> WHERE <attribute> = ?)`. A value that
    /// matches no destination leaves the relationship nil.
    public mutating func lookUp(_ relationship: String, by attribute: String) throws {
        guard let toOne = entity.relationship(named: relationship), !toOne.isToMany else {
            throw BatchError.unknownProperty(entity: entity.name, key: relationship)
        }
        let destination = model.entities[toOne.destinationEntityIndex]
        guard let key = destination.attribute(named: attribute),
              destination.uniquenessConstraints.contains([.attribute(key.index)]) else {
            throw BatchError.notAUniqueKey(entity: destination.name, attribute: attribute)
        }
        lookups[toOne.index] = key.index
    }
}

/// An attribute of a batch insert's entity, resolved once from its name.
/// Trivial to copy: setting a value through it hashes nothing.
public struct AttributeHandle: Sendable, Hashable {
    let entityIndex: Int
    let attributeIndex: Int
    let type: AttributeType
}

/// A to-one relationship of a batch insert's entity, resolved once.
public struct RelationshipHandle: Sendable, Hashable {
    let entityIndex: Int
    let relationshipIndex: Int
    let destinationEntityIndex: Int
    /// The destination's unique attribute type when looked up by key.
    let keyType: AttributeType?
}
