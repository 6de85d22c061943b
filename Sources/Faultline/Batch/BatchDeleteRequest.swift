import Foundation
import FaultlineSQLite

/// Deletes rows straight in the store, applying the model's delete rules in
/// SQL: Core Data's `NSBatchDeleteRequest`, which does not apply them.
///
/// ```swift
/// let request = BatchDeleteRequest(entityName: "Category", predicate: try FetchPredicate(format: "name BEGINSWITH %@", "Old"))
/// let result = try container.coordinator.execute(request)   // or BatchDeleteRequest(objectIDs: ids)
/// ```
/// Rules, level by level from the rows the request names:
/// - cascade: the destinations join the rows to delete (recursively, by key);
/// - deny: the request fails when a row keeps a destination that is not
///   itself being deleted;
/// - nullify: destination keys pointing at deleted rows are cleared
///   (`UPDATE … SET ZKEY = NULL, Z_OPT = Z_OPT + 1 … RETURNING Z_PK, Z_ENT`),
///   join rows are deleted;
/// - no action: nothing (join rows still go: they are the relationship).
/// Then `DELETE FROM T WHERE Z_PK IN (SELECT value FROM json_each(?))` per table.
public struct BatchDeleteRequest: Sendable {
    public var entityName: String?
    public var predicate: FetchPredicate?
    public var objectIDs: [ManagedObjectID]?
    /// Whether rows of sub-entities match too (Core Data's default: yes).
    public var includesSubentities = true
    public var resultType: BatchResultType = .statusOnly

    /// Rows of `entityName` matching `predicate` (every row when nil).
    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// Exactly these objects (IDs of rows that no longer exist are ignored).
    /// Deletes what `fetchRequest` matches: its entity (sub-entities as it says)
    /// and predicate, as Core Data's `NSBatchDeleteRequest(fetchRequest:)`.
    /// Sorting, limits and batch sizes do not apply to a delete and are ignored.
    public init(fetchRequest: FetchRequest) {
        self.init(entityName: fetchRequest.entityName, predicate: fetchRequest.predicate)
        includesSubentities = fetchRequest.includesSubentities
    }

    public init(objectIDs: [ManagedObjectID]) {
        self.objectIDs = objectIDs
    }
}

extension BatchExecutor {
    func delete(_ request: BatchDeleteRequest) throws -> BatchResult {
        let storeIdentifier = store.identifier
        return try run(resultType: request.resultType) { connection in
            var deleter = BatchDeleter(store: store, connection: connection)
            deleter.author = author
            deleter.contextName = contextName
            let named = try deleter.namedRows(request)
            try deleter.run(named)
            var outcome = BatchOutcome(changes: deleter.changes)
            outcome.count = named.count
            outcome.counters.rowsDeleted = deleter.changes.deletedObjectIDs.count
            outcome.counters.rowsUpdated = deleter.changes.updatedObjectIDs.count
            outcome.touchedEntities = deleter.touched
            outcome.releasedFiles = deleter.releasedFiles
            outcome.historyTransaction = deleter.historyTransaction
            outcome.objectIDs = named.map {
                ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: $0.entityIndex, primaryKey: $0.key)
            }
            return outcome
        }
    }
}

/// Collects the closure of rows to delete under the delete rules, then writes.
struct BatchDeleter {
    typealias Row = (key: Int64, entityIndex: Int)

    let store: StoreWriteAccess
    let connection: Connection
    /// Keys to delete per root entity (keys are unique per hierarchy).
    private var deleted: [Int: Set<Int64>] = [:]
    private var pendingDenials: [(entityIndex: Int, relationship: Int, keys: [Int64])] = []
    var changes: BatchChanges
    var touched: Set<Int> = []
    /// Files the deleted rows owned (external binary data of a Core Data store).
    var releasedFiles: [URL] = []
    /// Who deletes, for persistent history.
    var author: String?
    var contextName: String?
    /// The persistent-history transaction that recorded the delete.
    var historyTransaction: Int64?
    /// Rows whose relationships the delete rules changed, with the history
    /// slots of those relationships.
    private var nullifiedSlots: [ManagedObjectID: Set<Int>] = [:]

    init(store: StoreWriteAccess, connection: Connection) {
        self.store = store
        self.connection = connection
        changes = BatchChanges(storeIdentifier: store.identifier)
    }

    private var model: CheckedModel { store.model }

