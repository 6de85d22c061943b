import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// The layout rules of Core Data's store, on a model that exercises each one.
@Suite("Core Data's store layout")
struct StoreLayoutTests {
    /// Inheritance, a name reused across sub-entities, a to-one to a hierarchy,
    /// a to-many without inverse, an ordered to-many, a composite attribute.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Content", abstract: true) {
                Attribute("createdAt", .date)
            }
            Entity("Article", parent: "Content") {
                Attribute("title", .string)
                Composite("colorScheme") {
                    Attribute("primary", .string)
                    Attribute("secondary", .string)
                }
            }
            Entity("Page", parent: "Content") {
                Attribute("title", .string)
                Attribute("order", .integer32).indexed()
            }
            Entity("Shelf") {
                Relationship("pinned", to: "Content")
                Relationship("items", to: "Content", toMany: true)
                Relationship("chapters", to: "Chapter", inverse: "shelf", toMany: true, ordered: true)
                Attribute("price", .decimal)
                Attribute("id", .uuid)
                Attribute("rating", .double)
                Attribute("open", .boolean)
            }
            Entity("Chapter") {
                Relationship("shelf", to: "Shelf", inverse: "chapters")
            }
        }
    }

    private func schema() throws -> StoreSchema { try StoreSchema(compiling: Self.model().checked()) }

    private func columns(_ table: String, in schema: StoreSchema) -> [String: String] {
        let found = schema.tables.first { $0.name == table }
        return Dictionary(uniqueKeysWithValues: (found?.columns ?? []).map { ($0.name, $0.declaredType.rawValue) })
    }

    @Test("Entities are numbered depth-first, roots alphabetically; sub-entities share the root's table")
    func numbering() throws {
        let schema = try schema()
        #expect(schema.model.entities.map(\.name) == ["Chapter", "Content", "Article", "Page", "Shelf"])
        #expect(schema.tables.map(\.name) == ["ZCHAPTER", "ZCONTENT", "ZSHELF"])
        let article = try #require(schema.entity(named: "Article"))
        #expect(article.table == "ZCONTENT")
        #expect(article.sharesTable)
        #expect(try #require(schema.entity(named: "Content")).entityNumbers == [2, 3, 4])
        let store = try TestStore(schema)
        #expect(try store.connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [1, "Chapter", 0, 0], [2, "Content", 0, 0], [3, "Article", 2, 0], [4, "Page", 2, 0], [5, "Shelf", 0, 0],
        ])
        #expect(try store.isIntact())
    }

    @Test("Columns: types, flattened composites, numbered collisions, keys and ordering columns")
    func columnsAndTypes() throws {
        let schema = try schema()
        #expect(columns("ZCONTENT", in: schema) == [
            "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER",
            "ZCREATEDAT": "TIMESTAMP", "ZTITLE": "VARCHAR", "ZTITLE1": "VARCHAR",
            "ZCOLORSCHEME_PRIMARY": "VARCHAR", "ZCOLORSCHEME_SECONDARY": "VARCHAR",
            "ZORDER": "INTEGER", "Z5ITEMS": "INTEGER",
        ])
        #expect(columns("ZSHELF", in: schema) == [
            "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER",
            "ZPINNED": "INTEGER", "Z2_PINNED": "INTEGER", "ZPRICE": "DECIMAL", "ZID": "BLOB",
            "ZRATING": "FLOAT", "ZOPEN": "INTEGER",
        ])
        #expect(columns("ZCHAPTER", in: schema) == [
            "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER", "ZSHELF": "INTEGER", "Z_FOK_SHELF": "INTEGER",
        ])
        let article = try #require(schema.entity(named: "Article"))
        let page = try #require(schema.entity(named: "Page"))
        let articleEntity = try #require(schema.model.entity(named: "Article"))
        let pageEntity = try #require(schema.model.entity(named: "Page"))
        // The first of a colliding name keeps it bare (Apple's NoteStore: ZACCOUNT, ZACCOUNT1 …).
        #expect(try article.column(forAttributeAt: #require(articleEntity.attribute(named: "title")).index) == "ZTITLE")
        #expect(try page.column(forAttributeAt: #require(pageEntity.attribute(named: "title")).index) == "ZTITLE1")
        #expect(try article.column(forAttributeAt: #require(articleEntity.attribute(named: "colorScheme.primary")).index)
                == "ZCOLORSCHEME_PRIMARY")
    }

    @Test("Relationships are stored as Core Data stores them")
    func relationshipStorage() throws {
        let schema = try schema()
        let shelf = try #require(schema.entity(named: "Shelf"))
        let shelfEntity = try #require(schema.model.entity(named: "Shelf"))
        func storage(_ name: String) throws -> RelationshipStorage {
            shelf.relationships[try #require(shelfEntity.relationship(named: name)).index]
        }
        #expect(try storage("pinned") == .foreignKey(column: "ZPINNED", entityColumn: "Z2_PINNED"))
        #expect(try storage("items") == .destinationKey(table: "ZCONTENT", column: "Z5ITEMS", orderColumn: nil, isHidden: true))
        #expect(try storage("chapters")
                == .destinationKey(table: "ZCHAPTER", column: "ZSHELF", orderColumn: "Z_FOK_SHELF", isHidden: false))
    }

    @Test("Indexes: to-one and hidden keys, indexed attributes, Z_ENT of a shared table")
    func indexes() throws {
        let names = Set(try schema().indexes.map(\.createStatement))
        #expect(names == [
            "CREATE INDEX ZCHAPTER_ZSHELF_INDEX ON ZCHAPTER (ZSHELF)",
            "CREATE INDEX ZCONTENT_Z_ENT_INDEX ON ZCONTENT (Z_ENT)",
            "CREATE INDEX ZCONTENT_Z5ITEMS_INDEX ON ZCONTENT (Z5ITEMS)",
            "CREATE INDEX ZSHELF_ZPINNED_INDEX ON ZSHELF (ZPINNED)",
            "CREATE INDEX ZCONTENT_ZORDER_INDEX ON ZCONTENT (ZORDER)",
        ])
    }

    @Test("Compilation is deterministic: the same model gives the same SQL")
    func deterministic() throws {
        #expect(try schema().creationStatements == schema().creationStatements)
    }

    @Test("A store opens in the sqlite3 shell and reads as plain tables")
    func sqliteShell() throws {
        let store = try TestStore(ShopModel.schema())
        try store.run("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'News')")
        try store.run("INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZVIEWS, ZCATEGORY) VALUES (1, 1, 1, 'Café', 3, 1)")
        store.connection.statementCache.removeAll()
        try store.run("PRAGMA wal_checkpoint(TRUNCATE)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["sqlite3", "-readonly", store.path,
                           ".tables", "SELECT ZTITLE, ZSEARCHTITLE, ZCATEGORYNAME FROM ZARTICLE;", "PRAGMA integrity_check;"]
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = output
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "sqlite3 failed: \(text)")
        #expect(text.contains("ZARTICLE"))
        #expect(text.contains("Z_PRIMARYKEY"))
        #expect(text.contains("Café|cafe|News"))
        #expect(text.contains("\nok"))
    }
}
