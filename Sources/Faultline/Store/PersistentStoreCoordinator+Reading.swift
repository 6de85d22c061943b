import Foundation
import FaultlineSQLite

// Reading rows. Every path that reads full rows (a fetch, a batch fault, a
// to-many, a prefetch) decodes through `decodeRow`, so the row cache holds one
// kind of snapshot whoever read it. Fetches arrive in the model's terms
// (`StoreFetch`) and are compiled here, in the store, before anything runs.

extension PersistentStoreCoordinator {
    /// Decodes the current row of a hierarchy select of `plan` into `rows`;
    /// false for a row of no entity of the hierarchy. Appending here rather
    /// than returning the row spares each row a copy and a destroy of its
    /// snapshot through the optional tuple.
    @inline(__always)
    func decodeRow<Rows: DecodedRowSink>(
        _ statement: Statement, plan: EntityStorePlan, arena: inout SnapshotArena, into rows: inout Rows
    ) -> Bool {
        let entityIndex = statement.int(at: 0) - 1
        guard let layout = plan.layout(forEntityIndex: entityIndex) else { return false }
        let values = arena.values.window(count: layout.attributeCount, filledWith: .null)
        var payload = 0
        let slots = values.unsafeSlots
        if let base = slots.baseAddress {
            for attribute in layout.attributes {
                precondition(attribute.index < slots.count, "attribute index outside its entity's layout")
                // The slot holds `.null`, which owns nothing: initialising over
                // it skips the destroy an assignment calls for every column.
                let value = ValueCoding.read(statement, at: attribute.position, as: attribute.type)
                payload &+= value.payloadBytes
                (base + attribute.index).initialize(to: value)
            }
        }
        if let valueAdapter { payload &+= valueAdapter.decode(values, entityIndex: entityIndex) }
        arena.values.notePayload(payload)
        let toOne = layout.toOnes.isEmpty ? ToOneKeys.empty : arena.toOnes.window(count: layout.relationshipCount, filledWith: nil)
        for relationship in layout.toOnes {
            let key = statement.column(at: relationship.keyPosition)
            if key.isNull { continue }
            var destination = relationship.destination
            if relationship.entityPosition >= 0 {
                let number = statement.column(at: relationship.entityPosition)
                // A number naming no entity of the destination's hierarchy (a
                // damaged or foreign store) is not trusted: the declared
                // destination stands, as without the column.
                let stored = Int(truncatingIfNeeded: number.int64) - 1
                if !number.isNull, plans[relationship.destination].layout(forEntityIndex: stored) != nil { destination = stored }
            }
            toOne.assign(ManagedObjectID(storeIdentifier: identifier, entityIndex: destination, primaryKey: key.int64),
                      at: relationship.index)
        }
        let id = ManagedObjectID(storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: statement.int64(at: 1))
        rows.append(id, RowSnapshot(entityIndex: entityIndex, version: statement.int64(at: 2), values: values, toOne: toOne))
        return true
    }

    /// Steps `statement` (a hierarchy select of `plan`) to the end, decoding
    /// every row.
    func decodeRows(_ statement: Statement, plan: EntityStorePlan) throws -> DecodedRows {
        var rows = DecodedRows()
        try decodeRows(statement, plan: plan, into: &rows)
        return rows
    }

    /// The same, into any sink (one key's `DecodedRow`).
    func decodeRows<Rows: DecodedRowSink>(_ statement: Statement, plan: EntityStorePlan, into rows: inout Rows) throws {
        var arena = SnapshotArena(firstChunk: Rows.expectedRows)
        while try statement.step() {
            _ = decodeRow(statement, plan: plan, arena: &arena, into: &rows)
        }
    }

    /// `fetch` compiled for this store's schema; throws the compiler's errors
    /// (`FetchPredicateError`, `FetchError`) before any statement runs.
    func compile(_ fetch: StoreFetch) throws -> CompiledFetch {
        try CompiledFetch(fetch, schema: schema, marked: valueAdapter?.markedAttributes ?? .none)
    }

    /// The attributes of an entity that have a column, by name: what a
    /// dictionary fetch without `propertiesToFetch` selects.
    func storedAttributeNames(ofEntityAt index: Int) -> [String] {
        let mapping = schema.entities[index]
        return model.entities[index].attributes.filter { mapping.column(forAttributeAt: $0.index) != nil }.map(\.name)
    }

