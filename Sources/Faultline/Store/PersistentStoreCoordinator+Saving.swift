import Foundation
import FaultlineSQLite
import Synchronization

/// Thrown inside the write transaction to roll it back when conflicts are found.
private struct ConflictsFound: Error {
    let conflicts: [SaveConflict]
}

extension PersistentStoreCoordinator {
    /// Writes `request` in one IMMEDIATE transaction on the writer: uniqueness
    /// checks, key reservation (one update per inheritance root), deletes,
    /// inserts and updates with version checks, join rows, ordering positions,
    /// then re-reads rows whose derived attributes the triggers computed.
    /// Returns the conflicts instead when any is found; the store is then
    /// unchanged.
    func write(_ request: SaveRequest, source: ObjectIdentifier) throws -> Result<SaveResult, SaveConflictList> {
        var committed = false
        var adapted: AdaptedSave?
        defer { if let adapted { valueAdapter?.saveEnded(adapted, committed: committed) } }
        do {
            let (result, changes, _) = try writer.write { connection in
                adapted = try self.valueAdapter?.encoded(request, on: connection)
                // Not `adapted?.request ?? request`: `??` copied the whole request.
                var result = if let adapted { try self.perform(adapted.request, on: connection) }
                             else { try self.perform(request, on: connection) }
                let committed = self.committedChanges(of: request, result: &result, source: source)
                return (result, committed)
            }
            committed = true
            return .success(result.publishing(changes))
        } catch let found as ConflictsFound {
            // A version conflict proves the cached row old (ExternalCommits.swift, invariant 3).
            changes.rowCache.invalidate(found.conflicts.compactMap { conflict -> ManagedObjectID? in
                if case .optimisticLocking(let id, _, _) = conflict { return id }
                return nil
            })
            return .failure(SaveConflictList(conflicts: found.conflicts))
        }
    }

    /// The write of `request`, its result built by `write(_:into:on:)`.
    /// Returned from the function that built it, whose locals are released
    /// between the result's last change and the return, the result was copied
    /// whole: a retain and a release of each of its lists, which the optimiser
    /// cannot pair across a release that may run a deinitialiser.
    private func perform(_ request: SaveRequest, on connection: Connection) throws -> SaveResult {
        var result = SaveResult()
        try write(request, into: &result, on: connection)
        return result
    }

