// Stores that record persistent history (SwiftData's, Core Data's with
// NSPersistentHistoryTrackingKey): Faultline writes no history rows, so by
// default it refuses to write at all rather than let history consumers miss
// changes; reads are unaffected, and writing is an explicit opt-in.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: stores that record persistent history refuse writes unless opted in")
struct CoreDataStoreHistoryTests {
    /// Every row count, `Z_MAX` and the history tables' counts, as `sqlite3` reads them.
    private func snapshot(_ copy: StoreCopy) throws -> [String] {
        let connection = try copy.connection()
        var lines: [String] = []
        for table in ["ZCARTMODEL", "ZCARTITEMMODEL", "ZCARTITEMMODIFIERMODEL", "ATRANSACTION", "ACHANGE", "Z_PRIMARYKEY"] {
            lines.append("\(table) \(try RawStore.integer(connection, "SELECT count(*) FROM \(table)") ?? -1)")
        }
        for row in try connection.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") { lines.append("\(row)") }
        return lines
    }

    @Test("The SwiftData store reads, but a save and a batch request are refused with the reason; nothing changes")
    func refusedByDefault() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.swiftDataStore)
        defer { copy.remove() }
        let before = try snapshot(copy)
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: CartKitFixtureModels.swiftDataV1())
        let model = container.model
        let context = container.newBackgroundContext()
        let refusal = try context.performAndWait { () throws -> (any Error)? in
            #expect(try context.count(for: FetchRequest(entityName: "CartModel")) == 1)
            let cart = try #require(model.entity(named: "CartModel"))
            let entity = try #require(SaveFiller.concrete(cart.index, in: model))
            try SaveFiller.fill(try context.insertNewObject(forEntityName: entity.name), in: context, model: model, depth: 0)
            do { try context.save() } catch { return error }
            return nil
        }
        #expect(refusal as? CoreDataStoreError == .recordsPersistentHistory(path: copy.url.path))
        #expect(String(describing: try #require(refusal)).contains("writesWithoutPersistentHistory: true"))
        #expect(throws: CoreDataStoreError.recordsPersistentHistory(path: copy.url.path)) {
            try container.coordinator.execute(BatchDeleteRequest(entityName: "CartModel"))
        }
        #expect(try snapshot(copy) == before)
        #expect(try copy.connection().scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("Inspection tells which stores record history; a store without it writes as before")
    func inspection() throws {
        let swiftData = try StoreCopy(CoreDataStoreFixture.swiftDataStore)
        let coreData = try StoreCopy(CoreDataStoreFixture.cartKitStore)
        defer {
            swiftData.remove()
            coreData.remove()
        }
        let recorded = try CoreDataStore.inspect(url: swiftData.url, model: CartKitFixtureModels.swiftDataV1().checked())
        let plain = try CoreDataStore.inspect(url: coreData.url, model: CartKitFixtureModels.coreDataV1().checked())
        #expect(recorded.recordsPersistentHistory)
        #expect(!plain.recordsPersistentHistory)
        let container = try PersistentContainer(coreDataStoreAt: coreData.url, model: CartKitFixtureModels.coreDataV1())
        #expect(container.coordinator.writer.refusal == nil)
    }
}
