import Foundation
import Testing
@testable import FaultlineSQLite

/// The schema catalog reads what SQLite stores and changes it with quoted
/// names, so a name with a quote or a space is one name, never SQL.
@Suite("The schema catalog")
struct SchemaCatalogTests {
    let connection: Connection

    init() throws {
        connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE ZB (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR, ZSIZE INTEGER UNIQUE)")
        try connection.execute("CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR)")
        try connection.execute("CREATE INDEX ZA_TITLE ON ZA (ZTITLE) WHERE ZTITLE IS NOT NULL")
        try connection.execute("CREATE INDEX ZA_LOWER ON ZA (lower(ZTITLE))")
        try connection.execute("CREATE TRIGGER ZA_T AFTER INSERT ON ZA BEGIN SELECT 1; END")
        try connection.execute("CREATE TABLE t (x INTEGER PRIMARY KEY AUTOINCREMENT)")
    }

    @Test("Objects come ordered by name with their SQL; SQLite's own tables are left out")
    func objects() throws {
        #expect(try connection.schemaObjectNames(ofType: "table") == ["ZA", "ZB", "t"])
        let indexes = try connection.schemaObjects(ofType: "index")
        #expect(indexes.map(\.name) == ["ZA_LOWER", "ZA_TITLE"], "the UNIQUE constraint's automatic index is SQLite's own")
        #expect(indexes.allSatisfy { $0.table == "ZA" && $0.sql?.hasPrefix("CREATE INDEX") == true })
        #expect(try connection.schemaObjects(ofType: "trigger").map(\.name) == ["ZA_T"])
    }

    @Test("Table names match case-insensitively, as SQLite resolves them")
    func hasTable() throws {
        #expect(try connection.hasTable(named: "za"))
        #expect(try connection.hasTable(named: "ZB"))
        #expect(try !connection.hasTable(named: "ZC"))
        #expect(try !connection.hasTable(named: "ZA' OR 1=1 --"))
    }

    @Test("Columns with declared type and key position; indexes with uniqueness, partiality and expression columns")
    func columnsAndIndexes() throws {
        #expect(try connection.columns(ofTable: "ZB") == [
            TableColumn(name: "Z_PK", declaredType: "INTEGER", primaryKeyPosition: 1),
            TableColumn(name: "ZNAME", declaredType: "VARCHAR", primaryKeyPosition: 0),
            TableColumn(name: "ZSIZE", declaredType: "INTEGER", primaryKeyPosition: 0),
        ])
        let unique = try connection.indexes(ofTable: "ZB")
        #expect(unique.count == 1 && unique[0].isUnique && !unique[0].isPartial && unique[0].columns == ["ZSIZE"])
        let indexes = Dictionary(uniqueKeysWithValues: try connection.indexes(ofTable: "ZA").map { ($0.name, $0) })
        #expect(indexes["ZA_TITLE"]?.isPartial == true && indexes["ZA_TITLE"]?.columns == ["ZTITLE"])
        #expect(indexes["ZA_LOWER"]?.columns == [nil], "an expression column has no name")
        #expect(try connection.columns(ofTable: "missing") == [])
    }

    @Test("Drop, rename, add column and copy rows take any name as one quoted identifier")
    func changes() throws {
        let odd = "Z \"odd\" name"
        try connection.renameTable("ZA", to: odd)
        #expect(try connection.hasTable(named: odd) && !connection.hasTable(named: "ZA"))
        try connection.addColumn(named: "ZEXTRA", declaredType: "BLOB", toTable: odd)
        try connection.addColumn(named: "Z weird", declaredType: "INTEGER", toTable: odd)
        #expect(try connection.columns(ofTable: odd).map(\.name) == ["Z_PK", "ZTITLE", "ZEXTRA", "Z weird"])
        let stored = try connection.schemaObjects(ofType: "table").first { $0.name == odd }?.sql ?? ""
        #expect(stored.contains(", ZEXTRA BLOB"), "a plain name is written bare, as Core Data writes its columns: \(stored)")
        #expect(throws: SQLiteError.self) { try connection.addColumn(named: "ZBAD", declaredType: "INTEGER; DROP TABLE ZB", toTable: odd) }
        try connection.execute("INSERT INTO \"Z \"\"odd\"\" name\" (Z_PK, ZTITLE) VALUES (1, 'a'), (2, 'b')")
        try connection.execute("CREATE TABLE ZCOPY (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR)")
        try connection.copyRows(columns: ["Z_PK", "ZTITLE"], from: odd, into: "ZCOPY")
        #expect(try connection.rows("SELECT Z_PK, ZTITLE FROM ZCOPY ORDER BY Z_PK") == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
        try connection.dropSchemaObject(ofType: .trigger, named: "ZA_T")
        try connection.dropSchemaObject(ofType: .index, named: "ZA_LOWER")
        try connection.dropSchemaObject(ofType: .table, named: odd)
        #expect(try connection.schemaObjectNames(ofType: "table") == ["ZB", "ZCOPY", "t"])
        #expect(try connection.schemaObjectNames(ofType: "trigger") == [])
        #expect(throws: SQLiteError.self) { try connection.dropSchemaObject(ofType: .table, named: "ZB; DROP TABLE t") }
        #expect(try connection.hasTable(named: "t"))
    }

    @Test("A broken foreign key is reported; none, nil")
    func foreignKeys() throws {
        #expect(try connection.firstForeignKeyViolation() == nil)
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES ZB(Z_PK))")
        try connection.execute("INSERT INTO child VALUES (1, 42)")
        let violation = try connection.firstForeignKeyViolation()
        #expect(violation?.first == .text("child"))
    }
}
