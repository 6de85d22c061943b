import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A migration carries a store's persistent history to the new model: change
/// rows name the entity the rows went to, an update's mask names the same
/// properties in the new model's slots (renamed ones by their new names),
/// tombstones follow their attributes, and an entity that is gone takes its
/// change rows with it. Tokens taken before the migration still read after it.
@Suite("Persistent history: a migration carries it to the new model's entities, slots and tombstones")
struct HistoryMigrationTests {
    static func v1() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Note") {
                Attribute("title", .string).preservesValueInHistoryOnDeletion()
                Attribute("text", .string)
                Attribute("zeal", .integer64).preservesValueInHistoryOnDeletion()
            }
            Entity("Tag") { Attribute("label", .string) }
        }
    }

    /// Note becomes Memo, title becomes heading (both by renaming identifier),
    /// a new attribute takes a slot before `text`, `text` is now preserved
    /// and `zeal` no longer is; Tag is gone and a new first entity shifts the
    /// entity numbers.
    static func v2() -> ManagedObjectModel {
        MigrationSupport.model({ model in
            MigrationSupport.rename(model, entity: "Memo", from: "Note")
            MigrationSupport.rename(model, entity: "Memo", property: "heading", from: "title")
        }) {
            Entity("Album") { Attribute("name", .string) }
            Entity("Memo") {
                Attribute("heading", .string).preservesValueInHistoryOnDeletion()
                Attribute("pinned", .boolean)
                Attribute("text", .string).preservesValueInHistoryOnDeletion()
                Attribute("zeal", .integer64)
            }
        }
    }

    @Test("Entities renumbered and renamed, masks re-slotted, tombstones moved, a removed entity's changes deleted, tokens kept")
    func carried() throws {
        let url = MigrationSupport.temporaryStore()
        defer { MigrationSupport.remove(url) }
        let token: PersistentHistoryToken
        do {
            let container = try PersistentContainer(model: Self.v1(), location: .file(url), persistentHistoryTracking: true)
            let context = container.newBackgroundContext()
            token = try context.performAndWait { () throws -> PersistentHistoryToken in
                let kept = try context.insertNewObject(forEntityName: "Note")
                try kept.setValue("Kept", forKey: "title")
                let gone = try context.insertNewObject(forEntityName: "Note")
                try gone.setValue("Gone", forKey: "title")
                try gone.setValue(Int64(7), forKey: "zeal")
                try context.insertNewObject(forEntityName: "Tag").setValue("red", forKey: "label")
                try context.save()
                let token = try #require(try container.coordinator.currentPersistentHistoryToken())
                try kept.setValue("Kept, renamed", forKey: "title")
                try context.save()
                try kept.setValue("body", forKey: "text")
                try context.save()
                context.delete(gone)
                try context.save()
                return token
            }
        }
        let raw = try Connection(.file(url.path))
        let keysBefore = try raw.rows("SELECT Z_PK, ZTRANSACTIONID, ZENTITYPK FROM ACHANGE WHERE ZENTITY = 1 ORDER BY Z_PK")
        #expect(keysBefore.count == 5)

        let container = try PersistentContainer(
            model: Self.v2(), location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(Self.v1())])))
        // The same rows, now entity 2 (Memo); Tag's insert is gone.
        #expect(try raw.rows("SELECT Z_PK, ZTRANSACTIONID, ZENTITYPK FROM ACHANGE WHERE ZENTITY = 2 ORDER BY Z_PK") == keysBefore)
        #expect(try raw.scalar("SELECT count(*) FROM ACHANGE WHERE ZENTITY <> 2") == .integer(0))
        // The history tables' own indexes are not the migration's to drop.
        #expect(try raw.scalar("""
            SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING')
            """) == .integer(8))

        let transactions = try container.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 4)
        #expect(transactions.allSatisfy { $0.unreadableChangeCount == 0 })
        #expect(transactions[0].changes.map(\.changedObjectID.entityNumber) == [2, 2])  // Memo
        #expect(transactions[1].changes.map(\.updatedProperties) == [["heading"]])
        #expect(transactions[2].changes.map(\.updatedProperties) == [["text"]])
        let deletion = try #require(transactions[3].changes.first)
        #expect(deletion.changeType == .delete)
        // `heading` keeps title's value; `text` was not preserved before (NULL); `zeal` no longer is.
        #expect(deletion.tombstone?["heading"] == .string("Gone"))
        #expect(deletion.tombstone?["zeal"] == nil)
        #expect(try raw.scalar("SELECT ZTOMBSTONE1 FROM ACHANGE WHERE ZCHANGETYPE = 2") == .null)
        #expect(try container.coordinator.execute(.fetchHistory(after: token)).transactions.count == 3)
    }

    @Test("A mask that does not fit the old model refuses the migration; the store is unchanged")
    func unreadableMask() throws {
        let url = MigrationSupport.temporaryStore()
        defer { MigrationSupport.remove(url) }
        do {
            let container = try PersistentContainer(model: Self.v1(), location: .file(url), persistentHistoryTracking: true)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Note").setValue("one", forKey: "title")
                try context.save()
            }
        }
        try Connection(.file(url.path)).execute("UPDATE ACHANGE SET ZCOLUMNS = x'ffff' WHERE ZENTITY = 1")
        let before = try MigrationSupport.content(url)
        #expect {
            _ = try PersistentContainer(
                model: Self.v2(), location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(Self.v1())])))
        } throws: { error in
            guard case .unreadableHistory(let entity, let mask)? = error as? MigrationError else { return false }
            return entity == "Note" && mask == "ffff"
        }
        #expect(try MigrationSupport.content(url) == before)
    }
}