    /// Reads every matching row in full and caches it.
    func fetchRows(_ fetch: CompiledFetch) throws -> DecodedRows {
        let plan = plans[fetch.entityIndex]
        let sql = fetch.rowsStatement(in: plan)
        let readAt = RowCache.clock
        let rows = try withReader { connection -> DecodedRows in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(fetch.bindings)
            return try decodeRows(statement, plan: plan)
        }
        cache(rows, readAt: readAt)
        return rows
    }

    /// Reads only the IDs of the matching rows (the first statement of a
    /// batched fetch).
    func fetchIDs(_ fetch: CompiledFetch) throws -> [ManagedObjectID] {
        let plan = plans[fetch.entityIndex]
        let sql = fetch.idsStatement(in: plan)
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(fetch.bindings)
            var ids: [ManagedObjectID] = []
            while try statement.step() {
                // Skipped like a full row of an entity outside the hierarchy
                // (`decodeRow`): a damaged Z_ENT must not name a bogus entity.
                let entityIndex = statement.int(at: 0) - 1
                guard plan.layout(forEntityIndex: entityIndex) != nil else { continue }
                ids.append(ManagedObjectID(storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: statement.int64(at: 1)))
            }
            return ids
        }
    }

    /// `SELECT COUNT(*)` of the matching rows.
    func count(_ fetch: CompiledFetch) throws -> Int {
        let sql = fetch.countStatement(in: plans[fetch.entityIndex])
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(fetch.bindings)
            defer { statement.reset() }
            return try statement.step() ? statement.int(at: 0) : 0
        }
    }

    /// The row of one object (`… WHERE t0.Z_PK = ?`), cached: a fault fired
    /// alone. Decoded straight into its result, with no array of IDs or rows
    /// on the way; nil when the row is gone.
    func row(for id: ManagedObjectID) throws -> RowSnapshot? {
        guard !id.isTemporaryID else { return nil }
        let plan = plans[model.entities[id.entityIndex].rootEntityIndex]
        let pinned = PinnedReader.current(for: self)
        let readAt = RowCache.clock
        var decoded = try withReader(pinned: pinned) { connection -> DecodedRow in
            let statement = try connection.cachedStatement(plan.selectByKey)
            try statement.bind(id.primaryKey, at: 1)
            var decoded = DecodedRow()
            try decodeRows(statement, plan: plan, into: &decoded)
            return decoded
        }
        guard let (id, snapshot) = decoded.take() else { return nil }
        cache(id, snapshot, pinned: pinned, readAt: readAt)
        return snapshot
    }

    /// Reads the rows of `ids` in one statement per table
    /// (`… WHERE t0.Z_PK IN (SELECT value FROM json_each(?))`, or
    /// `… WHERE t0.Z_PK = ?` for one ID) and caches them.
    func rows(for ids: [ManagedObjectID]) throws -> [(ManagedObjectID, RowSnapshot)] {
        let readAt = RowCache.clock
        let result = try withReader { try readRows(ids, on: $0) }
        cache(result, readAt: readAt)
        return result
    }

    /// The rows of `ids` on `connection`, one statement per table, uncached:
    /// the batch-fault read, and a save's re-read of derived values inside its
    /// transaction.
    func readRows(_ ids: [ManagedObjectID], on connection: Connection) throws -> [(ManagedObjectID, RowSnapshot)] {
        if ids.count == 1, let id = ids.first {
            guard !id.isTemporaryID else { return [] }
            return Array(try readRows(ofRoot: model.entities[id.entityIndex].rootEntityIndex, keys: [id.primaryKey], on: connection))
        }
        var byRoot: [Int: [Int64]] = [:]
        for id in ids where !id.isTemporaryID {
            byRoot[model.entities[id.entityIndex].rootEntityIndex, default: []].append(id.primaryKey)
        }
        var result: [(ManagedObjectID, RowSnapshot)] = []
        for (root, keys) in byRoot.sorted(by: { $0.key < $1.key }) {
            result += try readRows(ofRoot: root, keys: keys, on: connection)
        }
        return result
    }

    /// The rows of `keys` in the table of the hierarchy rooted at `root`: one
    /// key by `selectByKey`, more as one bound JSON array.
    private func readRows(ofRoot root: Int, keys: [Int64], on connection: Connection) throws -> DecodedRows {
        let plan = plans[root]
        let statement: Statement
        if keys.count == 1 {
            statement = try connection.cachedStatement(plan.selectByKey)
            try statement.bind(keys[0], at: 1)
        } else {
            statement = try connection.cachedStatement(plan.selectByKeys)
            try statement.bind(jsonKeyList(keys), at: 1)
        }
        return try decodeRows(statement, plan: plan)
    }

    /// The destinations of a to-many relationship of one object, read in full
    /// in one statement (so firing their faults costs no SQL), in order for an
    /// ordered relationship.
    func toManyDestinations(
        of source: ManagedObjectID, relationship: CheckedRelationship
    ) throws -> [ManagedObjectID] {
        guard !source.isTemporaryID else { return [] }
        let plan = plans[relationship.destinationEntityIndex]
        guard let sql = reads[source.entityIndex].toMany[relationship.index]?.members else { return [] }
        let readAt = RowCache.clock
        let rows = try withReader { connection -> DecodedRows in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(source.primaryKey, at: 1)
            return try decodeRows(statement, plan: plan)
        }
        cache(rows, readAt: readAt)
        return rows.map(\.0)
    }

    /// Reads the selected columns of a dictionary fetch, one row of values in
    /// the order of `StoreFetch.selecting` per result: an attribute's value by
    /// its type, or a to-one key as the destination's ID.
    func fetchColumns(_ fetch: CompiledFetch) throws -> [[SelectedValue]] {
        let sql = fetch.columnsStatement(in: plans[fetch.entityIndex])
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(fetch.columnBindings)
            var rows: [[SelectedValue]] = []
            while try statement.step() { rows.append(selectedValues(statement, fetch.columns, from: 0)) }
            return rows
        }
    }

    /// Each matching row's ID and selected columns, in one statement (rows of
    /// an entity outside the hierarchy skipped, as `fetchIDs` skips them).
    func fetchKeyedColumns(_ fetch: CompiledFetch) throws -> [(ManagedObjectID, [SelectedValue])] {
        let plan = plans[fetch.entityIndex]
        let sql = fetch.keyedColumnsStatement(in: plan)
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(fetch.bindings)
            var rows: [(ManagedObjectID, [SelectedValue])] = []
            while try statement.step() {
                let entityIndex = statement.int(at: 0) - 1
                guard plan.layout(forEntityIndex: entityIndex) != nil else { continue }
                let id = ManagedObjectID(storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: statement.int64(at: 1))
                rows.append((id, selectedValues(statement, fetch.columns, from: 2)))
            }
            return rows
        }
    }

    /// The columns of the current row from `offset` on, as `columns` reads them.
    private func selectedValues(_ statement: Statement, _ columns: [SelectedColumn], from offset: Int32) -> [SelectedValue] {
        var row: [SelectedValue] = []
        row.reserveCapacity(columns.count)
        var index = offset
        for column in columns {
            switch column.kind {
            case .attribute(let type):
                row.append(.value(ValueCoding.read(statement, at: index, as: type)))
            case .markedData:
                let stored = ValueCoding.read(statement, at: index, as: .binaryDataAttributeType)
                row.append(.value(valueAdapter?.decode(stored) ?? stored))
            case .object(let destination):
                row.append(.object(statement.isNull(at: index) ? nil : ManagedObjectID(
                    storeIdentifier: identifier, entityIndex: destination, primaryKey: statement.int64(at: index))))
            case .objectOfEntity(let declared):
                let recorded = statement.int(at: index + 1) - 1
                let entityIndex = model.entities[declared].hierarchyIndexes.contains(recorded) ? recorded : declared
                row.append(.object(statement.isNull(at: index) ? nil : ManagedObjectID(
                    storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: statement.int64(at: index))))
            }
            index += column.width
        }
        return row
    }
}

/// A value read by `fetchColumns`.
enum SelectedValue: Sendable {
    case value(AttributeValue)
    case object(ManagedObjectID?)
}
