import Foundation

/// The private-queue contexts whose blocks the current thread is running,
/// innermost last.
///
/// `DispatchQueue.getSpecific` answers for the innermost queue only, while
/// `DispatchQueue.sync` runs its block on the calling thread with every queue
/// further out still held. So in Core Data's common pattern — a child
/// context's `performAndWait` and save inside the parent's `performAndWait` —
/// the save's `performAndWait` on the parent found itself off the parent's
/// queue, waited for it, and libdispatch trapped the deadlock. With this list
/// a context whose queue this thread holds further out runs the block inline,
/// as Core Data's does.
enum HeldQueues {
    /// Per thread, through a pthread key: Swift has no thread-local storage.
    private final class Held {
        var contexts: [ObjectIdentifier] = []
    }

    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<Held>.fromOpaque(pointer).release()
        }
        return created == 0 ? key : nil
    }()

    /// The current thread's list; nil only when no pthread key was available.
    private static func current(creating: Bool) -> Held? {
        guard let key else { return nil }
        if let pointer = pthread_getspecific(key) { return Unmanaged<Held>.fromOpaque(pointer).takeUnretainedValue() }
        guard creating else { return nil }
        let held = Held()
        guard pthread_setspecific(key, Unmanaged.passRetained(held).toOpaque()) == 0 else {
            Unmanaged.passUnretained(held).release()
            return nil
        }
        return held
    }

    /// Whether this thread runs a block of `context` further out.
    static func contains(_ context: ObjectIdentifier) -> Bool {
        current(creating: false)?.contexts.contains(context) ?? false
    }

    /// Stands for the main queue in the list: a block of another context run
    /// by `performAndWait` from a main-queue block (after `dispatchMain()`, on
    /// a worker thread) still holds the main queue, though neither the thread
    /// nor the queue it runs on says so.
    private enum MainQueue {}
    static let mainQueue = ObjectIdentifier(MainQueue.self)

    /// Runs `body` with `context` noted as held by this thread, and the main
    /// queue too when `withMainQueue`.
    static func holding<Result>(_ context: ObjectIdentifier, withMainQueue: Bool = false,
                                _ body: () throws -> Result) rethrows -> Result {
        guard let held = current(creating: true) else { return try body() }
        held.contexts.append(context)
        if withMainQueue { held.contexts.append(mainQueue) }
        defer { held.contexts.removeLast(withMainQueue ? 2 : 1) }
        return try body()
    }
}
