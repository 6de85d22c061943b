#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, with `Mutex`'s `withLock` shape.
///
/// Used instead of `Synchronization.Mutex` for state shared between contexts:
/// under contention `Mutex`'s futex slow path hides the happens-before edge from
/// ThreadSanitizer, which then reports races that cannot happen; a pthread mutex
/// is understood, so a sanitizer run of the concurrency tests means something.
/// The mutex is called directly rather than through `NSLock`, whose open
/// methods and `var` pointer cost a dynamic dispatch and an exclusivity check
/// on every lock and unlock — paid twice per row-cache lookup.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only ever reached under `mutex`, so Swift's dynamic exclusivity check
    /// (~125 instructions an access, paid by every row-cache lookup) adds
    /// nothing: a nested `withLock` would deadlock on the lock first.
    /// (`@usableFromInline`, and `withLock` `@inlinable`, so the core's calls
    /// are specialized and inlined across the module boundary.)
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
