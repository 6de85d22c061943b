import Foundation
import FaultlineSQLite

// What every batch request shares: the transaction on the writer, the counters,
// and afterwards the row cache and the live contexts.

extension PersistentStoreCoordinator {
    /// Runs `body` in one IMMEDIATE transaction on the writer and records the
    /// SQLite work it did.
    func runBatch(_ body: (Connection) throws -> BatchOutcome) throws -> BatchOutcome {
        if let writeRefusal { throw writeRefusal }
        var (outcome, sql) = try writeTransaction(body)
        outcome.counters.sql = sql
        return outcome
    }

    /// After a commit: rows the request changed leave the row cache, and so do
    /// the entities whose derived attributes the triggers may have rewritten;
    /// every live context gets the changes in its inbox (merged at once by
    /// those that merge automatically, or through `mergeChanges`).
    func publish(_ outcome: BatchOutcome, resultType: BatchResultType) -> BatchResult {
        var changes = outcome.changes
        rowCache.invalidate(changes.updatedObjectIDs)
        rowCache.invalidate(changes.deletedObjectIDs)
        let stale = staleEntities(deriving: outcome.touchedEntities)
        rowCache.invalidate(entities: stale)
        changes.staleEntities = stale
        if !changes.updatedObjectIDs.isEmpty || !changes.deletedObjectIDs.isEmpty || !stale.isEmpty {
            observers.broadcast(changes.didSave(source: ObjectIdentifier(self)))
        }
        return BatchResult(
            resultType: resultType, count: resultType == .statusOnly ? 0 : outcome.count,
            objectIDs: resultType == .objectIDs ? outcome.objectIDs : [], changes: changes, counters: outcome.counters)
    }
}

extension ManagedObjectContext {
    /// Runs a batch insert on the context's store (Core Data's
    /// `execute(_:)`); call it on the context's queue. Contexts that merge
    /// automatically — this one included — apply the changes at once.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        let result = try coordinator.execute(request)
        processPendingChanges()
        return result
    }

    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        let result = try coordinator.execute(request)
        processPendingChanges()
        return result
    }

    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        let result = try coordinator.execute(request)
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
        coordinator.rowCache.invalidate(changes.updatedObjectIDs)
        coordinator.rowCache.invalidate(changes.deletedObjectIDs)
        mergeChanges(fromContextDidSave: changes.didSave(source: ObjectIdentifier(coordinator)))
    }

    public func mergeChanges(fromRemoteContextSave changes: [String: [ManagedObjectID]]) {
        let updated = changes["updated"] ?? []
        let deleted = changes["deleted"] ?? []
        coordinator.rowCache.invalidate(updated)
        coordinator.rowCache.invalidate(deleted)
        mergeChanges(fromContextDidSave: ContextDidSave(
            insertedObjectIDs: Set(changes["inserted"] ?? []), updatedObjectIDs: Set(updated),
            deletedObjectIDs: Set(deleted), staleEntities: [], source: ObjectIdentifier(coordinator)))
    }
}
