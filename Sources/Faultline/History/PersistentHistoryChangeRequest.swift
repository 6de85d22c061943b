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
    /// Keeps only the changes it matches, and the transactions left with one
    /// (fetches only; Core Data's fetch request of `NSPersistentHistoryChange`
    /// as the request's `fetchRequest`). Its keys: `changeType` (0 insert,
    /// 1 update, 2 delete), `changedEntity.name` (or `changedEntityName`),
    /// `changedObjectID`, `changeID`, and `transaction.` with a key of
    /// `predicate` (`changedEntity.name == 'Item' AND transaction.author != 'app'`).
    public var changePredicate: FetchPredicate?

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
    /// Transactions after the token's were deleted (`deleteHistory`): what
    /// changed since cannot be read, so the reader must fetch again instead
    /// of merging history (Core Data's `NSPersistentHistoryTokenExpiredError`, 134301).
    case expiredToken(transactionNumber: Int64)

    public var description: String {
        switch self {
        case .foreignToken(let tokenStore, let store):
            return "the history token is of store \(tokenStore), not of this store (\(store))"
        case .expiredToken(let number):
            return "the history after transaction \(number) was deleted: fetch the objects again instead of merging history"
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
            return PersistentHistoryResult(
                transactions: try fetchHistory(after: bound, predicate: request.predicate, changePredicate: request.changePredicate),
                deletedTransactionCount: 0)
        case .delete(let bound):
            let deleted = try writer.write { connection -> (Int, CommittedChanges?) in
                guard try HistoryStatements.layout(on: connection) != nil else { throw StoreError.noPersistentHistory(path: location.path) }
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

    private func ownKey(of token: PersistentHistoryToken) throws -> Int64 {
        guard token.storeUUID == storeUUID else {
            throw PersistentHistoryError.foreignToken(tokenStore: token.storeUUID, store: storeUUID)
        }
        return token.transactionNumber
    }

    private func fetchHistory(
        after bound: PersistentHistoryChangeRequest.Bound, predicate: FetchPredicate?, changePredicate: FetchPredicate?
    ) throws -> [PersistentHistoryTransaction] {
        var afterKey: Int64?
        var afterTime: Double?
        switch bound {
        case .token(let token): afterKey = try token.map(ownKey)
        case .date(let date): afterTime = date.timeIntervalSinceReferenceDate
        case .transaction(let key): afterKey = key
        }
        return try withReader { connection in
            if case .token(let token?) = bound, try HistoryStatements.transactionsDeleted(after: token.transactionNumber, on: connection) {
                throw PersistentHistoryError.expiredToken(transactionNumber: token.transactionNumber)
            }
            return try historyTransactions(
                afterKey: afterKey, afterTime: afterTime, predicate: predicate, changePredicate: changePredicate, on: connection)
        }
    }
}

extension ManagedObjectContext {
    /// Runs a history request on the context's store (Core Data's `execute(_:)`).
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try coordinator.execute(request)
    }
}

extension PersistentHistoryError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
