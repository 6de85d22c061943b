import Foundation

/// A result handed from a thread to the one waiting for it.
private final class ThreadOutcome<Value>: @unchecked Sendable {
    // Written by the thread before it signals, read only after the wait.
    var value: Value?
    init() {}
}

/// Runs `body` on a new thread with `stackSize` bytes of stack and returns its
/// result: 512 KB is what Dispatch gives its worker threads, where fetches run.
func onThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Result) -> Result {
    let outcome = ThreadOutcome<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    guard let value = outcome.value else { preconditionFailure("the thread signalled without a result") }
    return value
}
