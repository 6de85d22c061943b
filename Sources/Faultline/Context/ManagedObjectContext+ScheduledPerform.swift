/// Core Data's `perform(schedule:_:)`: the block-running form async code
/// awaits, and when it runs.
extension ManagedObjectContext {
    /// When `perform(schedule:_:)` runs its block: Core Data's
    /// `NSManagedObjectContext.ScheduledTaskType`.
    public enum ScheduledTaskType: Sendable, Hashable {
        /// At once, inline, when the caller is already on the context's queue
        /// (the view context from the main actor, or inside one of the
        /// context's blocks), as `performAndWait` runs it; enqueued otherwise.
        case immediate
        /// On the context's queue after the blocks already there, as
        /// `perform(_:)` runs it, even from the context's own queue.
        case enqueued
    }

    /// Runs `body` on the context's queue and returns its result.
    nonisolated(nonsending) public func perform<Result: Sendable>(
        schedule: ScheduledTaskType = .immediate, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        if schedule == .immediate, isOnOwnQueue { return try performAndWait(body) }
        return try await withCheckedThrowingContinuation { continuation in
            enqueue({ Swift.Result { try body() } }, then: { continuation.resume(with: $0) })
        }
    }

    /// The same for a block that cannot throw: awaited without `try`, as
    /// Core Data's, which rethrows.
    nonisolated(nonsending) public func perform<Result: Sendable>(
        schedule: ScheduledTaskType = .immediate, _ body: @escaping @Sendable () -> Result
    ) async -> Result {
        if schedule == .immediate, isOnOwnQueue { return performAndWait(body) }
        return await withCheckedContinuation { continuation in
            enqueue(body, then: { continuation.resume(returning: $0) })
        }
    }
}
