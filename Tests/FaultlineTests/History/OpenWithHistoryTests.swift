import FixtureSupport
import Foundation
import Testing
@testable import Faultline

/// Opening a store whose history tables are complete only reads: the tables'
/// layout (five catalog statements) and the key counters once each, then the
/// largest keys, in one read transaction.
@Suite("Opening a store with complete history tables")
struct OpenWithHistoryTests {
    @Test("Reads the history layout once: 26 statements for the whole open, where reading it three times took 37")
    func statementsAtOpen() throws {
        let url = ScratchStores.url()
        defer { LibraryModel.remove(url) }
        _ = try PersistentContainer(model: LibraryModel.model(), location: .file(url), persistentHistoryTracking: true)
        let again = try PersistentContainer(model: LibraryModel.model(), location: .file(url), persistentHistoryTracking: true)
        #expect(again.coordinator.sqlCounters.statementsExecuted == 26)
    }
}
