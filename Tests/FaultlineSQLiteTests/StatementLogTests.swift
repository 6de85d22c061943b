import Foundation
import Synchronization
import Testing
@testable import FaultlineSQLite

/// A recording lists each statement a workload executed once, in the order it
/// first ran, from every connection; nothing is recorded outside a recording.
/// Other suites run SQL in parallel, so the assertions look only at this
/// suite's own statements, told apart by a unique marker.
@Suite("Statement log", .serialized)
struct StatementLogTests {
    @Test("Distinct statements from two connections, in first-execution order; none outside the recording")
    func records() throws {
        let marker = "probe_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let first = try Connection(.inMemory)
        let second = try Connection(.inMemory)
        try first.execute("CREATE TABLE \(marker) (x)")
        let insert = try first.prepare("INSERT INTO \(marker) VALUES (?)")
        let count = try second.prepare("SELECT 2 AS \(marker)")
        try insert.bind(Int64(0), at: 1)
        try insert.execute()

        let recorded = try StatementLog.record { () throws -> Int in
            for value in 1...3 {
                try insert.bind(Int64(value), at: 1)
                try insert.execute()
                _ = try count.step()
                count.reset()
            }
            return 3
        }
        #expect(recorded.result == 3)
        #expect(recorded.statements.filter { $0.contains(marker) } == [
            "INSERT INTO \(marker) VALUES (?)", "SELECT 2 AS \(marker)",
        ])

        try insert.bind(Int64(9), at: 1)
        try insert.execute()
        let empty = try StatementLog.record { () }
        #expect(!empty.statements.contains { $0.contains(marker) })
    }

    @Test("A recording started on another thread waits for the running one, and sees its own statements only")
    func concurrentRecordingsWait() throws {
        let marker = "wait_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let connection = try Connection(.inMemory)
        let started = DispatchSemaphore(value: 0)
        let other = Mutex<(statements: [String], error: (any Error)?)>(([], nil))
        let done = DispatchSemaphore(value: 0)
        let outer = try StatementLog.record { () throws -> Void in
            Thread.detachNewThread {
                started.signal()
                do {
                    let inner = try StatementLog.record { () throws in
                        let probe = try Connection(.inMemory)
                        try probe.execute("SELECT 2 AS \(marker)_inner")
                    }
                    other.withLock { $0.statements = inner.statements }
                } catch {
                    other.withLock { $0.error = error }
                }
                done.signal()
            }
            started.wait()
            // The other thread is now waiting for this recording to end.
            Thread.sleep(forTimeInterval: 0.05)
            try connection.execute("SELECT 1 AS \(marker)_outer")
        }
        done.wait()
        let inner = other.withLock { $0 }
        #expect(inner.error == nil)
        #expect(outer.statements.contains("SELECT 1 AS \(marker)_outer"))
        #expect(!outer.statements.contains("SELECT 2 AS \(marker)_inner"))
        #expect(inner.statements.contains("SELECT 2 AS \(marker)_inner"))
        #expect(!inner.statements.contains("SELECT 1 AS \(marker)_outer"))
    }

    @Test("A recording inside a recording, on the same thread, is refused")
    func nested() throws {
        let outcome = try StatementLog.record { () -> Bool in
            do {
                _ = try StatementLog.record { () }
                return false
            } catch let error as StatementLogError {
                return error == .alreadyRecording
            } catch {
                return false
            }
        }
        #expect(outcome.result)
    }
}