    private func write(_ request: SaveRequest, into result: inout SaveResult, on connection: Connection) throws {
        let deleted = Set(request.deletes.map(\.id))
        let conflicts = try uniquenessConflicts(request.uniquenessChecks, ignoring: deleted, on: connection)
        if !conflicts.isEmpty { throw ConflictsFound(conflicts: conflicts) }

        try reserveKeys(for: request.inserts, into: &result, on: connection)
        // Before any row is written: a delete's tombstone is copied from its row.
        let pendingHistory = try history.map { history in
            try history.begin(history.commit(of: request, insertedIDs: result.insertedIDs), on: connection,
                              known: writer.keyCounters)
        }
        result.historyTransaction = pendingHistory?.transaction
        // From a constant: a read of `result` through the closure's capture
        // copied the whole result (and paid a dynamic exclusivity check).
        let promoted = result.promoted
        let resolve = { (id: ManagedObjectID) in promoted.resolve(id) }

        // Deletes first: a unique value the save takes from a row it deletes
        // (an object replaced by a new one with the same key) is free by the
        // time the insert or update that takes it runs.
        var lockConflicts: [SaveConflict] = []
        for delete in request.deletes {
            let writes = plans[delete.id.entityIndex].writes
            let statement = try connection.cachedStatement(writes.delete)
            try statement.bind(delete.id.primaryKey, at: 1)
            try statement.bind(delete.version, at: 2)
            try statement.execute()
            if connection.changes == 0 {
                lockConflicts.append(try lockConflict(delete.id, expected: delete.version, on: connection))
            }
            for text in writes.joinRowDeletes { try connection.execute(text, [.integer(delete.id.primaryKey)]) }
        }

        let insertedIDs = result.insertedIDs
        let triggerless = try beginTriggerless(insertedIDs, on: connection)
        do {
            try writeInserts(request.inserts, ids: insertedIDs, promoted: promoted, on: connection)
        } catch {
            triggerless?.inserts.abandon()
            throw error
        }
        if let triggerless {
            try triggerless.inserts.finish(keys: triggerless.keys)
            writer.rowsInsertedWithoutTriggers.add(insertedIDs.count, ordering: .relaxed)
        }

        // By position, field by field: a loop variable was a whole copy of
        // each update, a retain and a release of each of its lists.
        for at in request.updates.indices {
            let id = request.updates[at].id
            let version = request.updates[at].version
            let attributes = request.updates[at].attributes
            let toOne = request.updates[at].toOne
            let plan = plans[id.entityIndex]
            let statement = try connection.cachedStatement(plan.updates.text(
                attributes: attributes.lazy.map(\.index), toOnes: toOne.lazy.map(\.index), mapping: plan.mapping,
                derivations: plan.rowDerivations))
            var position: Int32 = 1
            for (index, value) in attributes where plan.mapping.column(forAttributeAt: index) != nil {
                try ValueCoding.bind(value, to: statement, at: position)
                position += 1
            }
            for (index, destination) in toOne {
                guard case .foreignKey(_, let entityColumn) = plan.mapping.relationships[index] else { continue }
                try bindReference(destination.map(resolve), entityColumn: entityColumn != nil, to: statement, at: &position)
            }
            try statement.bind(version + 1, at: position)
            try statement.bind(id.primaryKey, at: position + 1)
            try statement.bind(version, at: position + 2)
            try statement.execute()
            // A save either writes every update, each row's version one up
            // (`version + 1`, what the context commits), or throws.
            if connection.changes == 0 {
                lockConflicts.append(try lockConflict(id, expected: version, on: connection))
            }
        }

        // Once every row of the save is written: rows still pointing at a
        // deleted one are members its delete rules never saw, added by another
        // save since they were read. The deletion is a conflict, as if its
        // version had moved (it does not when the members are another
        // entity's rows), and the merge policy runs the rules again.
        if lockConflicts.isEmpty {
            for delete in request.deletes {
                let key: [SQLValue] = [.integer(delete.id.primaryKey)]
                if try plans[delete.id.entityIndex].writes.remainingReferences.contains(where: { try connection.scalar($0, key) != nil }) {
                    lockConflicts.append(.optimisticLocking(delete.id, expectedVersion: delete.version, storeVersion: delete.version))
                }
            }
        }
        if !lockConflicts.isEmpty { throw ConflictsFound(conflicts: lockConflicts) }

        for row in request.joinDeletes {
            guard case .joinRow(_, _, _, let text) = plans[row.entityIndex].writes.membership[row.relationship] else { continue }
            try connection.execute(text, [.integer(resolve(row.first).primaryKey), .integer(resolve(row.second).primaryKey)])
        }
        for row in request.joinInserts {
            guard case .joinRow(_, _, let text, _) = plans[row.entityIndex].writes.membership[row.relationship] else { continue }
            try connection.execute(text, [.integer(resolve(row.first).primaryKey), .integer(resolve(row.second).primaryKey)])
        }
        for assignment in request.keyAssignments {
            guard case .hiddenKey(let text) = plans[assignment.entityIndex].writes.membership[assignment.relationship]
            else { continue }
            try connection.execute(
                text, [assignment.owner.map { .integer(resolve($0).primaryKey) } ?? .null, .integer(resolve(assignment.member).primaryKey)])
        }
        for position in request.positions {
            switch plans[position.entityIndex].writes.ordering[position.relationship] {
            case .joinRow(let text):
                try connection.execute(text, [.integer(Int64(position.position)), .integer(resolve(position.owner).primaryKey),
                                              .integer(resolve(position.member).primaryKey)])
            case .memberRow(let text):
                try connection.execute(text, [.integer(Int64(position.position)), .integer(resolve(position.member).primaryKey)])
            case .unordered:
                continue
            }
        }

        // Once every row is written: inserts are recorded from their rows,
        // and the rows the triggers recomputed are found from them.
        if let pendingHistory, let history { try history.finish(pendingHistory, on: connection, known: writer.keyCounters) }

        // Built only when some saved entity has derived attributes.
        let hasDerived: (ManagedObjectID) -> Bool = { !self.plans[$0.entityIndex].derivedAttributes.isEmpty }
        if result.insertedIDs.contains(where: hasDerived) || request.updates.contains(where: { hasDerived($0.id) }) {
            var reread = derivedRowsWritten(request, into: &result)
            reread += request.updates.lazy.map(\.id).filter(hasDerived)
            if !reread.isEmpty {
                for (id, snapshot) in try readRows(reread, on: connection) { result.refreshed[id] = snapshot }
            }
        }
    }