    /// The rows the request names, as stored now.
    func namedRows(_ request: BatchDeleteRequest) throws -> [Row] {
        if let ids = request.objectIDs {
            var byRoot: [Int: [Int64]] = [:]
            for id in ids {
                guard id.storeIdentifier == store.identifier, model.entities.indices.contains(id.entityIndex) else {
                    throw BatchError.foreignStore(id.description)
                }
                byRoot[model.entities[id.entityIndex].rootEntityIndex, default: []].append(id.primaryKey)
            }
            var rows: [Row] = []
            for (root, keys) in byRoot.sorted(by: { $0.key < $1.key }) {
                rows += try connection.keyPairs(
                    BatchStatements.rows(of: store.schema.entities[root].table), [jsonKeyList(keys)],
                    entityCount: model.entities.count)
            }
            return rows
        }
        guard let name = request.entityName, let entity = model.entity(named: name) else {
            throw BatchError.unknownEntity(request.entityName ?? "")
        }
        let query = try BatchStatements.keys(
            of: entity.index, matching: request.predicate, includesSubentities: request.includesSubentities,
            store: store, columns: "t0.Z_PK, t0.Z_ENT")
        return try connection.keyPairs(query.sql, query.bindings, entityCount: model.entities.count)
    }

    mutating func run(_ named: [Row]) throws {
        var level = named
        while !level.isEmpty {
            var next: [Row] = []
            var byEntity: [Int: [Int64]] = [:]
            for row in level where deleted[model.entities[row.entityIndex].rootEntityIndex, default: []].insert(row.key).inserted {
                byEntity[row.entityIndex, default: []].append(row.key)
            }
            for (entityIndex, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
                next += try applyRules(of: entityIndex, to: keys)
                touched.insert(entityIndex)
                for key in keys {
                    changes.deletedObjectIDs.append(
                        ManagedObjectID(storeIdentifier: store.identifier, entityIndex: entityIndex, primaryKey: key))
                }
            }
            level = next
        }
        for denial in pendingDenials {
            let remaining = try destinations(of: denial.entityIndex, relationship: denial.relationship, keys: denial.keys)
                .filter { !isDeleted($0) }
            if !remaining.isEmpty {
                throw BatchError.deleteDenied(entity: model.entities[denial.entityIndex].name,
                                              relationship: model.entities[denial.entityIndex].relationships[denial.relationship].name)
            }
        }
        try nullifyAndDelete()
    }

    private func isDeleted(_ row: Row) -> Bool {
        deleted[model.entities[row.entityIndex].rootEntityIndex]?.contains(row.key) ?? false
    }

    /// Queues cascades (returned) and deny checks; nullification runs later,
    /// once the whole set of deleted rows is known.
    private mutating func applyRules(of entityIndex: Int, to keys: [Int64]) throws -> [Row] {
        var cascaded: [Row] = []
        for relationship in model.entities[entityIndex].relationships where !relationship.isTransient {
            switch relationship.deleteRule {
            case .cascadeDeleteRule:
                cascaded += try destinations(of: entityIndex, relationship: relationship.index, keys: keys)
            case .denyDeleteRule:
                pendingDenials.append((entityIndex, relationship.index, keys))
            case .nullifyDeleteRule, .noActionDeleteRule:
                break
            }
        }
        return cascaded
    }

    /// The destinations of `keys`' relationship, as stored now.
    private func destinations(of entityIndex: Int, relationship index: Int, keys: [Int64]) throws -> [Row] {
        let relationship = model.entities[entityIndex].relationships[index]
        let mapping = store.schema.entities[entityIndex]
        let destinationTable = store.schema.entities[relationship.destinationEntityIndex].table
        guard let sql = BatchStatements.destinations(
            of: mapping.relationships[index], in: mapping.table, destinationTable: destinationTable) else { return [] }
        return try connection.keyPairs(sql, [jsonKeyList(keys)], entityCount: model.entities.count)
    }

    /// The join rows of the listed keys through `relationship`; for one that
    /// is its own inverse, those naming them as members too (each direction
    /// of a link is a row).
    private func deleteJoinRows(
        of relationship: CheckedRelationship, _ table: String, _ sourceColumn: String, _ destinationColumn: String, _ list: SQLValue
    ) throws {
        try connection.execute(BatchStatements.deleteJoinRows(table, sourceColumn: sourceColumn), [list])
        if model.isOwnInverse(relationship) {
            try connection.execute(BatchStatements.deleteJoinRows(table, sourceColumn: destinationColumn), [list])
        }
    }

