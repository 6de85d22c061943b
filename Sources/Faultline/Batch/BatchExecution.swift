import Foundation
import FaultlineSQLite

// What every batch request shares: the store's writer (its transaction and its
// after-commit work) and the counters; and how contexts merge the changes.

extension PersistentStoreCoordinator {
    /// Runs a batch insert in one immediate transaction on the writer,
    /// bypassing contexts; then drops stale rows from the row cache and tells
    /// live contexts.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try BatchExecutor(store: writeAccess).insert(request)
    }

    /// A batch executor recording `context`'s author and name in the history.
    func batchExecutor(for context: ManagedObjectContext) -> BatchExecutor {
        BatchExecutor(store: writeAccess, author: context.transactionAuthor, contextName: context.name)
    }

    /// Runs a batch update in one transaction; `Z_OPT` of every updated row is
    /// bumped, and the triggers keep derived attributes right.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try BatchExecutor(store: writeAccess).update(request)
    }

    /// Runs a batch delete in one transaction, applying the delete rules of
    /// every deleted row's relationships (cascade, nullify, deny).
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try BatchExecutor(store: writeAccess).delete(request)
    }
}

/// Runs batch requests against what a store allows direct writes to use
/// (`StoreWriteAccess`): the requests never see the coordinator itself.
struct BatchExecutor {
    let store: StoreWriteAccess
    /// The executing context's `transactionAuthor` and `name`, for persistent history.
    var author: String?
    var contextName: String?

    /// Runs `body` in one transaction through the store's writer and records
    /// the SQLite work it did. After the commit the writer publishes what it
    /// changed: rows leave the row cache, entities whose derived attributes
    /// the triggers may have rewritten go too, and every live context gets the
    /// changes in its inbox (merged at once by those that merge automatically,
    /// or through `mergeChanges`). Inserted IDs are not published: merging does
    /// nothing with them, and a streamed insert may have millions.
    func run(resultType: BatchResultType, _ body: (Connection) throws -> BatchOutcome) throws -> BatchResult {
        let source = store.source
        var (outcome, published, sql) = try store.writer.write { connection in
            let outcome = try body(connection)
            var changes = StoreChanges(
                source: source, updated: outcome.changes.updatedObjectIDs,
                deleted: Set(outcome.changes.deletedObjectIDs))
            for entity in outcome.touchedEntities { changes.touch(entity) }
            changes.unlistedInserts = Set(outcome.changes.insertedRanges.map(\.entityIndex))
            changes.relinkedEntities = outcome.changes.relinkedEntities
            changes.historyTransaction = outcome.historyTransaction
            return (outcome, CommittedChanges(changes: changes))
        }
        store.release(outcome.releasedFiles)
        outcome.counters.sql = sql
        outcome.changes.staleEntities = published?.staleEntities ?? []
        return BatchResult(
            resultType: resultType, count: resultType == .statusOnly ? 0 : outcome.count,
            objectIDs: resultType == .objectIDs ? outcome.objectIDs : [], changes: outcome.changes, counters: outcome.counters)
    }
}

extension ManagedObjectContext {
    /// Runs a batch insert on the context's store (Core Data's
    /// `execute(_:)`); call it on the context's queue. Contexts that merge
    /// automatically — this one included — apply the changes at once.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        checkQueue()
        let result = try coordinator.batchExecutor(for: self).insert(request)
        processPendingChanges()
        return result
    }

    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        checkQueue()
        let result = try coordinator.batchExecutor(for: self).update(request)
        processPendingChanges()
        return result
    }

    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        checkQueue()
        let result = try coordinator.batchExecutor(for: self).delete(request)
        processPendingChanges()
        return result
    }

    /// Core Data's `mergeChanges(fromRemoteContextSave:into:)`: merges the
    /// changes a batch request returned into each context, on its own queue.
    /// Updated objects turn back into faults (their next access reads the new
    /// row), deleted objects leave the context. Call it from outside those
    /// contexts' queues (inside one, use the instance method).
    public static func mergeChanges(fromRemoteContextSave changes: BatchChanges, into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(fromRemoteContextSave: changes) }
        }
    }

    /// The dictionary form: object IDs under `"inserted"`, `"updated"` and
    /// `"deleted"` (Core Data's `NSInsertedObjectIDsKey`… keys).
    public static func mergeChanges(
        fromRemoteContextSave changes: [String: [ManagedObjectID]], into contexts: [ManagedObjectContext]
    ) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(fromRemoteContextSave: changes) }
        }
    }

    /// Merges a batch request's changes into this context; call on its queue.
    public func mergeChanges(fromRemoteContextSave changes: BatchChanges) {
        checkQueue()
        coordinator.rowCache.invalidate(changes.updatedObjectIDs)
        coordinator.rowCache.invalidate(changes.deletedObjectIDs)
        var merged = StoreChanges(
            source: ObjectIdentifier(coordinator), updated: changes.updatedObjectIDs, deleted: Set(changes.deletedObjectIDs))
        merged.staleEntities = changes.staleEntities
        merged.unlistedInserts = Set(changes.insertedRanges.map(\.entityIndex))
        merged.relinkedEntities = changes.relinkedEntities
        mergeChanges(fromContextDidSave: ContextDidSave(merged))
    }

    public func mergeChanges(fromRemoteContextSave changes: [String: [ManagedObjectID]]) {
        checkQueue()
        let updated = changes["updated"] ?? []
        let deleted = changes["deleted"] ?? []
        coordinator.rowCache.invalidate(updated)
        coordinator.rowCache.invalidate(deleted)
        mergeChanges(fromContextDidSave: ContextDidSave(StoreChanges(
            source: ObjectIdentifier(coordinator), inserted: changes["inserted"] ?? [], updated: updated,
            deleted: Set(deleted))))
    }
}