    /// The inserted rows whose derived values the INSERT computed from the
    /// row itself, as snapshots in `result.refreshed`; returns the IDs of the
    /// other inserts with derived attributes, whose rows are read back.
    private func derivedRowsWritten(_ request: SaveRequest, into result: inout SaveResult) -> [ManagedObjectID] {
        var reread: [ManagedObjectID] = []
        var toOnes = RowArena<ManagedObjectID?>()
        for (position, id) in result.insertedIDs.enumerated() where !plans[id.entityIndex].derivedAttributes.isEmpty {
            guard let values = plans[id.entityIndex].insertedDerivations?.applied(to: request.inserts[position].values) else {
                reread.append(id)
                continue
            }
            result.refreshed[id] = RowSnapshot(
                entityIndex: id.entityIndex, version: 1, values: values,
                toOne: result.promoted.resolving(request.inserts[position].toOne, in: &toOnes))
        }
        return reread
    }

    private func bindReference(
        _ destination: ManagedObjectID?, entityColumn: Bool, to statement: Statement, at position: inout Int32
    ) throws {
        if let destination {
            try statement.bind(destination.primaryKey, at: position)
            if entityColumn { try statement.bind(Int64(destination.entityNumber), at: position + 1) }
        } else {
            try statement.bindNull(at: position)
            if entityColumn { try statement.bindNull(at: position + 1) }
        }
        position += entityColumn ? 2 : 1
    }

    /// The INSERT of each new row, `ids` its permanent IDs by position.
    /// Consecutive inserts of one entity share one statement lookup (it hashes
    /// the SQL text) and one plan; no table of statements is built per save.
    /// The inserts are read in place: a copy of each (its two windows retained
    /// and released) cost as much as binding a column.
    private func writeInserts(_ inserts: [SaveRequest.Insert], ids: [ManagedObjectID], promoted: PromotedIDs,
                              on connection: Connection) throws {
        var lastInsert: (entityIndex: Int, slots: [EntityStorePlan.InsertSlot], statement: Statement)?
        try inserts.withUnsafeBufferPointer { inserts in
            for position in inserts.indices {
                let id = ids[position]
                let current: (entityIndex: Int, slots: [EntityStorePlan.InsertSlot], statement: Statement)
                if let lastInsert, lastInsert.entityIndex == id.entityIndex {
                    current = lastInsert
                } else {
                    let plan = plans[id.entityIndex]
                    current = (id.entityIndex, plan.insertSlots, try connection.cachedStatement(plan.insertSQL))
                    lastInsert = current
                }
                let statement = current.statement
                try statement.bind(id.primaryKey, at: 1)
                try statement.bind(Int64(id.entityNumber), at: 2)
                try statement.bind(Int64(1), at: 3)
                var column: Int32 = 4
                for slot in current.slots {
                    if slot.isToOne {
                        try bindReference(inserts[position].toOne[slot.index].map { promoted.resolve($0) },
                                          entityColumn: slot.hasEntityColumn, to: statement, at: &column)
                    } else {
                        try ValueCoding.bind(inserts[position].values[slot.index], to: statement, at: column)
                        column += 1
                    }
                }
                try statement.execute()
            }
        }
    }

    /// The triggers off for a save's many inserts, when their tables allow
    /// (TriggerlessInserts) and each table's new keys are one run: keys an
    /// earlier transaction gave (`obtainPermanentIDs`) may leave gaps where
    /// other saves' rows lie, which the stand-ins' key range would count again.
    /// Also returns each table's key run, by the table numbers `inserts` uses.
    private func beginTriggerless(_ ids: [ManagedObjectID], on connection: Connection) throws
        -> (inserts: TriggerlessInserts, keys: [(table: Int, keys: ClosedRange<Int64>)])? {
        guard ids.count >= TriggerlessInserts.minimumRows, !schema.insertedRowsUpkeep.isEmpty else { return nil }
        var tableOfRoot = Array(repeating: -1, count: model.entities.count)
        var tables: [String] = []
        var keys: [(range: ClosedRange<Int64>, count: Int64)] = []
        for id in ids {
            let root = model.entities[id.entityIndex].rootEntityIndex
            let key = id.primaryKey
            if tableOfRoot[root] < 0 {
                tableOfRoot[root] = tables.count
                tables.append(schema.entities[root].table)
                keys.append((key...key, 0))
            }
            let table = tableOfRoot[root]
            keys[table] = (min(keys[table].range.lowerBound, key)...max(keys[table].range.upperBound, key), keys[table].count + 1)
        }
        guard keys.allSatisfy({ $0.range.upperBound - $0.range.lowerBound + 1 == $0.count }),
              let inserts = try TriggerlessInserts.begin(rows: ids.count, tables: tables, schema: schema, on: connection) else {
            return nil
        }
        return (inserts, keys.enumerated().map { (table: $0.offset, keys: $0.element.range) })
    }

