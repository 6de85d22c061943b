import Foundation

/// Core Data's `-com.apple.CoreData.ConcurrencyDebug 1` for Faultline:
/// with `FAULTLINE_CONCURRENCY_DEBUG=1` in the environment, a context used
/// off its queue stops the process at the call, naming the call, the context
/// and the thread.
///
/// Off-queue use is a data race on the context's unsynchronised state; it
/// shows up later, far from its cause, as a lost change, a "recursive save",
/// or a crash inside a dictionary. The check turns it into a stop at the
/// offending line in a debug or test run, as Core Data's assertion does. It
/// stops rather than throws because most of the calls it guards cannot throw,
/// and because it is a programming error no caller could handle — which is
/// also why it is opt-in: without the variable nothing is checked.
///
/// Checked: the context's own calls (fetches, counts, saves, inserts,
/// deletes, lookups, refreshes, batch requests run through it, its change
/// sets), a fault firing, and an object's first change since the last save.
/// Not checked, to keep typed accessors at the cost of a load: reads of
/// values an object already holds, and further writes to an object already
/// changed. Setters of a context's configuration (`mergePolicy`, `name`, …)
/// may be called from any thread, as Core Data documents for its own.
enum ConcurrencyDebug {
    static let isEnabled = ProcessInfo.processInfo.environment["FAULTLINE_CONCURRENCY_DEBUG"].map { !$0.isEmpty && $0 != "0" } ?? false

    /// Stops the process: `operation` ran on `context` off its queue.
    static func violation(_ operation: StaticString, on context: ManagedObjectContext) -> Never {
        let name = context.name.map { " '\($0)'" } ?? ""
        let message = """
            Faultline concurrency violation (FAULTLINE_CONCURRENCY_DEBUG): \(operation) was called on context\(name) \
            off its queue. A context and its objects are used only inside its perform or performAndWait blocks \
            (a main-queue context: on the main thread).

            """
        FileHandle.standardError.write(Data(message.utf8))
        // Deliberate: an opt-in assertion, as Core Data's concurrency debugging is.
        fatalError("Faultline concurrency violation: \(operation)")
    }
}

extension ManagedObjectContext {
    /// Stops the process when concurrency debugging is on and the caller is
    /// off the context's queue (`ConcurrencyDebug`).
    @inline(__always)
    func checkQueue(_ operation: StaticString = #function) {
        if ConcurrencyDebug.isEnabled, !isOnOwnQueue { ConcurrencyDebug.violation(operation, on: self) }
    }
}
