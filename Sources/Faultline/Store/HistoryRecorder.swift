import Foundation
import FaultlineSQLite

// Recording commits in Core Data's persistent history.
//
// Invariants:
// 1. A commit is recorded inside its own write transaction, before any of its
//    rows are written: one `ATRANSACTION` row, then one `ACHANGE` row per
//    inserted, updated and deleted object. Rolled back with it, or committed
//    with it; never one without the other.
// 2. Statements per commit do not grow with its size: the transaction and
//    change keys take one compare-and-set each (the writer's known counters),
//    the transaction one insert, the inserts one `INSERT … SELECT` per run of
//    keys from the rows written, the updates and other deletes one statement
//    (multi-row `VALUES`, or `INSERT … SELECT` over a JSON list); deletes of
//    entities with preserved attributes add a key compare-and-set and one
//    `INSERT … SELECT` per entity table, copying the values from the rows
//    about to go; each derivation of another object the commit reaches, one
//    `SELECT` (HistoryRecorder+DerivedObjects.swift). Names are interned once
//    per writer (the cache is dropped whenever another process or
//    coordinator committed).
// 3. Transaction keys only grow, also across `deleteHistory`: they come from
//    `Z_PRIMARYKEY` (16002), never from `max(Z_PK)`, so a token saved to disk
//    never sees a later transaction with a smaller key.

/// The objects one commit changed, for its history rows.
struct HistoryCommit {
    var author: String?
    var contextName: String?
    /// Inserted rows by runs of keys in one entity's table (the entity may
    /// share it with its hierarchy): recorded from the table, with no list of keys.
    var insertedRanges: [(entityIndex: Int, keys: ClosedRange<Int64>)] = []
    /// Each updated object with the slots of its changed properties.
    var updated: [(id: ManagedObjectID, slots: [Int])] = []
    var deleted: [ManagedObjectID] = []