    private func reserveKeys(for inserts: [SaveRequest.Insert], into result: inout SaveResult, on connection: Connection) throws {
        guard !inserts.isEmpty else { return }
        var permanent = inserts.map(\.id)
        try reservePermanentKeys(count: inserts.count, id: { inserts[$0].id }, on: connection) { position, id in
            permanent[position] = id
        }
        result.promoted = PromotedIDs(inserts: inserts, permanent: permanent)
    }

    /// A permanent ID for each temporary one of the `count` IDs `id` gives
    /// (an ID already permanent — `obtainPermanentIDs` — keeps its key), from
    /// one key block per inheritance root; `assign` takes each with its position.
    func reservePermanentKeys(
        count: Int, id: (Int) -> ManagedObjectID, on connection: Connection, assign: (Int, ManagedObjectID) -> Void
    ) throws {
        guard count > 0 else { return }
        func assignKeys(to positions: some Collection<Int>, root: Int) throws {
            let keys = try PrimaryKeyAllocator.reserve(
                positions.count, rootEntityNumber: root + 1, floor: keyFloors[root + 1] ?? 0, on: connection,
                known: writer.keyCounters, spare: writer.spareKeys)
            for (offset, position) in positions.enumerated() {
                assign(position, ManagedObjectID(
                    storeIdentifier: identifier, entityIndex: id(position).entityIndex, primaryKey: keys.lowerBound + Int64(offset)))
            }
        }
        // Most saves insert into one hierarchy, none of it given keys before: one block, no grouping.
        let firstRoot = model.entities[id(0).entityIndex].rootEntityIndex
        if (0 ..< count).allSatisfy({ id($0).isTemporaryID && model.entities[id($0).entityIndex].rootEntityIndex == firstRoot }) {
            return try assignKeys(to: 0 ..< count, root: firstRoot)
        }
        var byRoot: [Int: [Int]] = [:]
        for position in 0 ..< count where id(position).isTemporaryID {
            byRoot[model.entities[id(position).entityIndex].rootEntityIndex, default: []].append(position)
        }
        for (root, positions) in byRoot.sorted(by: { $0.key < $1.key }) { try assignKeys(to: positions, root: root) }
    }

    private func lockConflict(_ id: ManagedObjectID, expected: Int64, on connection: Connection) throws -> SaveConflict {
        let current = try connection.scalar(plans[id.entityIndex].writes.version, [.integer(id.primaryKey)])
        if case .integer(let version)? = current {
            return .optimisticLocking(id, expectedVersion: expected, storeVersion: version)
        }
        return .optimisticLocking(id, expectedVersion: expected, storeVersion: nil)
    }

    private func uniquenessConflicts(
        _ checks: [SaveRequest.UniquenessCheck], ignoring deleted: Set<ManagedObjectID>, on connection: Connection
    ) throws -> [SaveConflict] {
        var conflicts: [SaveConflict] = []
        for check in checks {
            // A NULL never equals anything in SQL, and SQLite's unique indexes
            // allow repeated NULLs: a constraint with a nil value cannot conflict.
            if check.values.contains(.null) { continue }
            let constraint = plans[check.id.entityIndex].writes.uniqueness[check.constraint]
            let statement = try connection.cachedStatement(constraint.select)
            // Reset on every exit (see `keyPairs`): a damaged row throws mid-step.
            defer { statement.reset() }
            for (offset, value) in check.values.enumerated() {
                try ValueCoding.bind(value, to: statement, at: Int32(offset + 1))
            }
            while try statement.step() {
                let key = statement.int64(at: 1)
                let existing = ManagedObjectID(
                    storeIdentifier: identifier,
                    entityIndex: try statement.entityIndex(at: 0, primaryKey: key, entityCount: model.entities.count),
                    primaryKey: key)
                if existing != check.id, !deleted.contains(existing) {
                    conflicts.append(.uniqueness(check.id, existing: existing, constraint: constraint.names))
                }
            }
        }
        return conflicts
    }

