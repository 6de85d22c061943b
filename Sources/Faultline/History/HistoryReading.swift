import Foundation
import FaultlinePredicate
import FaultlineSQLite

// Reading history rows into the model's terms: transactions with their names
// resolved, each change's object, type, updated properties (the `ZCOLUMNS`
// mask through the entity's slots) and tombstone (read as the attributes'
// own columns are, `ValueCoding.read`).

extension PersistentStoreCoordinator {
    /// The transactions after `afterKey` and `afterTime` (nil: any), with
    /// their changes, read on `connection`.
    func historyTransactions(afterKey: Int64?, afterTime: Double? = nil, predicate: FetchPredicate? = nil,
                             changePredicate: FetchPredicate? = nil,
                             on connection: Connection) throws -> [PersistentHistoryTransaction] {
        let layouts = history?.layouts ?? HistoryRecorder.layouts(of: model)
        guard let tables = try HistoryStatements.layout(on: connection) else { throw StoreError.noPersistentHistory(path: location.path) }
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
        // Transaction keys ascend, and so do the change rows' transactions.
        let position = [Int64: Int](uniqueKeysWithValues: transactions.enumerated().map { ($1.transactionNumber, $0) })
        let tombstoneTypes = layouts.indices.map { index in
            layouts[index].tombstoneAttributes.map { model.entities[index].attributes[$0].attributeType }
        }
        for row in try HistoryStatements.changes(
            transactions: first.transactionNumber, through: last.transactionNumber,
            tombstoneColumns: tables.tombstoneColumns,
            tombstoneTypes: { entityNumber in
                tombstoneTypes.indices.contains(Int(entityNumber) - 1) ? tombstoneTypes[Int(entityNumber) - 1] : []
            }, on: connection)
        {
            // A transaction the predicate left out.
            guard let index = position[row.transaction] else { continue }
            if let change = historyChange(row, layouts: layouts) {
                if let changePredicate,
                   !(try changePredicate.evaluate(with: PersistentHistoryChangeSubject(change: change, transaction: transactions[index]))) {
                    continue
                }
                transactions[index].changes.append(change)
            } else {
                transactions[index].unreadableChangeCount += 1
            }
        }
        // A change predicate keeps the transactions with a change it matched.
        if changePredicate != nil { transactions.removeAll { $0.changes.isEmpty } }
        return transactions
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
            let marked = valueAdapter?.markedAttributes ?? .none
            for (column, index) in layout.tombstoneAttributes.enumerated() where column < row.tombstones.count {
                // Copied from the row as stored: an external-storage value keeps its marker.
                let stored = row.tombstones[column]
                values[attributes[index].name] = marked.contains(entityIndex: entityIndex, attributeIndex: index)
                    ? valueAdapter?.decode(stored) ?? stored : stored
            }
            tombstone = values
        }
        return PersistentHistoryChange(
            changeID: row.key,
            changedObjectID: ManagedObjectID(storeIdentifier: identifier, entityIndex: entityIndex, primaryKey: row.entityKey),
            changedEntityName: model.entities[entityIndex].name,
            changeType: type, updatedProperties: updated, tombstone: tombstone)
    }
}
