import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Derived attributes computed from their own row are written by Faultline's
/// own INSERT and UPDATE statements, once; the triggers stay for every other
/// writer and do nothing when the value is already right.
@Suite("Row derivations computed in the statement")
struct RowDerivationTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("views", .integer64)
                Derived("searchTitle", .string, "canonical:(title)")
                Derived("lowerTitle", .string, "lowercase:(title)")
                Derived("upperTitle", .string, "uppercase:(title)")
                Derived("titleCopy", .string, "title")
            }
            Entity("Memo", parent: "Note") {
                Attribute("pinned", .boolean)
            }
        }
    }

    static let derived = "SELECT ZSEARCHTITLE, ZLOWERTITLE, ZUPPERTITLE, ZTITLECOPY FROM ZNOTE ORDER BY Z_PK"

    /// Rows changed on the writer, triggers' writes included (`total_changes()`).
    private func changes(_ container: PersistentContainer) throws -> Int64 {
        let rows = try container.coordinator.writer.withConnection { try $0.rows("SELECT total_changes()") }
        guard case .integer(let count)? = rows.first?.first else { throw CocoaError(.coderValueNotFound) }
        return count
    }

    private func derivedRows(_ container: PersistentContainer) throws -> [[SQLValue]] {
        try container.coordinator.writer.withConnection { try $0.rows(Self.derived) }
    }

    @Test("A save inserts and updates each row once, the derived columns computed in its statements")
    func save() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("Café Crème", forKey: "title")
            let memo = try context.insertNewObject(forEntityName: "Memo")
            try memo.setValue("Ärger", forKey: "title")
            let before = try changes(container)
            let inserted = try StatementLog.record { try context.save() }
            // The key reservation's Z_PRIMARYKEY row, then the two rows.
            #expect(try changes(container) - before == 3)
            #expect(inserted.statements.contains(
                "INSERT OR FAIL INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZVIEWS, ZPINNED, ZLOWERTITLE, ZSEARCHTITLE, ZTITLECOPY, ZUPPERTITLE) "
                    + "VALUES(?, ?, ?, ?, ?, ?, FAULTLINE_LOWERCASE(?4), FAULTLINE_CANONICAL(?4), ?4, FAULTLINE_UPPERCASE(?4))"))
            #expect(try derivedRows(container) == [
                [.text("cafe creme"), .text("café crème"), .text("CAFÉ CRÈME"), .text("Café Crème")],
                [.text("arger"), .text("ärger"), .text("ÄRGER"), .text("Ärger")],
            ])
            #expect(note.value(forKey: "searchTitle") as? String == "cafe creme")

            try note.setValue("Öl", forKey: "title")
            try note.setValue(Int64(3), forKey: "views")
            let updateBefore = try changes(container)
            let updated = try StatementLog.record { try context.save() }
            #expect(try changes(container) - updateBefore == 1)
            #expect(updated.statements.contains(
                "UPDATE OR FAIL ZNOTE SET ZTITLE = ?, ZVIEWS = ?, ZLOWERTITLE = FAULTLINE_LOWERCASE(?1), "
                    + "ZSEARCHTITLE = FAULTLINE_CANONICAL(?1), ZTITLECOPY = ?1, ZUPPERTITLE = FAULTLINE_UPPERCASE(?1), "
                    + "Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
            #expect(try derivedRows(container)[0] == [.text("ol"), .text("öl"), .text("ÖL"), .text("Öl")])
            #expect(note.value(forKey: "searchTitle") as? String == "ol")

            // An update that leaves the source alone writes no derived column.
            try note.setValue(Int64(4), forKey: "views")
            let viewsOnly = try StatementLog.record { try context.save() }
            #expect(viewsOnly.statements.contains("UPDATE OR FAIL ZNOTE SET ZVIEWS = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
            #expect(try derivedRows(container)[0] == [.text("ol"), .text("öl"), .text("ÖL"), .text("Öl")])
        }
    }

    @Test("A batch insert writes each row once; a batch update leaves the work to the triggers")
    func batch() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let before = try changes(container)
        let objects: [[String: Any]] = (1...100).map { ["title": "Étude \($0)"] }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Note", in: container.model, objects: objects))
        // The key reservation's Z_PRIMARYKEY row, then the hundred rows.
        #expect(try changes(container) - before == 101)
        let rows = try derivedRows(container)
        #expect(rows.count == 100)
        #expect(rows[41] == [.text("etude 42"), .text("étude 42"), .text("ÉTUDE 42"), .text("Étude 42")])

        var update = BatchUpdateRequest(entityName: "Note", predicate: try FetchPredicate(format: "title == %@", "Étude 1"))
        update.propertiesToUpdate = ["title": .value(.string("Über"))]
        let updateBefore = try changes(container)
        try container.coordinator.execute(update)
        // The row, then each of the four triggers rewriting it.
        #expect(try changes(container) - updateBefore == 5)
        #expect(try derivedRows(container)[0] == [.text("uber"), .text("über"), .text("ÜBER"), .text("Über")])
    }

    @Test("Plain SQL that writes only the source still gets every derived value from the triggers")
    func otherWriters() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        try container.coordinator.writer.withConnection { connection in
            try connection.execute("INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (1, 2, 1, 'Ça va')", [])
            try connection.execute("INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZSEARCHTITLE) VALUES (2, 1, 1, 'Zoë', 'wrong')", [])
            try connection.execute("INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (3, 1, 1, NULL)", [])
        }
        #expect(try derivedRows(container) == [
            [.text("ca va"), .text("ça va"), .text("ÇA VA"), .text("Ça va")],
            [.text("zoe"), .text("zoë"), .text("ZOË"), .text("Zoë")],
            [.null, .null, .null, .null],
        ])
        try container.coordinator.writer.withConnection { connection in
            try connection.execute("UPDATE OR FAIL ZNOTE SET ZTITLE = 'Noël' WHERE Z_PK = 3", [])
        }
        #expect(try derivedRows(container)[2] == [.text("noel"), .text("noël"), .text("NOËL"), .text("Noël")])
    }
}
