import Foundation

/// A value behind a pthread mutex (`NSLock`), with `Mutex`'s `withLock` shape.
///
/// Used instead of `Synchronization.Mutex` for state shared between contexts:
/// under contention `Mutex`'s futex slow path hides the happens-before edge from
/// ThreadSanitizer, which then reports races that cannot happen; a pthread mutex
/// is understood, so a sanitizer run of the concurrency tests means something.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    /// Only ever reached under `lock`, so Swift's dynamic exclusivity check
    /// (~125 instructions an access, paid by every row-cache lookup) adds
    /// nothing: a nested `withLock` would deadlock on the lock first.
    /// (`@usableFromInline`, and `withLock` `@inlinable`, so the core's calls
    /// are specialized and inlined across the module boundary.)
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable package init(_ value: Value) { self.value = value }

    @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