    /// What the commit of `request` changed, for the after-commit work: the
    /// rows it wrote by ID, the entities it touched, and the new rows whose
    /// values the request holds (the row cache takes them as written; a row
    /// with derived attributes is cached as re-read). Records in `result` the
    /// snapshot cached for each insert, which the context commits as is.
    /// (Built by `record(_:result:into:)`, as `perform` builds its result.)
    private func committedChanges(
        of request: SaveRequest, result: inout SaveResult, source: ObjectIdentifier
    ) -> CommittedChanges {
        // Built in place: a separate StoreChanges moved in after would stay
        // alive beside it, and the first change below would copy what it shares.
        var committed = CommittedChanges(changes: StoreChanges(source: source))
        record(request, result: &result, into: &committed)
        return committed
    }

    private func record(_ request: SaveRequest, result: inout SaveResult, into committed: inout CommittedChanges) {
        committed.changes.historyTransaction = result.historyTransaction
        committed.changes.inserted = result.insertedIDs
        if request.sharesPromotions, !request.inserts.isEmpty { committed.changes.promoted = result.promoted }
        committed.changes.updated = request.updates.map(\.id)
        for update in request.updates { committed.changes.touch(update.id.entityIndex) }

        // Only when there is something to hold: reserving on the empty set
        // allocates a table even for zero (an empty set shares one storage).
        if !request.deletes.isEmpty { committed.changes.deleted.reserveCapacity(request.deletes.count) }
        for delete in request.deletes {
            committed.changes.deleted.insert(delete.id)
            committed.changes.touch(delete.id.entityIndex)
        }
        committed.rowsToCache.reserveCapacity(request.inserts.count + request.updates.count)
        var toOnes = RowArena<ManagedObjectID?>()
        let promoted = result.promoted
        // One clock reading for the save's rows, as for the rows of one read.
        committed.readAt = RowCache.clock
        let anyRefreshed = !result.refreshed.isEmpty
        let insertedIDs = result.insertedIDs
        request.inserts.withUnsafeBufferPointer { inserts in
            for position in inserts.indices {
                let id = insertedIDs[position]
                committed.changes.touch(id.entityIndex)
                if anyRefreshed, let refreshed = result.refreshed[id] {
                    committed.rowsToCache.append(KeyedSnapshot(id: id, snapshot: refreshed))
                } else {
                    let toOne = promoted.resolving(inserts[position].toOne, in: &toOnes)
                    let snapshot = RowSnapshot(
                        entityIndex: id.entityIndex, version: 1, values: inserts[position].values, toOne: toOne)
                    committed.rowsToCache.append(KeyedSnapshot(id: id, snapshot: snapshot))
                }
            }
        }
        if !request.updates.isEmpty {
            cacheUpdatedRows(of: request, result: result, into: &committed, arena: &toOnes)
        }
        if !derivedTargets.isEmpty {
            committed.changes.rereadDependents = rereadDependents.unaffected(
                by: request, result: result, touched: committed.changes.touchedEntities, dependents: changes.derivedDependents)
        }
        result.cachedRows = committed.rowsToCache
    }

    /// The rows of updates the context held whole, cached as written, their
    /// to-ones resolved as the inserts' are; the others are to be dropped.
    private func cacheUpdatedRows(
        of request: SaveRequest, result: SaveResult, into committed: inout CommittedChanges,
        arena toOnes: inout RowArena<ManagedObjectID?>
    ) {
        // A row the store re-derived is read back into `refreshed` instead.
        // By position, as `write(_:into:on:)` reads the updates.
        func rowToCache(at position: Int) -> (values: AttributeValues, toOne: ToOneKeys)? {
            result.refreshed[request.updates[position].id] == nil ? request.updates[position].row : nil
        }
        let promoted = result.promoted
        var cached = 0
        for at in request.updates.indices {
            guard let row = rowToCache(at: at) else { continue }
            let id = request.updates[at].id
            cached += 1
            let toOne = promoted.resolving(row.toOne, in: &toOnes)
            committed.rowsToCache.append(KeyedSnapshot(
                id: id,
                snapshot: RowSnapshot(
                    entityIndex: id.entityIndex, version: request.updates[at].version + 1, values: row.values, toOne: toOne)))
        }
        // A list of its own only for a mix: none or all costs no allocation.
        if cached == request.updates.count {
            committed.updatesNotCached = []
        } else if cached > 0 {
            committed.updatesNotCached = request.updates.indices.compactMap { rowToCache(at: $0) == nil ? request.updates[$0].id : nil }
        }
    }
}

/// The conflicts that stopped a save.
struct SaveConflictList: Error, Sendable {
    let conflicts: [SaveConflict]
}
