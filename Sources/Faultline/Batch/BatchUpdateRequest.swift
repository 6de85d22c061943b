import Foundation
import FaultlineSQLite

/// Updates every row of an entity matching a predicate, straight in the store:
/// Core Data's `NSBatchUpdateRequest`, with expressions over the row's own
/// columns and to-one relationships.
///
/// ```swift
/// var request = BatchUpdateRequest(entityName: "Article")
/// request.predicate = try FetchPredicate(format: "views >= %@", 100)
/// request.propertiesToUpdate = ["views": .expression("views + 1"), "flagged": .value(.bool(true))]
/// request.resultType = .objectIDs
/// let result = try container.coordinator.execute(request)
/// ```
/// Emits one statement:
/// `UPDATE ZARTICLE SET ZFLAGGED = ?, ZVIEWS = (ZVIEWS + ?), Z_OPT = Z_OPT + 1
///  WHERE Z_PK IN (SELECT t0.Z_PK FROM ZARTICLE t0 WHERE (t0.ZVIEWS >= ?)) RETURNING Z_PK, Z_ENT`.
public struct BatchUpdateRequest: Sendable {
    /// A new value for one property.
    public enum Value: Sendable, Equatable {
        /// A constant, converted exactly to the attribute's type.
        case value(AttributeValue)
        /// Arithmetic over the row's numeric attributes: `views * 2 + 1`.
        case expression(String)
        /// A to-one's new destination (nil clears it).
        case object(ManagedObjectID?)
    }

    public var entityName: String
    /// Rows to update; nil updates every row of the entity.
    public var predicate: FetchPredicate?
    public var propertiesToUpdate: [String: Value]
    /// Whether rows of sub-entities are updated too (Core Data's default: yes).
    public var includesSubentities = true
    public var resultType: BatchResultType = .statusOnly

    public init(entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: Value] = [:]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}

