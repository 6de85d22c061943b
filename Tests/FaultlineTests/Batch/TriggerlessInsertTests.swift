import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A batch insert of many rows turns the writer's triggers off and keeps the
/// parents' aggregates with one statement (InsertedRowsUpkeep): every value
/// must equal what the triggers leave row by row, and anything the stand-ins
/// do not cover keeps the triggers firing.
@Suite("Many inserted rows with triggers off")
struct TriggerlessInsertTests {
    /// `countOnly`: the category keeps its article count and no other
    /// aggregate over the articles.
    static func model(realSum: Bool = false, uniqueTitles: Bool = false, countOnly: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("categories", to: "Category", inverse: "shelf", toMany: true)
                // Kept by the categories' UPDATE triggers, which the stand-in's UPDATE fires.
                Derived("articleTotal", .integer64, "@sum.categories.articleCount")
            }
            Entity("Category") {
                Attribute("name", .string)
                Relationship("shelf", to: "Shelf", inverse: "categories")
                Relationship("articles", to: "Article", inverse: "category", toMany: true)
                Derived("articleCount", .integer64, "articles.@count")
                if !countOnly {
                    Derived("totalViews", .integer64, "@sum.articles.views")
                    Derived("averageViews", .double, "articles.@avg.views")
                    Derived("minViews", .integer64, "articles.@min.views")
                    Derived("maxViews", .integer64, "articles.@max.views")
                    Derived("bestRating", .double, "articles.@max.rating")
                }
                if realSum { Derived("totalRating", .double, "@sum.articles.rating") }
            }
            Entity("Article") {
                Attribute("title", .string)
                Attribute("views", .integer64)
                Attribute("rating", .double)
                Relationship("category", to: "Category", inverse: "articles")
                Derived("searchTitle", .string, "canonical:(title)")
                if uniqueTitles { Unique("title") }
            }
        }
    }

    /// Two shelves, seven categories (the last on no shelf); two articles
    /// already in the first category, so the aggregates start from values.
    static func seeded(_ model: ManagedObjectModel) throws -> (PersistentContainer, URL, [ManagedObjectID]) {
        let (container, url) = try LibraryModel.container(model)
        let context = container.newBackgroundContext()
        let categories = try context.performAndWait { () throws -> [ManagedObjectID] in
            let shelves = try (0..<2).map { index in
                let shelf = try context.insertNewObject(forEntityName: "Shelf")
                try shelf.setValue("S\(index)", forKey: "name")
                return shelf
            }
            let categories = try (0..<7).map { index in
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("C\(index)", forKey: "name")
                if index < 6 { try category.setValue(shelves[index % 2], forKey: "shelf") }
                return category
            }
            for views in [Int64(500), -3] {
                let article = try context.insertNewObject(forEntityName: "Article")
                try article.setValue("Old \(views)", forKey: "title")
                try article.setValue(views, forKey: "views")
                try article.setValue(categories[0], forKey: "category")
            }
            try context.save()
            return categories.map(\.objectID)
        }
        return (container, url, categories)
    }

    /// Rows `range` of the articles: every seventh without views, every
    /// eleventh without a category, ratings with fractions.
    static func insert(
        _ range: Range<Int>, categories: [ManagedObjectID], into container: PersistentContainer,
        shift: Int = 0, policy: BatchConflictPolicy = .fail
    ) throws -> BatchResult {
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        request.conflictPolicy = policy
        let title = try request.attribute("title"), views = try request.attribute("views")
        let rating = try request.attribute("rating"), category = try request.relationship("category")
        request.source = .rows(count: range.count) { row, offset in
            let index = range.lowerBound + offset
            row.set("Ärticle \(index)", at: title)
            if index % 7 != 0 { row.set(Int64((index * 37) % 1_000) - 200, at: views) }
            row.set(Double(index % 13) / 4, at: rating)
            if index % 11 != 0 { row.set(categories[(index * 5 + shift) % categories.count], at: category) }
        }
        return try container.coordinator.execute(request)
    }

    static func table(_ container: PersistentContainer, _ sql: String) throws -> [[SQLValue]] {
        try BatchModel.rows(container, sql)
    }

    static let everyTable = [
        "SELECT * FROM ZSHELF ORDER BY Z_PK", "SELECT * FROM ZCATEGORY ORDER BY Z_PK", "SELECT * FROM ZARTICLE ORDER BY Z_PK",
    ]

    /// Expects every table of `bulk` to hold what `rowByRow`'s holds; with
    /// `ignoringVersions`, every column but Z_OPT (each save bumps the versions
    /// of the parents it added to, so saves of different sizes leave different ones).
    static func expectSameTables(
        _ bulk: PersistentContainer, as rowByRow: PersistentContainer, ignoringVersions: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        func shaped(_ rows: [[SQLValue]]) -> [[SQLValue]] {
            ignoringVersions ? rows.map { row in row.enumerated().filter { $0.offset != 2 }.map(\.element) } : rows
        }
        for sql in everyTable {
            let expected = try shaped(table(rowByRow, sql))
            #expect(try shaped(table(bulk, sql)) == expected, "\(sql)", sourceLocation: sourceLocation)
        }
    }

    @Test("2,500 rows in one request leave every table as the triggers leave it in requests of 500")
    func sameAsTriggers() throws {
        let (bulk, bulkURL, bulkCategories) = try Self.seeded(Self.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try Self.seeded(Self.model())
        defer { LibraryModel.remove(rowURL) }

        let result = try Self.insert(0..<2_500, categories: bulkCategories, into: bulk)
        #expect(result.counters.rowsInserted == 2_500)
        #expect(result.counters.rowsInsertedWithoutTriggers == 2_500)
        for start in stride(from: 0, to: 2_500, by: 500) {
            _ = try Self.insert(start..<start + 500, categories: rowCategories, into: rowByRow)
        }
        try Self.expectSameTables(bulk, as: rowByRow)
        // And what the triggers leave is what the model means.
        let counts = try Self.table(bulk, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 7 && counts.allSatisfy { $0[0] == $0[1] })
        let shelves = try Self.table(bulk, "SELECT ZARTICLETOTAL, (SELECT SUM(c.ZARTICLECOUNT) FROM ZCATEGORY c WHERE c.ZSHELF = s.Z_PK) FROM ZSHELF s")
        #expect(shelves.count == 2 && shelves.allSatisfy { $0[0] == $0[1] })
        // The writer's triggers are on again: a small insert keeps the aggregates.
        _ = try Self.insert(2_500..<2_510, categories: bulkCategories, into: bulk)
        _ = try Self.insert(2_500..<2_510, categories: rowCategories, into: rowByRow)
        #expect(try Self.table(bulk, Self.everyTable[1]) == Self.table(rowByRow, Self.everyTable[1]))
    }

    /// How many of `rows` articles inserted in one request went in with the triggers off.
    static func withoutTriggers(_ rows: Int, into container: PersistentContainer, categories: [ManagedObjectID]) throws -> Int {
        let result = try Self.insert(0..<rows, categories: categories, into: container)
        #expect(result.counters.rowsInserted == rows)
        return result.counters.rowsInsertedWithoutTriggers
    }

    @Test("The stand-in: one UPDATE … FROM of the parents over the inserted key range, every aggregate in it")
    func standInStatement() throws {
        let schema = try StoreSchema(compiling: Self.model().checked())
        // The aggregates in the model's (alphabetical) attribute order.
        #expect(schema.insertedRowsUpkeep["ZARTICLE"]?.statements == ["""
            UPDATE ZCATEGORY SET ZARTICLECOUNT = COALESCE(ZARTICLECOUNT, 0) + g.G_ZARTICLECOUNT, \
            Z_DA_ZAVERAGEVIEWS_SUM = COALESCE(Z_DA_ZAVERAGEVIEWS_SUM, 0) + g.G_Z_DA_ZAVERAGEVIEWS_SUM, \
            Z_DA_ZAVERAGEVIEWS_COUNT = COALESCE(Z_DA_ZAVERAGEVIEWS_COUNT, 0) + g.G_Z_DA_ZAVERAGEVIEWS_COUNT, \
            ZAVERAGEVIEWS = CAST(COALESCE(Z_DA_ZAVERAGEVIEWS_SUM, 0) + g.G_Z_DA_ZAVERAGEVIEWS_SUM AS REAL) / \
            NULLIF(COALESCE(Z_DA_ZAVERAGEVIEWS_COUNT, 0) + g.G_Z_DA_ZAVERAGEVIEWS_COUNT, 0), \
            ZBESTRATING = CASE WHEN g.G_ZBESTRATING IS NULL THEN ZBESTRATING WHEN ZBESTRATING IS NULL OR g.G_ZBESTRATING > ZBESTRATING \
            THEN g.G_ZBESTRATING ELSE ZBESTRATING END, \
            ZMAXVIEWS = CASE WHEN g.G_ZMAXVIEWS IS NULL THEN ZMAXVIEWS WHEN ZMAXVIEWS IS NULL OR g.G_ZMAXVIEWS > ZMAXVIEWS \
            THEN g.G_ZMAXVIEWS ELSE ZMAXVIEWS END, \
            ZMINVIEWS = CASE WHEN g.G_ZMINVIEWS IS NULL THEN ZMINVIEWS WHEN ZMINVIEWS IS NULL OR g.G_ZMINVIEWS < ZMINVIEWS \
            THEN g.G_ZMINVIEWS ELSE ZMINVIEWS END, \
            ZTOTALVIEWS = COALESCE(ZTOTALVIEWS, 0) + g.G_ZTOTALVIEWS \
            FROM (SELECT c.ZCATEGORY AS G_KEY, COUNT(*) AS G_ZARTICLECOUNT, \
            SUM(COALESCE(c.ZVIEWS, 0)) AS G_Z_DA_ZAVERAGEVIEWS_SUM, COUNT(c.ZVIEWS) AS G_Z_DA_ZAVERAGEVIEWS_COUNT, \
            MAX(c.ZRATING) AS G_ZBESTRATING, MAX(c.ZVIEWS) AS G_ZMAXVIEWS, MIN(c.ZVIEWS) AS G_ZMINVIEWS, \
            SUM(COALESCE(c.ZVIEWS, 0)) AS G_ZTOTALVIEWS \
            FROM ZARTICLE c WHERE c.Z_PK BETWEEN ?1 AND ?2 AND c.ZCATEGORY IS NOT NULL GROUP BY c.ZCATEGORY) AS g \
            WHERE ZCATEGORY.Z_PK = g.G_KEY
            """])
        #expect(schema.insertedRowsUpkeep["ZARTICLE"]?.recomputes.isEmpty == true)
    }

    @Test("A trigger the schema does not know keeps every trigger firing")
    func foreignTrigger() throws {
        let (container, url, categories) = try Self.seeded(Self.model())
        defer { LibraryModel.remove(url) }
        try container.coordinator.writer.withConnection { connection in
            try connection.execute("CREATE TABLE AUDIT (N INTEGER)")
            try connection.execute("INSERT INTO AUDIT VALUES (0)")
            try connection.execute("CREATE TRIGGER AUDIT_ARTICLES AFTER INSERT ON ZARTICLE BEGIN UPDATE AUDIT SET N = N + 1; END")
        }
        #expect(try Self.withoutTriggers(1_500, into: container, categories: categories) == 0)
        #expect(try Self.table(container, "SELECT N FROM AUDIT") == [[.integer(1_500)]])
        #expect(try Self.table(container, "SELECT SUM(ZARTICLECOUNT) FROM ZCATEGORY") == [[.integer(2 + 1_500 - 137)]])
    }

    @Test("A floating-point sum, whose rounding depends on the order of the additions, has no stand-in")
    func realSum() throws {
        let schema = try StoreSchema(compiling: Self.model(realSum: true).checked())
        #expect(schema.insertedRowsUpkeep["ZARTICLE"] == nil)
        #expect(try StoreSchema(compiling: Self.model().checked()).insertedRowsUpkeep["ZARTICLE"]?.statements.count == 1)
        let (container, url, categories) = try Self.seeded(Self.model(realSum: true))
        defer { LibraryModel.remove(url) }
        #expect(try Self.withoutTriggers(1_500, into: container, categories: categories) == 0)
        let sums = try Self.table(container, "SELECT ZTOTALRATING, (SELECT TOTAL(a.ZRATING) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(sums.allSatisfy { row in
            guard case .real(let kept) = row[0], case .real(let total) = row[1] else { return row[0] == .integer(0) || row[0] == .real(0) }
            return abs(kept - total) < 1e-9
        })
    }

    @Test("A request that fails halfway rolls back and leaves the triggers on")
    func failedRequest() throws {
        let (container, url, categories) = try Self.seeded(Self.model())
        defer { LibraryModel.remove(url) }
        let before = try Self.table(container, Self.everyTable[1])
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let views = try request.attribute("views"), title = try request.attribute("title")
        let category = try request.relationship("category")
        request.source = .rows(count: 1_500) { row, index in
            row.set(categories[index % 3], at: category)
            // A string for an integer: the request throws at row 1,200.
            if index == 1_200 { row.set("many", at: views) } else { row.set(Int64(index), at: views) }
            row.set("T", at: title)
        }
        #expect(throws: BatchError.self) { try container.coordinator.execute(request) }
        #expect(try Self.table(container, Self.everyTable[1]) == before)
        #expect(try Self.table(container, "SELECT COUNT(*) FROM ZARTICLE") == [[.integer(2)]])
        _ = try Self.insert(0..<10, categories: categories, into: container)
        let counts = try Self.table(container, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.allSatisfy { $0[0] == $0[1] })
        #expect(try Self.table(container, "SELECT SUM(ZARTICLECOUNT) FROM ZCATEGORY") == [[.integer(2 + 9)]])
    }

    @Test("Below the threshold the triggers fire row by row; from it on they stand aside")
    func threshold() throws {
        let (container, url, categories) = try Self.seeded(Self.model())
        defer { LibraryModel.remove(url) }
        let rows = TriggerlessInserts.minimumRows
        #expect(try Self.withoutTriggers(rows - 1, into: container, categories: categories) == 0)
        #expect(try Self.withoutTriggers(rows, into: container, categories: categories) == rows)
    }

    @Test("An upsert, which may move existing rows to other parents, keeps the triggers firing")
    func upsert() throws {
        let (container, url, categories) = try Self.seeded(Self.model(uniqueTitles: true))
        defer { LibraryModel.remove(url) }
        _ = try Self.insert(0..<500, categories: categories, into: container)
        let result = try Self.insert(0..<1_500, categories: categories, into: container, shift: 3, policy: .objectTrump)
        #expect(result.counters.rowsInserted == 1_000 && result.counters.rowsUpdated == 500)
        #expect(result.counters.rowsInsertedWithoutTriggers == 0)
        let truth = try Self.table(container, """
            SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK),
                   ZTOTALVIEWS, (SELECT TOTAL(a.ZVIEWS) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c
            """)
        #expect(truth.count == 7)
        for row in truth {
            #expect(row[0] == row[1])
            guard case .integer(let kept) = row[2], case .real(let total) = row[3] else { Issue.record("\(row)"); continue }
            #expect(Double(kept) == total)
        }
    }
}

/// A streaming request does not say its count: the triggers fire for its
/// first rows and stand aside for the rest.
@Suite("A streaming batch insert turns the triggers off after 1,000 rows")
struct TriggerlessStreamTests {
    /// Articles `range`, as TriggerlessInsertTests.insert sets them, through
    /// `dictionaryHandler` or `rowHandler`.
    static func stream(
        _ range: Range<Int>, dictionaries: Bool, categories: [ManagedObjectID], into container: PersistentContainer
    ) throws -> BatchResult {
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        var next = range.lowerBound
        if dictionaries {
            request.source = .dictionaryHandler { values in
                guard next < range.upperBound else { return true }
                defer { next += 1 }
                values["title"] = "Ärticle \(next)"
                if next % 7 != 0 { values["views"] = Int64((next * 37) % 1_000) - 200 }
                values["rating"] = Double(next % 13) / 4
                if next % 11 != 0 { values["category"] = categories[(next * 5) % categories.count] }
                return false
            }
        } else {
            let title = try request.attribute("title"), views = try request.attribute("views")
            let rating = try request.attribute("rating"), category = try request.relationship("category")
            request.source = .rowHandler { row in
                guard next < range.upperBound else { return true }
                defer { next += 1 }
                row.set("Ärticle \(next)", at: title)
                if next % 7 != 0 { row.set(Int64((next * 37) % 1_000) - 200, at: views) }
                row.set(Double(next % 13) / 4, at: rating)
                if next % 11 != 0 { row.set(categories[(next * 5) % categories.count], at: category) }
                return false
            }
        }
        return try container.coordinator.execute(request)
    }

    @Test("2,500 streamed rows: 1,000 with the triggers, 1,500 without, every table as requests of 500 leave it",
          arguments: [true, false])
    func sameAsTriggers(dictionaries: Bool) throws {
        let (bulk, bulkURL, bulkCategories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(rowURL) }

        let result = try Self.stream(0..<2_500, dictionaries: dictionaries, categories: bulkCategories, into: bulk)
        #expect(result.counters.rowsInserted == 2_500)
        #expect(result.counters.rowsInsertedWithoutTriggers == 1_500)
        for start in stride(from: 0, to: 2_500, by: 500) {
            let small = try Self.stream(start..<start + 500, dictionaries: dictionaries, categories: rowCategories, into: rowByRow)
            #expect(small.counters.rowsInsertedWithoutTriggers == 0)
        }
        try TriggerlessInsertTests.expectSameTables(bulk, as: rowByRow)
        let counts = try TriggerlessInsertTests.table(
            bulk, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 7 && counts.allSatisfy { $0[0] == $0[1] })
    }

    @Test("A stream that ends at 1,000 rows, or fails after the switch, leaves the aggregates right and the triggers on")
    func endsAtTheSwitch() throws {
        let (container, url, categories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(url) }
        let exact = try Self.stream(0..<TriggerlessInserts.minimumRows, dictionaries: false, categories: categories, into: container)
        #expect(exact.counters.rowsInserted == 1_000 && exact.counters.rowsInsertedWithoutTriggers == 0)
        let before = try TriggerlessInsertTests.table(container, TriggerlessInsertTests.everyTable[1])

        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        var index = 0
        request.source = .dictionaryHandler { values in
            defer { index += 1 }
            guard index < 1_500 else { return true }
            values["title"] = "T"
            // A string for an integer: the request throws at row 1,200, with the triggers off.
            values["views"] = index == 1_200 ? "many" : Int64(index)
            values["category"] = categories[index % 3]
            return false
        }
        #expect(throws: BatchError.self) { try container.coordinator.execute(request) }
        #expect(try TriggerlessInsertTests.table(container, TriggerlessInsertTests.everyTable[1]) == before)
        _ = try TriggerlessInsertTests.insert(0..<10, categories: categories, into: container)
        let counts = try TriggerlessInsertTests.table(
            container, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 7 && counts.allSatisfy { $0[0] == $0[1] })
        #expect(try TriggerlessInsertTests.table(container, "SELECT COUNT(*) FROM ZARTICLE") == [[.integer(2 + 1_000 + 10)]])
    }
}

/// A save of many new objects takes the same path as a batch insert.
@Suite("A save of many new objects with triggers off")
struct TriggerlessSaveTests {
    /// Saves articles `range` (as TriggerlessInsertTests.insert sets them) in saves of `perSave`.
    static func save(_ range: Range<Int>, perSave: Int, categories: [ManagedObjectID], into container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let parents = try categories.map { try context.existingObject(with: $0) }
            for index in range {
                _ = try article(index, categories: parents, in: context)
                if (index - range.lowerBound + 1) % perSave == 0 { try context.save() }
            }
            try context.save()
        }
    }

    /// A new article number `index`, as TriggerlessInsertTests.insert sets it.
    static func article(_ index: Int, categories: [ManagedObject], in context: ManagedObjectContext) throws -> ManagedObject {
        let article = try context.insertNewObject(forEntityName: "Article")
        try article.setValue("Ärticle \(index)", forKey: "title")
        if index % 7 != 0 { try article.setValue(Int64((index * 37) % 1_000) - 200, forKey: "views") }
        try article.setValue(Double(index % 13) / 4, forKey: "rating")
        if index % 11 != 0 { try article.setValue(categories[(index * 5) % categories.count], forKey: "category") }
        return article
    }

    @Test("One save of 2,500 articles leaves every table as saves of 500 do, and a fresh context reads the stored counts")
    func sameAsTriggers() throws {
        let (bulk, bulkURL, bulkCategories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowCategories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(rowURL) }
        let writer = bulk.coordinator.writer
        try Self.save(0..<2_500, perSave: 2_500, categories: bulkCategories, into: bulk)
        #expect(writer.rowsInsertedWithoutTriggers.load(ordering: .relaxed) == 2_500)
        try Self.save(0..<2_500, perSave: 500, categories: rowCategories, into: rowByRow)
        #expect(rowByRow.coordinator.writer.rowsInsertedWithoutTriggers.load(ordering: .relaxed) == 0)
        try TriggerlessInsertTests.expectSameTables(bulk, as: rowByRow, ignoringVersions: true)
        // A fresh context sees the stored counts (the saved categories were read back).
        let context = bulk.newBackgroundContext()
        let counts = try context.performAndWait {
            try bulkCategories.map { try context.existingObject(with: $0).value(forKey: "articleCount") as? Int64 }
        }
        let stored = try TriggerlessInsertTests.table(bulk, "SELECT ZARTICLECOUNT FROM ZCATEGORY ORDER BY Z_PK")
        #expect(counts.map { $0.map(SQLValue.integer) ?? .null } == stored.map { $0[0] })
    }
}

extension TriggerlessSaveTests {
    @Test("Keys given before the save, with another save's rows between them, keep the triggers firing")
    func keysWithGaps() throws {
        let (container, url, categories) = try TriggerlessInsertTests.seeded(TriggerlessInsertTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        // The other save bumps the categories' versions under this context.
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            let parents = try categories.map { try context.existingObject(with: $0) }
            func article(_ index: Int) throws -> ManagedObject {
                let article = try context.insertNewObject(forEntityName: "Article")
                try article.setValue("Early \(index)", forKey: "title")
                try article.setValue(Int64(index), forKey: "views")
                try article.setValue(parents[index % parents.count], forKey: "category")
                return article
            }
            // 600 keys given now; another context saves 10 articles above them;
            // then 600 more new objects: two runs of keys with those 10 rows between.
            let early = try (0..<600).map(article)
            try context.obtainPermanentIDs(for: early)
            try Self.save(0..<10, perSave: 10, categories: categories, into: container)
            _ = try (600..<1_200).map(article)
            try context.save()
        }
        #expect(container.coordinator.writer.rowsInsertedWithoutTriggers.load(ordering: .relaxed) == 0)
        let counts = try TriggerlessInsertTests.table(
            container, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 7 && counts.allSatisfy { $0[0] == $0[1] })
        #expect(try TriggerlessInsertTests.table(container, "SELECT SUM(ZARTICLECOUNT) FROM ZCATEGORY") == [[.integer(2 + 9 + 1_200)]])
    }
}
