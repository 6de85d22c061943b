import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A save knows the derived values of the rows it inserts when they come from
/// the row itself (its INSERT computes them, and Swift computes the same), so
/// it reads none of those rows back; rows whose derived values the triggers
/// compute from other rows are still read back.
@Suite("Inserted rows' derived values without a re-read")
struct InsertedDerivationsTests {
    /// Text the folding treats differently: accents, final sigma, ß, a
    /// titlecase digraph, CJK, an emoji, empty, and nil.
    static let titles: [String?] = ["Café Crème", "ΣΊΣΥΦΟΣ", "Straße", "ǅemal", "日本語", "🙂 Ok", "", nil]

    static func columns(_ container: PersistentContainer) throws -> [[SQLValue]] {
        try container.coordinator.writer.withConnection { connection in
            try connection.rows("SELECT ZSEARCHTITLE, ZLOWERTITLE, ZUPPERTITLE, ZTITLECOPY FROM ZNOTE ORDER BY Z_PK")
        }
    }

    static func derived(_ object: ManagedObject) -> [SQLValue] {
        ["searchTitle", "lowerTitle", "upperTitle", "titleCopy"].map { key in
            (object.value(forKey: key) as? String).map(SQLValue.text) ?? .null
        }
    }

    @Test("Rows derived from themselves are not read back; the objects, the row cache and the store hold the same values")
    func notReadBack() throws {
        let (container, url) = try LibraryModel.container(RowDerivationTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let (objects, rowsRead) = try context.performAndWait { () throws -> ([ManagedObject], Int) in
            // A first save reads Z_MAX; the one measured reserves its keys blind.
            try context.insertNewObject(forEntityName: "Note").setValue("First", forKey: "title")
            try context.save()
            let objects = try Self.titles.enumerated().map { position, title in
                let object = try context.insertNewObject(forEntityName: position.isMultiple(of: 2) ? "Note" : "Memo")
                try object.setValue(title, forKey: "title")
                return object
            }
            let before = container.coordinator.writer.counters.rowsReturned
            try context.save()
            return (objects, container.coordinator.writer.counters.rowsReturned - before)
        }
        #expect(rowsRead == 0, "the save read no row back")
        let stored = Array(try Self.columns(container).dropFirst())
        #expect(stored.count == Self.titles.count)
        #expect(stored[0] == [.text("cafe creme"), .text("café crème"), .text("CAFÉ CRÈME"), .text("Café Crème")])
        #expect(stored[7] == [.null, .null, .null, .null])
        context.performAndWait {
            #expect(objects.map(Self.derived) == stored, "each object holds what its row holds")
        }

        // Another context reads the rows the save cached, with no statement.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let copies = try objects.map { try other.existingObject(with: $0.objectID) }
            #expect(other.counters.faultsFulfilledBySQL == 0)
            #expect(copies.map(Self.derived) == stored, "the cached rows hold what the store holds")
        }
    }

    @Test("A derived value the triggers compute from other rows is still read back after the insert")
    func aggregatesReadBack() throws {
        let model = ManagedObjectModel {
            Entity("Folder") {
                Attribute("name", .string)
                Derived("searchName", .string, "canonical:(name)")
                Derived("noteCount", .integer64, "notes.@count")
                Relationship("notes", to: "Page", inverse: "folder", toMany: true)
            }
            Entity("Page") {
                Attribute("title", .string)
                Relationship("folder", to: "Folder", inverse: "notes")
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // A first save reads Z_MAX; the one measured reserves its keys blind.
            let first = try context.insertNewObject(forEntityName: "Folder")
            try context.insertNewObject(forEntityName: "Page").setValue(first, forKey: "folder")
            try context.save()
            let folder = try context.insertNewObject(forEntityName: "Folder")
            try folder.setValue("Études", forKey: "name")
            for index in 0..<3 {
                let page = try context.insertNewObject(forEntityName: "Page")
                try page.setValue("Page \(index)", forKey: "title")
                try page.setValue(folder, forKey: "folder")
            }
            let before = container.coordinator.writer.counters.rowsReturned
            try context.save()
            #expect(container.coordinator.writer.counters.rowsReturned - before == 1, "the folder's row, read back")
            #expect(folder.value(forKey: "noteCount") as? Int64 == 3)
            #expect(folder.value(forKey: "searchName") as? String == "etudes")
        }
    }
}
