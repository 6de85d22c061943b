import Foundation
import Testing
@testable import Faultline

/// Composite attributes, ordered to-many, many-to-many, value encodings and
/// derived attributes seen through the object graph.
@Suite("Stored values through objects")
struct StorageFeatureTests {
    @Test("Composite attributes read and write as dictionaries and are stored flattened")
    func composites() throws {
        let model = ManagedObjectModel {
            Entity("Theme") {
                Attribute("name", .string)
                Composite("colorScheme") {
                    Attribute("primary", .string)
                    Attribute("secondary", .string)
                }
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let theme = try context.insertNewObject(forEntityName: "Theme")
            try theme.setValue(["primary": "red", "secondary": "blue"], forKey: "colorScheme")
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(FetchRequest(entityName: "Theme")).first)
            let scheme = try #require(fetched.value(forKey: "colorScheme") as? [String: Any])
            #expect(scheme["primary"] as? String == "red")
            #expect(fetched.value(forKey: "colorScheme.secondary") as? String == "blue")
            let raw = try container.coordinator.withReader { try $0.rows("SELECT ZCOLORSCHEME_PRIMARY FROM ZTHEME") }
            #expect(raw == [[.text("red")]])
        }
    }

    @Test("A uniqueness constraint on a composite's element makes its unique index and holds")
    func compositeElementConstraint() throws {
        let model = ManagedObjectModel {
            Entity("Customer") {
                Attribute("name", .string)
                Composite("login") { Attribute("email", .string).unique() }
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let index = try container.coordinator.withReader {
            try $0.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZCUSTOMER' AND sql IS NOT NULL")
        }
        #expect(index == [[.text("CREATE UNIQUE INDEX \"Z_Customer_UNIQUE_login.email\" ON ZCUSTOMER (ZLOGIN_EMAIL COLLATE BINARY ASC)")]])
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["a", "b"] {
                let customer = try context.insertNewObject(forEntityName: "Customer")
                try customer.setValue(name, forKey: "name")
                try customer.setValue(["email": "x@example.com"], forKey: "login")
            }
            #expect(throws: SaveError.self) { try context.save() }
        }
    }

    /// Flips every bit: stored bytes differ from the value's.
    struct InvertingTransformer: AttributeValueTransformer {
        struct NotData: Error {}
        func encode(_ value: Any) throws -> Data {
            guard let data = value as? Data else { throw NotData() }
            return Data(data.map { ~$0 })
        }
        func decode(_ data: Data) throws -> Any { Data(data.map { ~$0 }) }
    }

    @Test("A registered transformer encodes Data values too: an encrypting transformer's plaintext never reaches the file")
    func transformerEncodesData() throws {
        let name = "FaultlineTests.Inverting.\(UUID().uuidString)"
        ValueTransformerRegistry.register(InvertingTransformer(), forName: name)
        let codable = "FaultlineTests.CodableData.\(UUID().uuidString)"
        ValueTransformerRegistry.register(CodableValueTransformer<Data>(), forName: codable)
        let model = ManagedObjectModel {
            Entity("Secret") {
                Attribute("payload", .transformable).transformer(name)
                Attribute("blob", .transformable).transformer(codable)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let secret = try context.insertNewObject(forEntityName: "Secret")
            try secret.setValue(Data([1, 2, 3, 4]), forKey: "payload")
            try secret.setValue(Data("hello".utf8), forKey: "blob")
            #expect(secret.value(forKey: "blob") as? Data == Data("hello".utf8))
            try context.save()
            context.reset()
            let read = try #require(try context.fetch(FetchRequest(entityName: "Secret")).first)
            #expect(read.value(forKey: "payload") as? Data == Data([1, 2, 3, 4]))
            #expect(read.value(forKey: "blob") as? Data == Data("hello".utf8))
        }
        let stored = try container.coordinator.withReader { try $0.rows("SELECT ZPAYLOAD FROM ZSECRET") }
        #expect(stored == [[.blob(Data([254, 253, 252, 251]))]])
    }

    @Test("Every attribute type round-trips through the store with Core Data's encodings; a URL argument finds a URI attribute")
    func encodings() throws {
        let model = ManagedObjectModel {
            Entity("Sample") {
                Attribute("small", .integer16)
                Attribute("big", .integer64)
                Attribute("flag", .boolean)
                Attribute("ratio", .double)
                Attribute("amount", .decimal)
                Attribute("when", .date)
                Attribute("id", .uuid)
                Attribute("link", .uri)
                Attribute("bytes", .binaryData)
                Attribute("text", .string)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let uuid = UUID()
        let amount = try #require(Decimal(string: "12345.6789"))
        try context.performAndWait {
            let sample = try context.insertNewObject(forEntityName: "Sample")
            try sample.setValue(Int16(-7), forKey: "small")
            try sample.setValue(Int64.max, forKey: "big")
            try sample.setValue(true, forKey: "flag")
            try sample.setValue(0.1, forKey: "ratio")
            try sample.setValue(amount, forKey: "amount")
            try sample.setValue(Date(timeIntervalSinceReferenceDate: 12.5), forKey: "when")
            try sample.setValue(uuid, forKey: "id")
            try sample.setValue(URL(string: "https://example.com/a?b=c"), forKey: "link")
            try sample.setValue(Data([0, 1, 2]), forKey: "bytes")
            try sample.setValue("Ünïcödé", forKey: "text")
            try context.save()
            context.reset()
            container.coordinator.rowCache.removeAll()
            let read = try #require(try context.fetch(FetchRequest(entityName: "Sample")).first)
            #expect(read.value(forKey: "small") as? Int64 == -7)
            #expect(read.value(forKey: "big") as? Int64 == Int64.max)
            #expect(read.value(forKey: "flag") as? Bool == true)
            #expect(read.value(forKey: "ratio") as? Double == 0.1)
            #expect(read.value(forKey: "amount") as? Decimal == amount)
            #expect(read.value(forKey: "when") as? Date == Date(timeIntervalSinceReferenceDate: 12.5))
            #expect(read.value(forKey: "id") as? UUID == uuid)
            #expect((read.value(forKey: "link") as? URL)?.absoluteString == "https://example.com/a?b=c")
            #expect(read.value(forKey: "bytes") as? Data == Data([0, 1, 2]))
            #expect(read.value(forKey: "text") as? String == "Ünïcödé")
            let raw = try container.coordinator.withReader { try $0.rows("SELECT typeof(ZID), length(ZID), ZWHEN FROM ZSAMPLE") }
            #expect(raw == [[.text("blob"), .integer(16), .real(12.5)]])
            // A URL argument finds the URI attribute in SQL, and in memory for an unsaved object.
            let link = try #require(URL(string: "https://example.com/a?b=c"))
            #expect(try context.count(for: FetchRequest(entityName: "Sample", format: "link == %@", link)) == 1)
            let unsaved = try context.insertNewObject(forEntityName: "Sample")
            try unsaved.setValue(URL(string: "https://example.com/new"), forKey: "link")
            let found = try context.fetch(FetchRequest(entityName: "Sample", format: "link == %@", URL(string: "https://example.com/new")))
            #expect(found == [unsaved])
        }
    }

    @Test("Ordered to-many keeps its order through a save; many-to-many writes its join table")
    func orderedAndManyToMany() throws {
        let model = ManagedObjectModel {
            Entity("Playlist") {
                Attribute("name", .string)
                Relationship("songs", to: "Song", inverse: "playlist", toMany: true, ordered: true)
                Relationship("tags", to: "Tag", inverse: "playlists", toMany: true)
            }
            Entity("Song") {
                Attribute("title", .string)
                Relationship("playlist", to: "Playlist", inverse: "songs")
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("playlists", to: "Playlist", inverse: "tags", toMany: true)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let playlist = try context.insertNewObject(forEntityName: "Playlist")
            for title in ["c", "a", "b"] {
                let song = try context.insertNewObject(forEntityName: "Song")
                try song.setValue(title, forKey: "title")
                try playlist.addObject(song, toRelationship: "songs")
            }
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.addObject(playlist, toRelationship: "playlists")
            try context.save()
            context.reset()
            let read = try #require(try context.fetch(FetchRequest(entityName: "Playlist")).first)
            let titles = (read.value(forKey: "songs") as? [ManagedObject])?.compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["c", "a", "b"])
            #expect((read.value(forKey: "tags") as? [ManagedObject])?.count == 1)
        }
    }

    @Test("A reflexive many-to-many keeps (A, B) and (B, A) as two join rows")
    func reflexiveManyToMany() throws {
        let model = ManagedObjectModel {
            Entity("Task") {
                Attribute("name", .string)
                Relationship("blocking", to: "Task", inverse: "blockedBy", toMany: true)
                Relationship("blockedBy", to: "Task", inverse: "blocking", toMany: true)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Task")
            try first.setValue("first", forKey: "name")
            let second = try context.insertNewObject(forEntityName: "Task")
            try second.setValue("second", forKey: "name")
            try context.save()
            let task = try context.insertNewObject(forEntityName: "Task")
            try task.setValue("new", forKey: "name")
            try task.setValue([first], forKey: "blocking")
            try task.setValue([first], forKey: "blockedBy")
            try context.save()
            let rows = try container.coordinator.withReader { try $0.rows("SELECT * FROM Z_1BLOCKING") }
            #expect(rows.count == 2)
            let id = task.objectID
            context.reset()
            let read = try context.existingObject(with: id)
            #expect((read.value(forKey: "blocking") as? [ManagedObject])?.count == 1)
            #expect((read.value(forKey: "blockedBy") as? [ManagedObject])?.count == 1)
        }
    }

    /// An article of ShopModel in `category`.
    private func insertArticle(
        _ title: String, views: Int64, in category: ManagedObject, _ context: ManagedObjectContext
    ) throws -> ManagedObject {
        let article = try context.insertNewObject(forEntityName: "Article")
        try article.setValue(title, forKey: "title")
        try article.setValue(views, forKey: "views")
        try article.setValue(category, forKey: "category")
        return article
    }

    @Test("Derived attributes are right on the objects after a save")
    func derivedAfterSave() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.setValue("News", forKey: "name")
            for index in 0..<3 {
                _ = try insertArticle("Café \(index)", views: Int64(index * 10), in: category, context)
            }
            try context.save()
            #expect(category.value(forKey: "articlesCount") as? Int64 == 3)
            #expect(category.value(forKey: "totalViews") as? Int64 == 30)
            let article = try #require((category.value(forKey: "articles") as? [ManagedObject])?.first)
            #expect(article.value(forKey: "categoryName") as? String == "News")
            #expect((article.value(forKey: "searchTitle") as? String)?.hasPrefix("cafe ") == true)
            #expect(throws: ObjectAccessError.readOnly(entity: "Category", key: "articlesCount")) {
                try category.setValue(9, forKey: "articlesCount")
            }
        }
    }

    @Test("An update whose derived values the store recomputes drops the row cached before it: another context reads the new values")
    func derivedUpdateLeavesNoOldRowCached() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let articleID = try writer.performAndWait {
            let category = try writer.insertNewObject(forEntityName: "Category")
            try category.setValue("News", forKey: "name")
            let article = try insertArticle("Story", views: 5, in: category, writer)
            try writer.save()
            return article.objectID
        }
        // Read elsewhere, so the row cache holds the article's row.
        let earlier = container.newBackgroundContext()
        try earlier.performAndWait {
            let article = try earlier.existingObject(with: articleID)
            #expect(article.value(forKey: "searchTitle") as? String == "story")
        }
        #expect(container.coordinator.rowCache.snapshot(for: articleID) != nil)
        // Only the article changes: no entity its own derived values read
        // changes, so nothing but the save itself can retire its cached row.
        try writer.performAndWait {
            try writer.existingObject(with: articleID).setValue("Über Story", forKey: "title")
            try writer.save()
        }
        #expect(container.coordinator.rowCache.snapshot(for: articleID) == nil)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            container.coordinator.resetCounters()
            let article = try reader.existingObject(with: articleID)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            #expect(article.value(forKey: "title") as? String == "Über Story")
            #expect(article.value(forKey: "searchTitle") as? String == "uber story")
        }
    }

    @Test("A save that touches only articles refreshes the categories deriving from them, here and in the row cache")
    func derivedOfOtherEntitiesAfterSave() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.setValue("News", forKey: "name")
            try context.save()
            #expect(category.value(forKey: "articlesCount") as? Int64 == 0)

            let articles = try (0..<2).map { try insertArticle("Story \($0)", views: 5, in: category, context) }
            try context.save()
            #expect(category.value(forKey: "articlesCount") as? Int64 == 2)
            #expect(category.value(forKey: "totalViews") as? Int64 == 10)
            // Fired again from the store, so the category's row sits in the row cache.
            context.refresh(category, mergeChanges: false)
            #expect(category.value(forKey: "totalViews") as? Int64 == 10)

            // Only an article changes: the category is not saved, yet derives from it.
            try articles[0].setValue(Int64(50), forKey: "views")
            #expect(!category.hasChanges)
            try context.save()
            #expect(category.value(forKey: "totalViews") as? Int64 == 55)
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let categories = try reader.fetch(FetchRequest(entityName: "Category"))
            #expect(categories.first?.value(forKey: "articlesCount") as? Int64 == 2)
            #expect(categories.first?.value(forKey: "totalViews") as? Int64 == 55)
        }
    }
}
