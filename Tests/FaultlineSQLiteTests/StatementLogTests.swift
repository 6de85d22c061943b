import Foundation
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

    @Test("A recording inside a recording is refused")
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