    var isEmpty: Bool { insertedRanges.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// A store's history recording: its tables' layout, each entity's slots and
/// tombstone columns, and the interned names.
final class HistoryRecorder: @unchecked Sendable {
    let tables: HistoryStatements.TablesLayout
    /// By entity index.
    let layouts: [HistoryEntityLayout]
    /// By entity index: the statement copying its deleted rows' tombstones;
    /// nil for an entity that preserves no attribute.
    private let tombstoneSQL: [String?]
    /// Key floors of the history tables (rows above `Z_MAX`), by entity number.
    private let keyFloors: [Int: Int64]
    /// By entity index: the statement recording inserts from its table.
    private let insertionSQL: [String]
    /// By entity index: the root of its hierarchy.
    let rootEntityIndexes: [Int]
    /// Derived attributes reading other entities' rows (HistoryRecorder+DerivedObjects.swift).
    let foreignDerivations: [ForeignDerivation]
    /// The store's identifier, for the object IDs of rows found in SQL.
    let storeIdentifier: UInt32
    /// Name → `ATRANSACTIONSTRING` key; used under the writer lock only.
    private var stringKeys: [String: Int64] = [:]
    private let bundleID = Bundle.main.bundleIdentifier
    private let processName = ProcessInfo.processInfo.processName

    private init(tables: HistoryStatements.TablesLayout, model: CheckedModel, plans: [EntityStorePlan],
                 layouts: [HistoryEntityLayout], tombstoneSQL: [String?],
                 keyFloors: [Int: Int64], storeIdentifier: UInt32) {
        self.tables = tables
        insertionSQL = plans.map { HistoryStatements.insertionsSQL(table: $0.mapping.table) }
        rootEntityIndexes = model.entities.map(\.rootEntityIndex)
        foreignDerivations = Self.foreignDerivations(in: model, plans: plans, layouts: layouts)
        self.storeIdentifier = storeIdentifier
        self.layouts = layouts
        self.tombstoneSQL = tombstoneSQL
        self.keyFloors = keyFloors
    }

    /// Each entity's history layout.
    static func layouts(of model: CheckedModel) -> [HistoryEntityLayout] {
        model.entities.map { HistoryEntityLayout(entity: $0, model: model) }
    }

    /// The history tables' layout when the tables, every tombstone column
    /// the model preserves and the key counters are all there; nil when
    /// `setUp` must write.
    static func completeTables(layouts: [HistoryEntityLayout], on connection: Connection) throws -> HistoryStatements.TablesLayout? {
        guard let existing = try HistoryStatements.layout(on: connection),
              existing.tombstoneColumns >= tombstoneColumns(neededBy: layouts),
              try HistoryStatements.hasKeyCounters(on: connection) else { return nil }
        return existing
    }

    /// Makes the store able to record history — creating Core Data's tables,
    /// adding the tombstone columns the model needs and the key counters —
    /// inside the open write transaction on `connection`.
    static func setUp(layouts: [HistoryEntityLayout], on connection: Connection) throws -> HistoryStatements.TablesLayout {
        let needed = tombstoneColumns(neededBy: layouts)
        if var existing = try HistoryStatements.layout(on: connection) {
            if existing.tombstoneColumns < needed {
                try HistoryStatements.addTombstoneColumns(from: existing.tombstoneColumns, to: needed, on: connection)
                existing.tombstoneColumns = needed
            }
            if try !HistoryStatements.hasKeyCounters(on: connection) { try HistoryStatements.ensureKeyCounters(on: connection) }
            return existing
        }
        try HistoryStatements.createTables(tombstoneColumns: needed, on: connection)
        guard let tables = try HistoryStatements.layout(on: connection) else {
            throw StoreError.notAStore("its persistent-history tables could not be created")
        }
        return tables
    }

    /// The recorder of a store whose history tables are complete (`tables`).
    static func recorder(tables: HistoryStatements.TablesLayout, model: CheckedModel, plans: [EntityStorePlan],
                         layouts: [HistoryEntityLayout], storeIdentifier: UInt32, on connection: Connection) throws -> HistoryRecorder {
        let tombstoneSQL = zip(layouts, plans).map { layout, plan -> String? in
            guard !layout.tombstoneAttributes.isEmpty else { return nil }
            return HistoryStatements.tombstonesSQL(
                table: plan.mapping.table, columns: layout.tombstoneAttributes.compactMap { plan.mapping.column(forAttributeAt: $0) })
        }
        return HistoryRecorder(
            tables: tables, model: model, plans: plans, layouts: layouts, tombstoneSQL: tombstoneSQL,
            keyFloors: try HistoryStatements.largestKeys(internsStrings: tables.internsStrings, on: connection),
            storeIdentifier: storeIdentifier)
    }

    private static func tombstoneColumns(neededBy layouts: [HistoryEntityLayout]) -> Int {
        layouts.map(\.tombstoneAttributes.count).max() ?? 0
    }

    /// The history rows of a save whose inserts got `insertedIDs`: the
    /// inserts as runs of consecutive keys per hierarchy (a save's keys come
    /// in one block per hierarchy), recorded from the rows once written.
    func commit(of request: SaveRequest, insertedIDs: [ManagedObjectID]) -> HistoryCommit {
        var commit = HistoryCommit(author: request.author, contextName: request.contextName)
        for id in insertedIDs {
            let root = rootEntityIndexes[id.entityIndex]
            // The hierarchy's latest run: one run per hierarchy, so a short scan and no table.
            if let run = commit.insertedRanges.lastIndex(where: { rootEntityIndexes[$0.entityIndex] == root }),
               commit.insertedRanges[run].keys.upperBound &+ 1 == id.primaryKey {
                commit.insertedRanges[run].keys = commit.insertedRanges[run].keys.lowerBound...id.primaryKey
            } else {
                commit.insertedRanges.append((id.entityIndex, id.primaryKey...id.primaryKey))
            }
        }
        commit.updated.reserveCapacity(request.updates.count)
        for update in request.updates {
            let layout = layouts[update.id.entityIndex]
            var slots = update.attributes.map { layout.attributeSlots[$0.index] }
            slots += update.toOne.map { layout.relationshipSlots[$0.index] }
            slots += update.changedToMany.map { layout.relationshipSlots[$0] }
            commit.updated.append((update.id, layout.withDerived(slots)))
        }
        commit.deleted = request.deletes.map(\.id)
        return commit
    }

    /// Forgets the interned names: another connection may have deleted them.
    func forgetNames() { stringKeys = [:] }

    /// A commit whose transaction row and tombstones are recorded; `finish`
    /// records the rest once the commit's rows are written.
    struct Pending {
        let transaction: Int64
        fileprivate let commit: HistoryCommit
        fileprivate let plainDeletes: [ManagedObjectID]
        /// Objects whose derived attributes the deletes' triggers recompute
        /// (found while the deleted rows were still there).
        fileprivate let derivedByDeletes: [ManagedObjectID: Set<Int>]
    }

    /// Records `commit` whose rows are all written (a batch request; a
    /// delete's rows must still be there) and returns its transaction's key.
    func record(_ commit: HistoryCommit, on connection: Connection, known: KnownKeyCounters) throws -> Int64 {
        let pending = try begin(commit, on: connection, known: known)
        try finish(pending, on: connection, known: known)
        return pending.transaction
    }

    /// Records the transaction and the deletes that keep tombstones, before
    /// the commit writes any row: a tombstone is copied from its row.
    func begin(_ commit: HistoryCommit, on connection: Connection, known: KnownKeyCounters) throws -> Pending {
        let transaction = try PrimaryKeyAllocator.reserve(
            1, rootEntityNumber: HistoryStatements.transactionEntityNumber,
            floor: keyFloors[HistoryStatements.transactionEntityNumber] ?? 0, on: connection, known: known).lowerBound
        var names: [HistoryStatements.Name] = []
        for name in [commit.author, bundleID, commit.contextName, processName] {
            guard let name else {
                names.append(.none)
                continue
            }
            names.append(tables.internsStrings ? .key(try internedKey(name, on: connection, known: known)) : .text(name))
        }
        try HistoryStatements.insertTransaction(
            key: transaction, timestamp: Date(), names: names, internsStrings: tables.internsStrings, on: connection)

        // Deletes with tombstones, one statement per entity table.
        var plainDeletes: [ManagedObjectID] = []
        var tombstoned: [Int: [Int64]] = [:]
        var tombstonedCount = 0
        for id in commit.deleted {
            if tombstoneSQL[id.entityIndex] != nil {
                tombstoned[id.entityIndex, default: []].append(id.primaryKey)
                tombstonedCount += 1
            } else {
                plainDeletes.append(id)
            }
        }
        if tombstonedCount > 0 {
            var nextKey = try reserveChangeKeys(tombstonedCount, on: connection, known: known)
            for (entityIndex, keys) in tombstoned.sorted(by: { $0.key < $1.key }) {
                guard let sql = tombstoneSQL[entityIndex] else { continue }
                try HistoryStatements.insertTombstones(sql: sql, firstKey: nextKey, transaction: transaction, keys: keys,
                                                       on: connection)
                nextKey += Int64(keys.count)
            }
        }
        return Pending(transaction: transaction, commit: commit, plainDeletes: plainDeletes,
                       derivedByDeletes: try objectsDerivingFrom(deleted: commit.deleted, on: connection))
    }

    /// Records the inserts (from their rows, one statement per run of keys),
    /// the updates — with the other objects whose derived attributes the
    /// triggers recomputed — and the deletes without tombstones (one
    /// statement for all), once the commit's rows are written.
    func finish(_ pending: Pending, on connection: Connection, known: KnownKeyCounters) throws {
        let commit = pending.commit
        let updated = withDerivedObjects(
            commit, pending.derivedByDeletes.merging(
                try objectsDerivingFrom(inserted: commit.insertedRanges, updated: commit.updated, on: connection),
                uniquingKeysWith: { $0.union($1) }))
        var ranged = 0
        for range in commit.insertedRanges { ranged += range.keys.count }
        let count = ranged + updated.count + pending.plainDeletes.count
        guard count > 0 else { return }
        var nextKey = try reserveChangeKeys(count, on: connection, known: known)
        for range in commit.insertedRanges {
            try HistoryStatements.insertInsertions(
                sql: insertionSQL[range.entityIndex], keys: range.keys, firstKey: nextKey, transaction: pending.transaction,
                on: connection)
            nextKey += Int64(range.keys.count)
        }
        let rowCount = updated.count + pending.plainDeletes.count
        if rowCount > 0, rowCount <= HistoryStatements.valuesRowLimit {
            var rows: [(type: HistoryStatements.ChangeType, entity: Int, key: Int64, mask: [UInt8])] = []
            rows.reserveCapacity(rowCount)
            for (id, slots) in updated {
                rows.append((.update, id.entityNumber, id.primaryKey, layouts[id.entityIndex].mask(slots: slots)))
            }
            for id in pending.plainDeletes { rows.append((.delete, id.entityNumber, id.primaryKey, [])) }
            try HistoryStatements.insertChanges(firstKey: nextKey, transaction: pending.transaction, rows: rows, on: connection)
        } else if rowCount > 0 {
            var rows = "["
            var masks: [UInt8] = []
            var first = true
            func append(_ type: HistoryStatements.ChangeType, _ id: ManagedObjectID, mask: [UInt8]) {
                if !first { rows += "," }
                first = false
                let start = mask.isEmpty ? 0 : masks.count + 1
                rows += "[\(type.rawValue),\(id.entityNumber),\(id.primaryKey),\(start),\(mask.count)]"
                masks += mask
            }
            for (id, slots) in updated { append(.update, id, mask: layouts[id.entityIndex].mask(slots: slots)) }
            for id in pending.plainDeletes { append(.delete, id, mask: []) }
            rows += "]"
            try HistoryStatements.insertChanges(firstKey: nextKey, transaction: pending.transaction, rows: rows, masks: masks,
                                                on: connection)
        }
    }

    private func reserveChangeKeys(_ count: Int, on connection: Connection, known: KnownKeyCounters) throws -> Int64 {
        try PrimaryKeyAllocator.reserve(
            count, rootEntityNumber: HistoryStatements.changeEntityNumber,
            floor: keyFloors[HistoryStatements.changeEntityNumber] ?? 0, on: connection, known: known).lowerBound
    }

    private func internedKey(_ name: String, on connection: Connection, known: KnownKeyCounters) throws -> Int64 {
        if let key = stringKeys[name] { return key }
        if let existing = try HistoryStatements.stringKey(name, on: connection) {
            stringKeys[name] = existing
            return existing
        }
        // Not cached until a later commit finds it: this transaction may roll back.
        let key = try PrimaryKeyAllocator.reserve(
            1, rootEntityNumber: HistoryStatements.stringEntityNumber,
            floor: keyFloors[HistoryStatements.stringEntityNumber] ?? 0, on: connection, known: known).lowerBound
        try HistoryStatements.insertString(name, key: key, on: connection)
        return key
    }
}

extension PersistentStoreCoordinator {
    /// The recorder `mode` asks for on this store (its tables prepared in one
    /// write transaction), or the refusal of every write when the store has
    /// history tables that `mode` turns off.
    static func history(
        _ mode: HistoryMode, readOnly: Bool, model: CheckedModel, plans: [EntityStorePlan], location: StoreLocation,
        storeIdentifier: UInt32, on connection: Connection
    ) throws -> (HistoryRecorder?, (any Error & Sendable)?) {
        guard mode != .ignored, !readOnly else { return (nil, nil) }
        let hasTables = try HistoryStatements.layout(on: connection) != nil
        switch (mode, hasTables) {
        case (.off, true):
            return (nil, StoreError.persistentHistoryTrackingOff(path: location.path))
        case (.on, _), (.automatic, true):
            let writer = StoreWriter(migrating: connection)
            let layouts = HistoryRecorder.layouts(of: model)
            let recorder = { (tables: HistoryStatements.TablesLayout, connection: Connection) in
                try HistoryRecorder.recorder(tables: tables, model: model, plans: plans, layouts: layouts,
                                             storeIdentifier: storeIdentifier, on: connection)
            }
            // Tables already complete are read in a read transaction: another
            // process's long write must not hold up (or, past the busy
            // timeout, fail) an open that writes nothing.
            let ready = try writer.translatingBusy {
                try connection.transaction(.deferred) {
                    try HistoryRecorder.completeTables(layouts: layouts, on: connection).map { try recorder($0, connection) }
                }
            }
            if let ready { return (ready, nil) }
            return (try writer.write { (try recorder(HistoryRecorder.setUp(layouts: layouts, on: $0), $0), nil) }.result, nil)
        default:
            return (nil, nil)
        }
    }
}
