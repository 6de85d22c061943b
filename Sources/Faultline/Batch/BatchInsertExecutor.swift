import Foundation
import FaultlineSQLite
import Synchronization

/// What a batch request did inside its transaction.
struct BatchOutcome: Sendable {
    var changes: BatchChanges
    var counters = BatchCounters()
    var objectIDs: [ManagedObjectID] = []
    /// Rows the request itself wrote (not delete-rule side effects).
    var count = 0
    /// Entities whose rows were written (their dependents' derived values go stale).
    var touchedEntities: Set<Int> = []
    /// Files beside the store that deleted rows owned: removed once the transaction commits.
    var releasedFiles: [URL] = []
    /// The persistent-history transaction that recorded the request.
    var historyTransaction: Int64?
}

extension BatchExecutor {
    func insert(_ request: BatchInsertRequest) throws -> BatchResult {
        let model = store.model
        guard request.entity.index < model.entities.count,
              model.entities[request.entity.index].versionHash == request.entity.versionHash else {
            throw BatchError.unknownEntity(request.entity.name)
        }
        let entity = model.entities[request.entity.index]
        if let attribute = entity.attributes.first(where: { store.writesThroughValueAdapter($0, of: entity) }) {
            throw BatchError.readOnlyProperty(entity: entity.name, key: attribute.name)
        }
        let plan = BatchInsertPlan(request, store: store)
        return try run(resultType: request.resultType) { connection in
            var inserter = try BatchInserter(request: request, plan: plan, store: store, connection: connection)
            try inserter.run(request.source)
            var outcome = inserter.outcome
            outcome.changes.relinkedEntities = inserter.relinkedEntities(model: model, policy: request.conflictPolicy)
            store.writer.rowsInsertedWithoutTriggers.add(outcome.counters.rowsInsertedWithoutTriggers, ordering: .relaxed)
            let changes = outcome.changes
            outcome.historyTransaction = try store.recordHistory(on: connection) { history in
                // An upsert that updated a row rewrote every property the request sets.
                let slots = history.layouts[entity.index].slots(named: plan.slotByName.keys, in: entity)
                return HistoryCommit(author: author, contextName: contextName,
                                     insertedRanges: changes.insertedRanges,
                                     updated: changes.updatedObjectIDs.map { ($0, slots) })
            }
            return outcome
        }
    }
}

extension BatchInsertRequest.Source {
    /// How many rows the source holds, when it says ahead.
    var knownCount: Int? {
        switch self {
        case .objects(let rows): rows.count
        case .rows(let count, _): count
        case .dictionaryHandler, .rowHandler: nil
        }
    }
}

/// The per-row loop of a batch insert.
struct BatchInserter {
    let plan: BatchInsertPlan
    let row: BatchInsertRow
    let statement: Statement
    let storeIdentifier: UInt32
    let wantsIDs: Bool
    let rootEntityNumber: Int
    let keyFloor: Int64
    /// The model's entity count, to check the `Z_ENT` an upsert returns.
    let entityCount: Int
    let connection: Connection
    var keys: BatchKeyBlocks
    var outcome: BatchOutcome
    let table: String
    let schema: StoreSchema
    /// Set once rows go in with the triggers off, with the rows inserted before.
    private var triggerless: (inserts: TriggerlessInserts, rowsBefore: Int)?

    init(request: BatchInsertRequest, plan: BatchInsertPlan, store: StoreWriteAccess, connection: Connection) throws {
        self.plan = plan
        statement = try connection.cachedStatement(plan.sql)
        storeIdentifier = store.identifier
        row = BatchInsertRow(statement: statement, plan: plan, storeIdentifier: store.identifier,
                             validates: request.validatesValues)
        wantsIDs = request.resultType == .objectIDs
        rootEntityNumber = request.entity.rootEntityIndex + 1
        keyFloor = store.keyFloors[rootEntityNumber] ?? 0
        entityCount = store.model.entities.count
        self.connection = connection
        keys = BatchKeyBlocks(rootEntityNumber: rootEntityNumber, floor: keyFloor, connection: connection, expectedCount: nil)
        outcome = BatchOutcome(changes: BatchChanges(storeIdentifier: store.identifier))
        outcome.touchedEntities = [request.entity.index]
        table = store.schema.entities[request.entity.index].table
        schema = store.schema
        try statement.bind(Int64(request.entity.number), at: 2)
        try statement.bind(Int64(1), at: 3)
    }

    mutating func run(_ source: BatchInsertRequest.Source) throws {
        // A source that says its count turns the triggers off before its first
        // row; a stream after its first `minimumRows` rows (insertRows).
        if let count = source.knownCount { try turnTriggersOff(rows: count) }
        do {
            try insertRows(source)
        } catch {
            triggerless?.inserts.abandon()
            throw error
        }
        if let (inserts, rowsBefore) = triggerless {
            let keys = Self.keys(outcome.changes.insertedRanges.map(\.keys), after: rowsBefore)
            try inserts.finish(keys: keys.map { (table: 0, keys: $0) })
            outcome.counters.rowsInsertedWithoutTriggers = outcome.counters.rowsInserted - rowsBefore
        }
    }

    /// Turns the triggers off for `rows` more rows when they allow
    /// (TriggerlessInserts.begin). An upsert keeps them: it may update rows,
    /// which fires UPDATE triggers the stand-ins do not cover.
    private mutating func turnTriggersOff(rows: Int) throws {
        guard !plan.isUpsert, triggerless == nil else { return }
        let rowsBefore = outcome.counters.rowsInserted
        triggerless = try TriggerlessInserts.begin(rows: rows, tables: [table], schema: schema, on: connection)
            .map { ($0, rowsBefore) }
    }

