import Foundation
import FaultlinePredicate
import FaultlineSQLite

/// Reads or deletes a store's persistent history (Core Data's
/// `NSPersistentHistoryChangeRequest`): run with `execute(_:)` on a context
/// or a coordinator.
public struct PersistentHistoryChangeRequest: Sendable {
    enum Bound: Sendable {
        case token(PersistentHistoryToken?)
        case date(Date)
        case transaction(Int64)
    }

    enum Action: Sendable { case fetch(after: Bound), delete(before: Bound) }

    let action: Action
    /// Keeps only the transactions it matches (fetches only); its keys are
    /// `PersistentHistoryTransaction`'s: `author`, `contextName`, `bundleID`,
    /// `processID`, `timestamp`, `transactionNumber`.
    public var predicate: FetchPredicate?

    /// The transactions after `token` (all of them for nil), oldest first.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> Self { Self(action: .fetch(after: .token(token))) }
    /// The transactions committed after `date`.
    public static func fetchHistory(after date: Date) -> Self { Self(action: .fetch(after: .date(date))) }
    /// The transactions after `transaction`.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction) -> Self {
        Self(action: .fetch(after: .transaction(transaction.transactionNumber)))
    }
    /// Deletes the transactions up to and including `token`'s.
    public static func deleteHistory(before token: PersistentHistoryToken) -> Self {
        Self(action: .delete(before: .token(token)))
    }
    /// Deletes the transactions committed before `date`.
    public static func deleteHistory(before date: Date) -> Self { Self(action: .delete(before: .date(date))) }
    /// Deletes the transactions before `transaction` (not itself).
    public static func deleteHistory(before transaction: PersistentHistoryTransaction) -> Self {
        Self(action: .delete(before: .transaction(transaction.transactionNumber)))
    }

    private init(action: Action) { self.action = action }
}

/// What a history request returned.
public struct PersistentHistoryResult: Sendable {
    /// The transactions fetched, oldest first (empty for a delete).
    public let transactions: [PersistentHistoryTransaction]
    /// How many transactions a delete removed (0 for a fetch).
    public let deletedTransactionCount: Int
}

/// Why a history request failed.
public enum PersistentHistoryError: Error, Equatable, CustomStringConvertible {
    /// The token belongs to another store.
    case foreignToken(tokenStore: String, store: String)

    public var description: String {
        switch self {
        case .foreignToken(let tokenStore, let store):
            return "the history token is of store \(tokenStore), not of this store (\(store))"
        }
    }
}

extension PersistentStoreCoordinator {
    /// The token of the store's latest transaction (Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`); a fetch after it
    /// returns only what commits later. Nil when the store has no history.
    public func currentPersistentHistoryToken() throws -> PersistentHistoryToken? {
        try withReader { connection in
            guard try HistoryStatements.layout(on: connection) != nil else { return nil }
            return PersistentHistoryToken(storeUUID: storeUUID, transactionNumber: try HistoryStatements.latestTransaction(on: connection))
        }
    }

    /// Runs a history request. Fetches read on a reader connection; deletes
    /// write through the writer, in one transaction.
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        switch request.action {
        case .fetch(let bound):
            return PersistentHistoryResult(transactions: try fetchHistory(after: bound, predicate: request.predicate),
                                           deletedTransactionCount: 0)
        case .delete(let bound):
            let deleted = try writer.write { connection -> (Int, CommittedChanges?) in
                guard try HistoryStatements.layout(on: connection) != nil else { throw StoreError.noPersistentHistory(path: storePath) }
                let first: Int64? = switch bound {
                case .token(let token): try token.map { try ownKey(of: $0) + 1 }
                case .date(let date): try HistoryStatements.firstTransaction(after: date, on: connection)
                    ?? HistoryStatements.latestTransaction(on: connection) + 1
                case .transaction(let key): key
                }
                guard let first else { return (0, nil) }
                return (try HistoryStatements.deleteTransactions(before: first, on: connection), nil)
            }.result
            return PersistentHistoryResult(transactions: [], deletedTransactionCount: deleted)
        }
    }

    var storePath: String {
        if case .file(let url) = location { return url.path }
        return ":memory:"
    }

    private func ownKey(of token: PersistentHistoryToken) throws -> Int64 {
        guard token.storeUUID == storeUUID else {
            throw PersistentHistoryError.foreignToken(tokenStore: token.storeUUID, store: storeUUID)
        }
        return token.transactionNumber
    }

    private func fetchHistory(after bound: PersistentHistoryChangeRequest.Bound, predicate: FetchPredicate?) throws
        -> [PersistentHistoryTransaction]
    {
        var afterKey: Int64?
        var afterTime: Double?
        switch bound {
        case .token(let token): afterKey = try token.map(ownKey)
        case .date(let date): afterTime = date.timeIntervalSinceReferenceDate
        case .transaction(let key): afterKey = key
        }
        return try withReader { connection in
            try historyTransactions(afterKey: afterKey, afterTime: afterTime, predicate: predicate, on: connection)
        }
    }

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

extension ManagedObjectContext {
    /// Runs a history request on the context's store (Core Data's `execute(_:)`).
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try coordinator.execute(request)
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
