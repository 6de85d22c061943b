import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A Faultline store that records persistent history is not migrated yet:
/// its change rows name entities and properties by the old model's numbers
/// and slots. The refusal says so, and the store is left exactly as it was.
@Suite("Persistent history: a store that records it refuses a migration, unchanged")
struct HistoryMigrationTests {
    @Test("A lightweight migration of a store with history is refused with the reason; the store still opens with its model and keeps its history")
    func refused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString).sqlite")
        defer { HistoryRoundTripTests.remove(url) }
        let v1 = ManagedObjectModel { Entity("Note") { Attribute("text", .string) } }
        let v2 = ManagedObjectModel { Entity("Note") { Attribute("text", .string); Attribute("pinned", .boolean) } }
        do {
            let container = try PersistentContainer(model: v1, location: .file(url), persistentHistoryTracking: true)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Note").setValue("one", forKey: "text")
                try context.save()
            }
        }
        let before = try Data(contentsOf: url)
        #expect {
            _ = try PersistentContainer(
                model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        } throws: { error in
            guard case .recordsPersistentHistory? = error as? MigrationError else { return false }
            return "\(error)".contains("does not migrate the store; it is unchanged")
        }
        #expect(try Data(contentsOf: url) == before)
        let reopened = try PersistentContainer(model: v1, location: .file(url))
        #expect(try reopened.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.count == 1)
    }
}