    /// The runs of `ranges` (keys in insertion order) after their first `skipped` keys.
    private static func keys(_ ranges: [ClosedRange<Int64>], after skipped: Int) -> [ClosedRange<Int64>] {
        var skipping = Int64(skipped)
        return ranges.compactMap { range in
            let count = Int64(range.count)
            defer { skipping = max(0, skipping - count) }
            return skipping < count ? range.lowerBound + skipping...range.upperBound : nil
        }
    }

    private mutating func insertRows(_ source: BatchInsertRequest.Source) throws {
        switch source {
        case .objects(let rows):
            keys = BatchKeyBlocks(rootEntityNumber: rootEntityNumber, floor: keyFloor, connection: connection, expectedCount: rows.count)
            for (index, values) in rows.enumerated() {
                row.beginRow()
                try setDictionary(values, row: index)
                try insertRow(index)
            }
        case .dictionaryHandler(let handler):
            var values: [String: Any] = [:]
            var index = 0
            while true {
                // A stream that has given this many rows is taken to give as many more.
                if index == TriggerlessInserts.minimumRows { try turnTriggersOff(rows: index) }
                values.removeAll(keepingCapacity: true)
                if handler(&values) { break }
                row.beginRow()
                try setDictionary(values, row: index)
                try insertRow(index)
                index += 1
            }
        case .rows(let count, let handler):
            keys = BatchKeyBlocks(rootEntityNumber: rootEntityNumber, floor: keyFloor, connection: connection, expectedCount: count)
            for index in 0..<max(count, 0) {
                row.beginRow()
                handler(row, index)
                try insertRow(index)
            }
        case .rowHandler(let handler):
            var index = 0
            while true {
                if index == TriggerlessInserts.minimumRows { try turnTriggersOff(rows: index) }
                row.beginRow()
                if handler(row) { break }
                try insertRow(index)
                index += 1
            }
        }
        try keys.finish()
        outcome.counters.keyReservations = keys.reservations
        outcome.count = outcome.counters.rowsInserted + outcome.counters.rowsUpdated
    }

    /// `prefix`: the composite whose elements `values` holds (`login.`).
    private func setDictionary(_ values: [String: Any], row index: Int, prefix: String = "") throws {
        for (key, value) in values {
            let name = prefix.isEmpty ? key : prefix + key
            if let slot = plan.slotByName[name] {
                row.setAny(value, slot: slot)
            } else if plan.compositeNames.contains(name), let elements = value as? [String: Any] {
                // A composite given whole, as `setValue(_:forKey:)` takes it.
                try setDictionary(elements, row: index, prefix: name + ".")
            } else {
                throw BatchError.unknownProperty(entity: plan.entityName, key: name)
            }
        }
    }

    @inline(__always)
    private mutating func insertRow(_ index: Int) throws {
        let key = try keys.peek()
        try row.completeRow(key: key)
        if let failure = row.failure { throw row.error(failure, row: index) }
        if plan.isUpsert {
            var returned: (key: Int64, entity: Int)?
            do {
                while try statement.step() {
                    let key = statement.int64(at: 0)
                    returned = (key, try statement.entityIndex(at: 1, primaryKey: key, entityCount: entityCount))
                }
            } catch let error as SQLiteError {
                throw mapped(error, row: index)
            } catch {
                // A damaged Z_ENT thrown mid-step: reset, as `keyPairs` does.
                statement.reset()
                throw error
            }
            if let returned {
                let id = ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: returned.entity, primaryKey: returned.key)
                if returned.key == key {
                    keys.consume()
                    outcome.counters.rowsInserted += 1
                    outcome.changes.noteInserted(key, entityIndex: plan.entityIndex)
                } else {
                    outcome.counters.rowsUpdated += 1
                    outcome.changes.updatedObjectIDs.append(id)
                }
                if wantsIDs { outcome.objectIDs.append(id) }
            }
        } else {
            do {
                try statement.execute()
            } catch let error as SQLiteError {
                throw mapped(error, row: index)
            }
            keys.consume()
            outcome.counters.rowsInserted += 1
            outcome.changes.noteInserted(key, entityIndex: plan.entityIndex)
            if wantsIDs {
                outcome.objectIDs.append(ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: plan.entityIndex, primaryKey: key))
            }
        }
    }

    /// The entities whose objects' to-many members the rows may have changed
    /// through an inverse to-one: the destinations the rows named, and under
    /// object trump every to-one's, since an updated row takes nil for each
    /// it did not set. A merge re-reads those objects (`StoreChanges.relinkedEntities`);
    /// naming the rows' destinations one by one would cost the insert a read
    /// of every row it wrote, or the key of every row bound.
    func relinkedEntities(model: CheckedModel, policy: BatchConflictPolicy) -> Set<Int> {
        let counters = outcome.counters
        guard counters.rowsInserted + counters.rowsUpdated > 0 else { return [] }
        let relationships = model.entities[plan.entityIndex].relationships
        var relinked = Set<Int>()
        for (slot, entry) in plan.slots.enumerated() {
            let index: Int
            switch entry.kind {
            case .toOne(let relationship, _, _), .lookup(let relationship, _): index = relationship
            case .attribute: continue
            }
            let relationship = relationships[index]
            guard relationship.inverseIsToMany == true,
                  row.linked[slot] || (policy == .objectTrump && counters.rowsUpdated > 0) else { continue }
            relinked.formUnion(model.entities[relationship.destinationEntityIndex].hierarchyIndexes)
        }
        return relinked
    }

    /// A unique-index failure names the row and the constraint.
    private func mapped(_ error: SQLiteError, row index: Int) -> Error {
        guard error.code == .constraint, error.message.hasPrefix("UNIQUE") else { return error }
        return BatchError.uniquenessViolation(row: index, entity: plan.entityName, constraint: plan.constraint(named: error.message))
    }
}
