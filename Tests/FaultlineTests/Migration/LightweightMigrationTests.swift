import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("Lightweight migration keeps every existing value")
struct LightweightMigrationTests {
    typealias S = MigrationSupport

    static func v1() -> ManagedObjectModel {
        S.model {
            Entity("Person") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Attribute("score", .integer32)
                Attribute("nickname", .string)
                Relationship("company", to: "Company", inverse: "staff")
                Relationship("mentor", to: "Person")
            }
            Entity("Company") {
                Attribute("title", .string)
                Relationship("staff", to: "Person", inverse: "company", toMany: true)
            }
            Entity("Legacy") { Attribute("note", .string) }
        }
    }

    static func populate(_ url: URL) throws {
        try S.populate(url, v1()) { context in
            var companies: [ManagedObject] = []
            for index in 0..<3 {
                let company = try context.insertNewObject(forEntityName: "Company")
                try company.setValue(index == 2 ? nil : "Company \(index)", forKey: "title")
                companies.append(company)
            }
            var previous: ManagedObject?
            for index in 0..<20 {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue("Person Ünïcode \(index)", forKey: "name")
                try person.setValue(Int64(index), forKey: "age")
                try person.setValue(Int64(index * 1000), forKey: "score")
                try person.setValue("nick \(index)", forKey: "nickname")
                try person.setValue(companies[index % 3], forKey: "company")
                try person.setValue(previous, forKey: "mentor")
                previous = person
            }
            let legacy = try context.insertNewObject(forEntityName: "Legacy")
            try legacy.setValue("gone", forKey: "note")
        }
    }

    @Test("Rename, widen, add, remove, to-one to to-many, required with default, new entity, derived and canonical columns")
    func everyChangeTogether() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try Self.populate(url)
        let before = try S.rows(url, "SELECT Z_PK, ZNAME, ZAGE, ZSCORE, ZCOMPANY, ZMENTOR FROM ZPERSON ORDER BY Z_PK")
        let titles = try S.rows(url, "SELECT Z_PK, ZTITLE FROM ZCOMPANY ORDER BY Z_PK")

        let v2 = S.model({ model in
            S.rename(model, entity: "Employee", from: "Person")
            S.rename(model, entity: "Employee", property: "fullName", from: "name")
            S.rename(model, entity: "Employee", property: "companies", from: "company")
            S.rename(model, entity: "Employee", property: "mentees", from: "mentor")
        }) {
            Entity("Employee") {
                Attribute("fullName", .string)
                Attribute("age", .integer64)
                Attribute("score", .double)
                Attribute("email", .string).required().defaultValue(.string("none"))
                Relationship("companies", to: "Company", inverse: "staff", toMany: true)
                Relationship("mentees", to: "Employee", toMany: true)
                Derived("searchName", .string, "canonical:(fullName)")
                FetchIndex("byAge", .ascending("age"))
            }
            Entity("Company") {
                Attribute("title", .string).required().defaultValue(.string("untitled"))
                Relationship("staff", to: "Employee", inverse: "companies", toMany: true)
                Derived("staffCount", .integer64, "staff.@count")
            }
            Entity("Office") { Attribute("floor", .integer16) }
        }
        let container = try PersistentContainer(
            model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(Self.v1())])))
        try S.expectMigrated(url, to: v2)

        let employees = try S.rows(url, "SELECT Z_PK, ZFULLNAME, ZAGE, ZSCORE, ZEMAIL, ZSEARCHNAME FROM ZEMPLOYEE ORDER BY Z_PK")
        #expect(employees.count == before.count)
        for (old, new) in zip(before, employees) {
            #expect(new[0] == old[0])
            #expect(new[1] == old[1])
            #expect(new[2] == old[2])
            guard case .integer(let score) = old[3] else { Issue.record("score"); continue }
            #expect(new[3] == .real(Double(score)))
            #expect(new[4] == .text("none"))
            if case .text(let name) = old[1] { #expect(new[5] == .text(CanonicalText.fold(name))) }
        }
        // to-one company → many-to-many: every old link is a join row.
        let joinTable = try #require(StoreSchema(compiling: v2.checked()).tables.first { $0.name.hasPrefix("Z_") && $0.compositePrimaryKey != nil })
        let links = try S.rows(url, "SELECT COUNT(*) FROM \(joinTable.name)")
        #expect(links == [[.integer(Int64(before.count))]])
        // to-one mentor (no inverse) → to-many mentees: the hidden key holds the mentor's key.
        let hidden = try #require(StoreSchema(compiling: v2.checked()).tables.first { $0.name == "ZEMPLOYEE" }?
            .columns.first { $0.name.hasSuffix("MENTEES") }?.name)
        // The old pairs (person, mentor) are the new pairs (person, mentee):
        // the mentor's row holds the person's key in the hidden column.
        let hiddenByKey = Dictionary(uniqueKeysWithValues: try S.rows(url, "SELECT Z_PK, \(hidden) FROM ZEMPLOYEE").map { ($0[0], $0[1]) })
        for old in before where old[5] != .null {
            #expect(hiddenByKey[old[5]] == old[0])
        }
        let companies = try S.rows(url, "SELECT Z_PK, ZTITLE, ZSTAFFCOUNT FROM ZCOMPANY ORDER BY Z_PK")
        for (old, new) in zip(titles, companies) {
            #expect(new[1] == (old[1] == .null ? .text("untitled") : old[1]))
            #expect(new[2] != .null)
        }
        #expect(try S.rows(url, "SELECT SUM(ZSTAFFCOUNT) FROM ZCOMPANY") == [[.integer(20)]])
        #expect(try S.rows(url, "SELECT name FROM sqlite_master WHERE name = 'ZLEGACY'").isEmpty)
        try S.expectReadAndSave(container, entity: "Employee", key: "fullName", value: .string("Changed"))
        try S.expectReadAndSave(container, entity: "Company", key: "title", value: .string("New"))
    }

    @Test("A renamed composite keeps its elements' values, an element renamed inside it too, and history updates still name it")
    func renamedComposite() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model {
            Entity("Item") {
                Composite("dims") { Attribute("w", .double); Attribute("h", .double) }
                Composite("box") { Attribute("w", .double) }
            }
        }
        do {
            let container = try PersistentContainer(model: v1, location: .file(url), persistentHistoryTracking: true)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(["w": 9.0, "h": 2.0], forKey: "dims")
                try item.setValue(["w": 4.0], forKey: "box")
                try context.save()
                try item.setValue(["w": 10.0, "h": 2.0], forKey: "dims")
                try context.save()
                try item.setValue(["w": 5.0], forKey: "box")
                try context.save()
            }
        }
        // dims becomes size (its elements keep their names); box becomes
        // frame and its element w becomes width.
        let v2 = S.model({ model in
            S.rename(model, entity: "Item", property: "size", from: "dims")
            S.rename(model, entity: "Item", property: "frame", from: "box")
            let frame = model.entitiesByName["Item"]?.properties.first { $0.name == "frame" } as? CompositeAttributeDescription
            frame?.elements.first { $0.name == "width" }?.renamingIdentifier = "w"
        }) {
            Entity("Item") {
                Composite("size") { Attribute("w", .double); Attribute("h", .double) }
                Composite("frame") { Attribute("width", .double) }
            }
        }
        let container = try PersistentContainer(
            model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        try S.expectMigrated(url, to: v2)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
            #expect(item.value(forKey: "size.w") as? Double == 10.0)
            #expect(item.value(forKey: "size.h") as? Double == 2.0)
            #expect(item.value(forKey: "frame.width") as? Double == 5.0)
        }
        // The updates named the composites by their old names; they name the new ones.
        let transactions = try container.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.allSatisfy { $0.unreadableChangeCount == 0 })
        #expect(transactions.dropFirst().map { $0.changes.map(\.updatedProperties) } == [[["size"]], [["frame"]]])
    }

    @Test("An added attribute at the end of the table uses ALTER TABLE ADD COLUMN and keeps rows in place")
    func addColumnInPlace() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model { Entity("Note") { Attribute("text", .string) } }
        try S.populate(url, v1) { context in
            for index in 0..<50 { try context.insertNewObject(forEntityName: "Note").setValue("n\(index)", forKey: "text") }
        }
        let before = try S.rows(url, "SELECT Z_PK, Z_OPT, ZTEXT FROM ZNOTE ORDER BY Z_PK")
        let v2 = S.model { Entity("Note") { Attribute("text", .string); Attribute("zblob", .binaryData) } }
        let migrated = try PersistentContainer(
            model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        let sql = try S.rows(url, "SELECT sql FROM sqlite_master WHERE name = 'ZNOTE'")
        // SQLite's ALTER TABLE appends ", ZZBLOB BLOB" before the closing parenthesis.
        if case .text(let text)? = sql.first?.first { #expect(text.contains(" , ZZBLOB BLOB")) }
        #expect(try S.rows(url, "SELECT Z_PK, Z_OPT, ZTEXT FROM ZNOTE ORDER BY Z_PK") == before)
        try S.expectMigrated(url, to: v2)
        try S.expectReadAndSave(migrated, entity: "Note", key: "zblob", value: .data(Data([1, 2, 3])))
    }

    @Test("Adding and removing uniqueness constraints and fetch indexes changes only the indexes")
    func constraintsAndIndexes() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model {
            Entity("Tag") {
                Attribute("name", .string)
                Attribute("rank", .integer64)
                Unique("rank")
                FetchIndex("byRank", .descending("rank"))
            }
        }
        try S.populate(url, v1) { context in
            for index in 0..<30 {
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue("tag\(index)", forKey: "name")
                try tag.setValue(Int64(index), forKey: "rank")
            }
        }
        let before = try S.rows(url, "SELECT * FROM ZTAG ORDER BY Z_PK")
        let v2 = S.model {
            Entity("Tag") {
                Attribute("name", .string)
                Attribute("rank", .integer64)
                Unique("name")
                FetchIndex("byName", .ascending("name"))
            }
        }
        let container = try PersistentContainer(
            model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        #expect(try S.rows(url, "SELECT * FROM ZTAG ORDER BY Z_PK") == before)
        try S.expectMigrated(url, to: v2)
        let indexes = try S.rows(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z_Tag_%' ORDER BY name")
        #expect(indexes == [[.text("Z_Tag_UNIQUE_name")], [.text("Z_Tag_byName")]])
        try S.expectReadAndSave(container, entity: "Tag", key: "name", value: .string("renamed"))
    }

    @Test("Adding, changing and removing derived attributes regenerates triggers and recomputes values")
    func derivedAttributes() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model {
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
                Derived("bookCount", .integer64, "books.@count")
                Derived("upperLabel", .string, "uppercase:(label)")
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        try S.populate(url, v1) { context in
            for shelfIndex in 0..<3 {
                let shelf = try context.insertNewObject(forEntityName: "Shelf")
                try shelf.setValue("Shelf \(shelfIndex)", forKey: "label")
                for bookIndex in 0..<(shelfIndex + 2) {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(shelfIndex).\(bookIndex)", forKey: "title")
                    try book.setValue(Int64(100 * (bookIndex + 1)), forKey: "pages")
                    try book.setValue(shelf, forKey: "shelf")
                }
            }
        }
        let books = try S.rows(url, "SELECT Z_PK, ZTITLE, ZPAGES, ZSHELF FROM ZBOOK ORDER BY Z_PK")
        let v2 = S.model {
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
                Derived("bookCount", .integer64, "books.@sum.pages")
                Derived("searchLabel", .string, "canonical:(label)")
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("shelf", to: "Shelf", inverse: "books")
                Derived("shelfLabel", .string, "shelf.label")
            }
        }
        let container = try PersistentContainer(
            model: v2, location: .file(url), migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        try S.expectMigrated(url, to: v2)
        #expect(try S.rows(url, "SELECT Z_PK, ZTITLE, ZPAGES, ZSHELF FROM ZBOOK ORDER BY Z_PK") == books)
        let wrong = try S.rows(url, """
            SELECT COUNT(*) FROM ZSHELF s WHERE s.ZBOOKCOUNT IS NOT (SELECT SUM(b.ZPAGES) FROM ZBOOK b WHERE b.ZSHELF = s.Z_PK)
               OR s.ZSEARCHLABEL IS NOT lower(s.ZLABEL)
            """)
        #expect(wrong == [[.integer(0)]])
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZBOOK b JOIN ZSHELF s ON s.Z_PK = b.ZSHELF WHERE b.ZSHELFLABEL IS NOT s.ZLABEL")
            == [[.integer(0)]])
        // The new triggers work: a save keeps the derived values right.
        try S.expectReadAndSave(container, entity: "Book", key: "pages", value: .integer(1))
        #expect(try S.rows(url, """
            SELECT COUNT(*) FROM ZSHELF s WHERE s.ZBOOKCOUNT IS NOT (SELECT SUM(b.ZPAGES) FROM ZBOOK b WHERE b.ZSHELF = s.Z_PK)
            """) == [[.integer(0)]])
    }

    @Test("A required attribute without default fails when rows hold NULL, changing nothing")
    func requiredWithoutDefault() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model { Entity("Item") { Attribute("code", .string) } }
        try S.populate(url, v1) { context in
            try context.insertNewObject(forEntityName: "Item").setValue(nil, forKey: "code")
        }
        let before = try S.content(url)
        let v2 = S.model { Entity("Item") { Attribute("code", .string).required() } }
        #expect {
            _ = try PersistentContainer(model: v2, location: .file(url),
                                        migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        } throws: { error in
            guard case MigrationError.missingDefault(let entity, let attribute, let rows) = error else { return false }
            return entity == "Item" && attribute == "code" && rows == 1
        }
        #expect(try S.content(url) == before)
    }
}
