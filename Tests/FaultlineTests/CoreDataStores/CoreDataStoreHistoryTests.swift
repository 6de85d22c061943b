// Stores that record persistent history (SwiftData's, Core Data's with
// NSPersistentHistoryTrackingKey): their own history rows read back through
// Faultline's history API, and Faultline's saves into copies record rows of
// the same shape. Opened with tracking off, such a store refuses writes, as
// Core Data opens it read-only.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("CoreDataStore: persistent history — the fixtures' rows decode, Faultline's rows take their shape")
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

    @Test("Every fixture store with history: each transaction and change row reads back with its store's cached model — every update's mask names the entity's properties, every tombstone its preserved attributes")
    func fixturesDecode() throws {
        var decoded = 0
        for store in try CoreDataFixtures.sqliteFiles() {
            let copy = try StoreCopy(store)
            defer { copy.remove() }
            let raw = try copy.connection()
            guard try raw.hasTable(named: "ACHANGE") else { continue }
            guard CoreDataFixtureExpectations.unmatchedToday[store] == nil,
                  let cached = try? CompiledModelReader.model(fromModelCacheOf: copy.url) else {
                print("history \(store): skipped, no cached model that matches")
                continue
            }
            // Transformers the app registered are not here; the values are not read.
            ValueTransformerRegistry.registerMissing(in: cached.model, standIn: UnavailableTransformer())
            let container = try PersistentContainer(coreDataStoreAt: copy.url, model: cached.model)
            let transactions = try container.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            let changes = transactions.flatMap(\.changes)
            #expect(transactions.count == Int(try RawStore.integer(raw, "SELECT count(*) FROM ATRANSACTION") ?? -1), "\(store)")
            #expect(changes.count == Int(try RawStore.integer(raw, "SELECT count(*) FROM ACHANGE") ?? -1), "\(store)")
            #expect(transactions.allSatisfy { $0.unreadableChangeCount == 0 }, "\(store): change rows that do not decode")
            let updates = changes.filter { $0.changeType == .update }
            #expect(updates.allSatisfy { !($0.updatedProperties ?? []).isEmpty }, "\(store): an update naming nothing")
            for change in changes {
                let entity = container.model.entities[change.changedObjectID.entityIndex]
                for name in change.updatedProperties ?? [] {
                    #expect(entity.propertyByName[name] != nil, "\(store): \(entity.name) has no property \(name)")
                }
                for (name, value) in change.tombstone ?? [:] {
                    #expect(entity.attribute(named: name) != nil && value != .null || value == .null, "\(store): \(name)")
                }
            }
            let tombstones = changes.filter { !($0.tombstone ?? [:]).isEmpty }.count
            var counts: [String: Int] = [:]
            for update in updates {
                let entity = container.model.entities[update.changedObjectID.entityIndex].name
                counts["\(entity).\((update.updatedProperties ?? []).sorted().joined(separator: "+"))", default: 0] += 1
            }
            let common = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3).map { "\($0.key) ×\($0.value)" }
            print("history \(store): \(transactions.count) transactions, \(changes.count) changes (\(updates.count) updates, "
                + "\(tombstones) tombstones); most changed: \(common.joined(separator: ", "))")
            decoded += 1
        }
        #expect(decoded >= 7, "only \(decoded) fixture stores with history decoded")
    }

    @Test("A save into the SwiftData store records one transaction and one change per object in the shape of SwiftData's own rows; integrity ok")
    func writesTakeTheFixturesShape() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.swiftDataStore)
        defer { copy.remove() }
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: CartKitFixtureModels.swiftDataV1())
        let before = try #require(try container.coordinator.currentPersistentHistoryToken())
        let model = container.model
        let context = container.newBackgroundContext()
        context.transactionAuthor = "linux"
        let inserted = try context.performAndWait {
            let cart = try #require(model.entity(named: "CartModel"))
            let entity = try #require(SaveFiller.concrete(cart.index, in: model))
            let object = try context.insertNewObject(forEntityName: entity.name)
            try SaveFiller.fill(object, in: context, model: model, depth: 0)
            try context.save()
            return object.objectID
        }
        let recorded = try container.coordinator.execute(.fetchHistory(after: before)).transactions
        #expect(recorded.count == 1)
        #expect(recorded.first?.author == "linux")
        #expect(recorded.first?.changes.contains { $0.changedObjectID == inserted && $0.changeType == .insert } == true)

        // Column by column, NULL where SwiftData's rows have NULL, a value where they have one.
        let raw = try copy.connection()
        func shape(_ table: String, _ condition: String) throws -> [String] {
            let columns = try raw.columns(ofTable: table).map(\.name)
            let row = try #require(try raw.rows("SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(condition)").first)
            return zip(columns, row).map { "\($0) \($1 == .null ? "NULL" : "set")" }
        }
        let key = before.transactionNumber
        // Who saved differs (an author here, no bundle ID for a Linux process);
        // the rest of the row is set and NULL alike.
        let saver = ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS"]
        func structural(_ columns: [String]) -> [String] { columns.filter { column in !saver.contains { column.hasPrefix($0 + " ") } } }
        #expect(try structural(shape("ATRANSACTION", "Z_PK = \(key + 1)")) == structural(shape("ATRANSACTION", "Z_PK = \(key)")))
        #expect(try shape("ATRANSACTION", "Z_PK = \(key + 1)").contains("ZAUTHORTS set"))
        #expect(try shape("ACHANGE", "ZTRANSACTIONID = \(key + 1) AND ZCHANGETYPE = 0")
            == shape("ACHANGE", "ZTRANSACTIONID <= \(key) AND ZCHANGETYPE = 0"))
        #expect(try raw.scalar("SELECT count(*) FROM ACHANGE WHERE ZTRANSACTIONID = ?", [.integer(key + 1)])
            == .integer(Int64(recorded.first?.changes.count ?? -1)))
        for table in ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"] {
            let number: Int64 = table == "ACHANGE" ? 16001 : table == "ATRANSACTION" ? 16002 : 16003
            #expect(try raw.scalar("SELECT max(Z_PK) <= (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?) FROM \(table)",
                                   [.integer(number)]) == .integer(1), "\(table) keys above Z_MAX")
        }
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("Opened with tracking off, the SwiftData store reads, but a save and a batch request are refused with the reason; nothing changes")
    func refusedWithTrackingOff() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.swiftDataStore)
        defer { copy.remove() }
        let before = try snapshot(copy)
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: CartKitFixtureModels.swiftDataV1(),
                                                options: CoreDataStoreOptions(persistentHistoryTracking: false))
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
        #expect(refusal as? StoreError == .persistentHistoryTrackingOff(path: copy.url.path))
        #expect(String(describing: try #require(refusal)).contains("persistentHistoryTracking nil"))
        #expect(throws: StoreError.persistentHistoryTrackingOff(path: copy.url.path)) {
            try container.coordinator.execute(BatchDeleteRequest(entityName: "CartModel"))
        }
        #expect(try snapshot(copy) == before)
        #expect(try copy.connection().scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("Inspection tells which stores record history; a store without it gets no history tables by default")
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
        #expect(container.coordinator.history == nil)
        #expect(try !coreData.connection().hasTable(named: "ATRANSACTION"))
    }
}