    /// Nullify: clears keys pointing at deleted rows (bumping `Z_OPT`) and
    /// deletes join rows; every other many-to-many's join rows go too. Then
    /// deletes the rows themselves, one statement per table.
    private mutating func nullifyAndDelete() throws {
        var byEntity: [Int: [Int64]] = [:]
        for id in changes.deletedObjectIDs { byEntity[id.entityIndex, default: []].append(id.primaryKey) }
        var updated: [ManagedObjectID] = []
        for (entityIndex, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
            let list = jsonKeyList(keys)
            let entity = model.entities[entityIndex]
            let mapping = store.schema.entities[entityIndex]
            for relationship in entity.relationships where relationship.deleteRule == .nullifyDeleteRule {
                var clears: (table: String, column: String, entityColumn: String?, order: String?)?
                switch mapping.relationships[relationship.index] {
                case .destinationKey(let table, let column, let order, _):
                    var entityColumn: String?
                    if let inverse = relationship.inverseIndex,
                       case .foreignKey(_, let column)? = store.schema.entities[relationship.destinationEntityIndex]
                        .relationships.dropFirst(inverse).first {
                        entityColumn = column
                    }
                    clears = (table, column, entityColumn, order)
                case .foreignKey:
                    // One-to-one: the destination keeps a key back to us.
                    if let inverse = relationship.inverseIndex, relationship.inverseIsToMany == false,
                       case .foreignKey(let column, let entityColumn)? = store.schema
                        .entities[relationship.destinationEntityIndex].relationships.dropFirst(inverse).first {
                        clears = (store.schema.entities[relationship.destinationEntityIndex].table, column, entityColumn, nil)
                    }
                case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                    let members = try destinations(of: entityIndex, relationship: relationship.index, keys: keys)
                        .map { ManagedObjectID(storeIdentifier: store.identifier, entityIndex: $0.entityIndex, primaryKey: $0.key) }
                    noteNullified(members, inverseOf: relationship)
                    updated += members
                    try deleteJoinRows(of: relationship, table, sourceColumn, destinationColumn, list)
                case .transient:
                    break
                }
                guard let clear = clears else { continue }
                let rows = try connection.keyPairs(
                    BatchStatements.nullify(clear.table, column: clear.column, entityColumn: clear.entityColumn, orderColumn: clear.order),
                    [list], entityCount: model.entities.count)
                for row in rows where !isDeleted(row) {
                    let id = ManagedObjectID(storeIdentifier: store.identifier, entityIndex: row.entityIndex, primaryKey: row.key)
                    updated.append(id)
                    noteNullified([id], inverseOf: relationship)
                    touched.insert(row.entityIndex)
                }
            }
            // Join rows of every other many-to-many go too: they are the relationship itself.
            for relationship in entity.relationships where relationship.deleteRule != .nullifyDeleteRule {
                if case .joinTable(let table, let sourceColumn, let destinationColumn, _) = mapping.relationships[relationship.index] {
                    try deleteJoinRows(of: relationship, table, sourceColumn, destinationColumn, list)
                }
            }
        }
        // Read before the rows go; removed only once the transaction commits.
        releasedFiles = try store.files(ownedBy: changes.deletedObjectIDs, on: connection)
        changes.updatedObjectIDs = Array(Set(updated.filter { !isDeleted(($0.primaryKey, $0.entityIndex)) }))
        // Before the rows go too: a tombstone is copied from its row.
        historyTransaction = try store.recordHistory(on: connection) { _ in
            HistoryCommit(author: author, contextName: contextName,
                          updated: changes.updatedObjectIDs.map { ($0, (nullifiedSlots[$0] ?? []).sorted()) },
                          deleted: changes.deletedObjectIDs)
        }
        for (root, keys) in deleted.sorted(by: { $0.key < $1.key }) where !keys.isEmpty {
            try connection.execute(BatchStatements.deleteRows(of: store.schema.entities[root].table), [jsonKeyList(keys)])
        }
    }

    /// Records, for history, that `members`' inverse of `relationship` changed.
    private mutating func noteNullified(_ members: [ManagedObjectID], inverseOf relationship: CheckedRelationship) {
        guard store.history != nil, let inverse = relationship.inverseIndex else { return }
        for member in members {
            guard let layouts = store.history?.layouts, layouts.indices.contains(member.entityIndex),
                  layouts[member.entityIndex].relationshipSlots.indices.contains(inverse) else { continue }
            nullifiedSlots[member, default: []].insert(layouts[member.entityIndex].relationshipSlots[inverse])
        }
    }
}
