import Foundation
import FaultlinePredicate

/// A point in a store's persistent history: the key of its latest
/// transaction then (Core Data's `NSPersistentHistoryToken`). `Codable`, so a
/// reader persists where it got to and continues there after a restart;
/// tokens of one store compare by that key.
public struct PersistentHistoryToken: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The store's UUID (`Z_METADATA.Z_UUID`).
    public let storeUUID: String
    /// The key (`ATRANSACTION.Z_PK`) of the last transaction the token covers;
    /// 0 before any.
    public let transactionNumber: Int64

    public init(storeUUID: String, transactionNumber: Int64) {
        self.storeUUID = storeUUID
        self.transactionNumber = transactionNumber
    }

    /// Orders tokens of one store; tokens of different stores order by store
    /// UUID, which means nothing beyond giving a total order.
    public static func < (left: Self, right: Self) -> Bool {
        (left.storeUUID, left.transactionNumber) < (right.storeUUID, right.transactionNumber)
    }

    public var description: String { "\(storeUUID):\(transactionNumber)" }
}

/// What a change did to its object (Core Data's `NSPersistentHistoryChangeType`).
public enum PersistentHistoryChangeType: Int, Sendable, Codable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// One object's change within a transaction (Core Data's `NSPersistentHistoryChange`).
public struct PersistentHistoryChange: Sendable {
    /// The change row's key (`ACHANGE.Z_PK`).
    public let changeID: Int64
    public let changedObjectID: ManagedObjectID
    /// The name of the changed object's entity (Core Data's `changedEntity`).
    public let changedEntityName: String
    public let changeType: PersistentHistoryChangeType
    /// For an update, the properties it changed; nil for inserts and deletes.
    public let updatedProperties: Set<String>?
    /// For a delete, the values of the attributes marked
    /// `preservesValueInHistoryOnDeletion`; nil otherwise.
    public let tombstone: [String: AttributeValue]?
}

/// One committed save or batch request (Core Data's `NSPersistentHistoryTransaction`).
public struct PersistentHistoryTransaction: Sendable {
    /// The transaction's key (`ATRANSACTION.Z_PK`), increasing with each commit.
    public let transactionNumber: Int64
    /// The token just after this transaction: fetching after it returns the later ones.
    public let token: PersistentHistoryToken
    public let timestamp: Date
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The saving context's `name`.
    public let contextName: String?
    public let bundleID: String?
    /// The saving process's name.
    public let processID: String?
    /// The transaction's changes, in the order they were recorded.
    public internal(set) var changes: [PersistentHistoryChange]
    /// Change rows naming an entity the model does not have (history written
    /// by another model version), left out of `changes`.
    public internal(set) var unreadableChangeCount: Int
}

extension PersistentHistoryTransaction: PredicateSubject {
    /// The keys a history request's predicate may name: `author`,
    /// `contextName`, `bundleID`, `processID`, `timestamp`, `transactionNumber`.
    public func predicateValue(forKey key: String) throws -> PredicateOperand {
        func text(_ value: String?) -> PredicateOperand { value.map { .value(.string($0)) } ?? .null }
        switch key {
        case "author": return text(author)
        case "contextName": return text(contextName)
        case "bundleID": return text(bundleID)
        case "processID": return text(processID)
        case "timestamp": return .value(.date(timestamp))
        case "transactionNumber": return .value(.int(transactionNumber))
        default: throw FetchPredicateError.unknownKey(entity: "PersistentHistoryTransaction", key: key)
        }
    }
}

/// What a history request's `changePredicate` evaluates: a change within its
/// transaction (Core Data's fetch request of `NSPersistentHistoryChange`).
/// Its keys: `changeType` (0 insert, 1 update, 2 delete:
/// `PersistentHistoryChangeType`'s raw values, Core Data's),
/// `changedEntity.name` (or `changedEntityName`), `changedObjectID`,
/// `changeID`, and `transaction` with the keys of a transaction's predicate
/// (`transaction.author`).
struct PersistentHistoryChangeSubject: PredicateSubject {
    let change: PersistentHistoryChange
    let transaction: PersistentHistoryTransaction

    func predicateValue(forKey key: String) throws -> PredicateOperand {
        switch key {
        case "changeType": return .value(.int(Int64(change.changeType.rawValue)))
        case "changedEntity": return .object(ChangedEntity(name: change.changedEntityName))
        case "changedEntityName": return .value(.string(change.changedEntityName))
        case "changedObjectID":
            return .value(.objectID(PredicateObjectID(entityName: change.changedEntityName, primaryKey: change.changedObjectID.primaryKey)))
        case "changeID": return .value(.int(change.changeID))
        case "transaction": return .object(transaction)
        default: throw FetchPredicateError.unknownKey(entity: "PersistentHistoryChange", key: key)
        }
    }

    /// `changedEntity`, of which a predicate reads the name.
    private struct ChangedEntity: PredicateSubject {
        let name: String

        func predicateValue(forKey key: String) throws -> PredicateOperand {
            guard key == "name" else { throw FetchPredicateError.unknownKey(entity: "NSEntityDescription", key: key) }
            return .value(.string(name))
        }
    }
}
