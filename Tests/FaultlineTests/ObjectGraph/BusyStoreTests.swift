import FixtureSupport
import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// Another writer holding the store past the busy timeout (a store option)
/// surfaces as `StoreError.busy`, matchable without importing FaultlineSQLite;
/// the failed save keeps the context's changes for a retry.
@Suite("A busy store is a typed error")
struct BusyStoreTests {
    @Test("A save blocked by another connection's write transaction throws StoreError.busy after the timeout, then succeeds")
    func busySave() throws {
        let url = ScratchStores.url()
        defer { LibraryModel.remove(url) }
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url), busyTimeout: 0.05)
        #expect(container.coordinator.busyTimeout == 0.05)
        let other = try Connection(.file(url.path))
        try other.execute("BEGIN IMMEDIATE")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Author").setValue("Blocked", forKey: "name")
            #expect(throws: StoreError.busy(timeout: 0.05)) { try context.save() }
            #expect(context.hasChanges)
            try other.execute("COMMIT")
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Author")) == 1)
        }
    }

    @Test("Opening a store that must first create its history tables, while another connection writes, reports the busy timeout it was given")
    func busyOpenCreatingHistory() throws {
        let url = ScratchStores.url()
        defer { LibraryModel.remove(url) }
        _ = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let other = try Connection(.file(url.path))
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }
        #expect(throws: StoreError.busy(timeout: 0.05)) {
            _ = try PersistentContainer(model: LibraryModel.model(), location: .file(url), busyTimeout: 0.05,
                                        persistentHistoryTracking: true)
        }
    }

    @Test("A store whose history tables are complete opens and reads while another connection writes, and records history once it is done")
    func openWithHistoryUnderAWrite() throws {
        let url = ScratchStores.url()
        defer { LibraryModel.remove(url) }
        do {
            let first = try PersistentContainer(model: LibraryModel.model(), location: .file(url), persistentHistoryTracking: true)
            let context = first.newBackgroundContext()
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Author").setValue("Before", forKey: "name")
                try context.save()
            }
        }
        let other = try Connection(.file(url.path))
        try other.execute("BEGIN IMMEDIATE")
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url), busyTimeout: 0.05,
                                                persistentHistoryTracking: true)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            #expect(try context.count(for: FetchRequest(entityName: "Author")) == 1)
            try context.insertNewObject(forEntityName: "Author").setValue("After", forKey: "name")
            #expect(throws: StoreError.busy(timeout: 0.05)) { try context.save() }
            try other.execute("COMMIT")
            try context.save()
        }
        let transactions = try other.scalar("SELECT COUNT(*) FROM ATRANSACTION")
        let inserts = try other.scalar("SELECT COUNT(*) FROM ACHANGE WHERE ZCHANGETYPE = 0")
        #expect(transactions == .integer(2))
        #expect(inserts == .integer(2))
    }
}