extension BatchExecutor {
    func update(_ request: BatchUpdateRequest) throws -> BatchResult {
        let model = store.model, schema = store.schema
        guard let entity = model.entity(named: request.entityName) else {
            throw BatchError.unknownEntity(request.entityName)
        }
        let mapping = schema.entities[entity.index]
        var assignments: [String] = []
        var bindings: [SQLValue] = []
        for key in request.propertiesToUpdate.keys.sorted() {
            guard let value = request.propertiesToUpdate[key] else { continue }
            let (sql, values) = try assignment(key, value, entity: entity, mapping: mapping)
            assignments.append(contentsOf: sql)
            bindings += values
        }
        let rows = try BatchStatements.keys(
            of: entity.index, matching: request.predicate, includesSubentities: request.includesSubentities,
            store: store)
        let sql = BatchStatements.update(mapping.table, assignments: assignments, rows: rows.sql)
        let storeIdentifier = store.identifier
        let cleared = Set(request.propertiesToUpdate.keys.compactMap { key in
            entity.attribute(named: key).flatMap { store.writesThroughValueAdapter($0, of: entity) ? $0.index : nil }
        })
        do {
            return try run(resultType: request.resultType) { connection in
                var outcome = BatchOutcome(changes: BatchChanges(storeIdentifier: storeIdentifier))
                if !cleared.isEmpty {
                    outcome.releasedFiles = try releasedFiles(of: cleared, entity: entity, request: request, on: connection)
                }
                let relinked = try relinkedDestinations(request, entity: entity, mapping: mapping, rows: rows, on: connection)
                for pair in try connection.keyPairs(sql, bindings + rows.bindings, entityCount: model.entities.count) {
                    outcome.changes.updatedObjectIDs.append(
                        ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: pair.entityIndex, primaryKey: pair.key))
                    outcome.touchedEntities.insert(pair.entityIndex)
                }
                outcome.count = outcome.changes.updatedObjectIDs.count
                outcome.counters.rowsUpdated = outcome.count
                outcome.objectIDs = outcome.changes.updatedObjectIDs
                let updated = outcome.changes.updatedObjectIDs
                outcome.historyTransaction = try store.recordHistory(on: connection) { history in
                    HistoryCommit(author: author, contextName: contextName, updated: updated.map { id in
                        (id, history.layouts[id.entityIndex].slots(named: request.propertiesToUpdate.keys, in: model.entities[id.entityIndex]))
                    })
                }
                // Merged as updated, so their to-manys are read again; not counted.
                let listed = Set(updated)
                outcome.changes.updatedObjectIDs += relinked.filter { !listed.contains($0) }
                return outcome
            }
        } catch let error as SQLiteError where error.code == .constraint && error.message.hasPrefix("UNIQUE") {
            throw BatchError.updateViolatesUniqueness(entity: entity.name, constraint: uniqueness(named: error.message, in: entity, mapping))
        }
    }

    /// The attributes of the unique index SQLite names (`… failed: ZAUTHOR.ZKEY`).
    private func uniqueness(named message: String, in entity: CheckedEntity, _ mapping: EntityMapping) -> [String] {
        BatchInsertPlan.uniqueColumns(in: message).map { column in
            entity.attributes.first { mapping.column(forAttributeAt: $0.index) == column }?.name ?? column
        }
    }

    /// For each to-one the request sets: the new destination must be a row
    /// of the store (the ID of a deleted object would leave a dangling key);
    /// where the inverse is a to-many, the destinations before and after,
    /// whose members change — a merge refreshes them as updated objects.
    private func relinkedDestinations(
        _ request: BatchUpdateRequest, entity: CheckedEntity, mapping: EntityMapping,
        rows: (sql: String, bindings: [SQLValue]), on connection: Connection
    ) throws -> [ManagedObjectID] {
        var destinations: [ManagedObjectID] = []
        for key in request.propertiesToUpdate.keys.sorted() {
            guard let relationship = entity.relationship(named: key), !relationship.isToMany,
                  case .foreignKey(let column, _) = mapping.relationships[relationship.index] else { continue }
            let destinationTable = store.schema.entities[relationship.destinationEntityIndex].table
            if case .object(let id?) = request.propertiesToUpdate[key] {
                let found = try connection.keyPairs(
                    BatchStatements.row(in: destinationTable), [.integer(id.primaryKey)], entityCount: store.model.entities.count)
                guard found.contains(where: { $0.entityIndex == id.entityIndex }) else {
                    throw BatchError.foreignObjectID(row: -1, key: key, id: id.description)
                }
                if relationship.inverseIsToMany == true { destinations.append(id) }
            }
            guard relationship.inverseIsToMany == true else { continue }
            let sql = BatchStatements.destinations(through: column, of: mapping.table, rows: rows.sql, destinationTable: destinationTable)
            for pair in try connection.keyPairs(sql, rows.bindings, entityCount: store.model.entities.count) {
                destinations.append(ManagedObjectID(storeIdentifier: store.identifier, entityIndex: pair.entityIndex, primaryKey: pair.key))
            }
        }
        return destinations
    }

    /// The external files the attributes `cleared` of the rows the request
    /// matches own, read before the update clears them.
    private func releasedFiles(
        of cleared: Set<Int>, entity: CheckedEntity, request: BatchUpdateRequest, on connection: Connection
    ) throws -> [URL] {
        let pairs = try BatchStatements.keys(
            of: entity.index, matching: request.predicate, includesSubentities: request.includesSubentities,
            store: store, columns: "t0.Z_PK, t0.Z_ENT")
        let ids = try connection.keyPairs(pairs.sql, pairs.bindings, entityCount: store.model.entities.count).map {
            ManagedObjectID(storeIdentifier: store.identifier, entityIndex: $0.entityIndex, primaryKey: $0.key)
        }
        return try store.files(ownedBy: ids, attributes: cleared, on: connection)
    }

    /// `COLUMN = ?` (or an expression) for one property, with its bindings.
    private func assignment(
        _ key: String, _ value: BatchUpdateRequest.Value, entity: CheckedEntity, mapping: EntityMapping
    ) throws -> ([String], [SQLValue]) {
        if let attribute = entity.attribute(named: key) {
            // An attribute kept through the value adapter (external binary data)
            // may only be cleared: its files go once the update commits.
            guard let column = mapping.column(forAttributeAt: attribute.index), !attribute.isDerived,
                  attribute.attributeType != .compositeAttributeType,
                  !store.writesThroughValueAdapter(attribute, of: entity) || value == .value(.null) else {
                throw BatchError.readOnlyProperty(entity: entity.name, key: key)
            }
            switch value {
            case .value(let constant):
                guard let converted = constant.coerced(to: attribute.attributeType) else {
                    throw BatchError.wrongType(row: -1, key: key, expected: attribute.attributeType, got: "\(constant)")
                }
                // A column kept in Core Data's external-storage form gets marker 1 and the bytes.
                let marked = store.markedAttributes.contains(entityIndex: entity.index, attributeIndex: attribute.index)
                return (["\(column) = ?"], [(marked ? BatchInsertRow.marked(converted) : converted).sqlValue])
            case .expression(let text):
                guard attribute.attributeType.isNumeric else {
                    throw BatchError.invalidExpression(text, reason: "'\(key)' is not numeric")
                }
                let (sql, values) = try BatchUpdateExpression.compile(text, entity: entity, mapping: mapping)
                return (["\(column) = \(sql)"], values)
            case .object:
                throw BatchError.wrongType(row: -1, key: key, expected: attribute.attributeType, got: "an object ID")
            }
        }
        guard let relationship = entity.relationship(named: key) else {
            throw BatchError.unknownProperty(entity: entity.name, key: key)
        }
        guard case .foreignKey(let column, let entityColumn) = mapping.relationships[relationship.index] else {
            throw BatchError.readOnlyProperty(entity: entity.name, key: key)
        }
        let destination: ManagedObjectID?
        switch value {
        case .object(let id): destination = id
        case .value(.null): destination = nil
        default: throw BatchError.wrongType(row: -1, key: key, expected: .objectIDAttributeType, got: "a value")
        }
        if let destination {
            guard destination.storeIdentifier == store.identifier, !destination.isTemporaryID,
                  store.model.entities[relationship.destinationEntityIndex].hierarchyIndexes.contains(destination.entityIndex) else {
                throw BatchError.foreignObjectID(row: -1, key: key, id: destination.description)
            }
        }
        var sql = ["\(column) = ?"]
        var values: [SQLValue] = [destination.map { .integer($0.primaryKey) } ?? .null]
        if let entityColumn {
            sql.append("\(entityColumn) = ?")
            values.append(destination.map { .integer(Int64($0.entityNumber)) } ?? .null)
        }
        return (sql, values)
    }
}
