import Foundation
import FaultlinePredicate
import FaultlineSQLite

// Reading history rows into the model's terms: transactions with their names
// resolved, each change's object, type, updated properties (the `ZCOLUMNS`
// mask through the entity's slots) and tombstone (by the attributes' types).

extension PersistentStoreCoordinator {
    /// The transactions after `afterKey` and `afterTime` (nil: any), with
    /// their changes, read on `connection`.
    func historyTransactions(afterKey: Int64?, afterTime: Double? = nil, predicate: FetchPredicate? = nil,
                             on connection: Connection) throws -> [PersistentHistoryTransaction] {
        let layouts = history?.layouts ?? HistoryRecorder.layouts(of: model)
        guard let tables = try HistoryStatements.layout(on: connection) else { throw StoreError.noPersistentHistory(path: storePath) }
        var transactions = try HistoryStatements.transactions(
            afterKey: afterKey, afterTime: afterTime, internsStrings: tables.internsStrings, on: connection
        ).map { row in
            PersistentHistoryTransaction(
                transactionNumber: row.key, token: PersistentHistoryToken(storeUUID: storeUUID, transactionNumber: row.key),
                timestamp: Date(timeIntervalSinceReferenceDate: row.timestamp), author: row.author,
                contextName: row.contextName, bundleID: row.bundleID, processID: row.processID, changes: [],
                unreadableChangeCount: 0)
        }
        if let predicate { transactions = try transactions.filter { try predicate.evaluate(with: $0) } }
        guard let first = transactions.first, let last = transactions.last else { return [] }
        var changes: [Int64: [PersistentHistoryChange]] = [:]
        var unreadable: [Int64: Int] = [:]
        for row in try HistoryStatements.changes(
            transactions: first.transactionNumber, through: last.transactionNumber,
            tombstoneColumns: tables.tombstoneColumns, on: connection)
        {
            guard let change = historyChange(row, layouts: layouts) else {
                unreadable[row.transaction, default: 0] += 1
                continue
            }
            changes[row.transaction, default: []].append(change)
        }
        return transactions.map { transaction in
            PersistentHistoryTransaction(
                transactionNumber: transaction.transactionNumber, token: transaction.token, timestamp: transaction.timestamp,
                author: transaction.author, contextName: transaction.contextName, bundleID: transaction.bundleID,
                processID: transaction.processID, changes: changes[transaction.transactionNumber] ?? [],
                unreadableChangeCount: unreadable[transaction.transactionNumber] ?? 0)
        }
    }

    /// One change row in the model's terms; nil for an entity the model does
    /// not have, a change type Core Data does not write, or a mask that
    /// cannot be the entity's.
    private func historyChange(_ row: HistoryStatements.ChangeRow, layouts: [HistoryEntityLayout]) -> PersistentHistoryChange? {
        let entityIndex = Int(row.entity) - 1
        guard layouts.indices.contains(entityIndex),
              let type = PersistentHistoryChangeType(rawValue: Int(row.type)) else { return nil }
        let layout = layouts[entityIndex]
        var updated: Set<String>?
        if type == .update {
            guard let names = layout.propertyNames(inMask: row.columns ?? []) else { return nil }
            updated = names
        }
        var tombstone: [String: AttributeValue]?
        if type == .delete, !layout.tombstoneAttributes.isEmpty {
            let attributes = model.entities[entityIndex].attributes
            var values: [String: AttributeValue] = [:]
            for (column, index) in layout.tombstoneAttributes.enumerated() where column < row.tombstones.count {
                values[attributes[index].name] = row.tombstones[column].attributeValue(as: attributes[index].attributeType)
            }
            tombstone = values
        }
        return PersistentHistoryChange(
            changeID: row.key,
            changedObjectID: ManagedObjectID(storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: row.entityKey),
            changeType: type, updatedProperties: updated, tombstone: tombstone)
    }
}

extension SQLValue {
    /// A tombstone column's value as an attribute of `type` reads it, by the
    /// same rules as a row's (`ValueCoding.read`).
    func attributeValue(as type: AttributeType) -> AttributeValue {
        switch (self, type) {
        case (.null, _): return .null
        case (.integer(let value), .integer16AttributeType), (.integer(let value), .integer32AttributeType),
             (.integer(let value), .integer64AttributeType):
            return .integer(value)
        case (.integer(let value), .booleanAttributeType): return .bool(value != 0)
        case (.integer(let value), .doubleAttributeType), (.integer(let value), .floatAttributeType): return .double(Double(value))
        case (.real(let value), .doubleAttributeType), (.real(let value), .floatAttributeType): return .double(value)
        case (.integer(let value), .dateAttributeType): return .date(Date(timeIntervalSinceReferenceDate: Double(value)))
        case (.real(let value), .dateAttributeType): return .date(Date(timeIntervalSinceReferenceDate: value))
        case (.text(let value), .stringAttributeType): return .string(value)
        case (.text(let value), .URIAttributeType): return URL(string: value).map { .uri($0) } ?? .null
        case (.blob(let data), .UUIDAttributeType) where data.count == 16:
            return .uuid(data.withUnsafeBytes { bytes in
                var uuid = UUID().uuid
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
                return UUID(uuid: uuid)
            })
        case (.integer(let value), .decimalAttributeType): return .decimal(Decimal(value))
        case (.real(let value), .decimalAttributeType): return Decimal(string: String(value)).map { .decimal($0) } ?? .null
        case (.text(let value), .decimalAttributeType): return Decimal(string: value).map { .decimal($0) } ?? .null
        case (.blob(let data), _): return .data(data)
        case (.text(let value), _): return .string(value)
        case (.integer(let value), _): return .integer(value)
        case (.real(let value), _): return .double(value)
        }
    }
}
