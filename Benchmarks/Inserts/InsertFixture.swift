import BenchmarkData
import CSQLiteReference
import Faultline
import FaultlineBench
import FaultlineSQLite
import Foundation

/// One iteration's store: a fresh file with the categories already saved.
final class InsertFixture {
    let url: URL
    let container: PersistentContainer
    let context: ManagedObjectContext
    let categories: [ManagedObject]

    /// `history`: the store records persistent history (Core Data's tables).
    init(withTriggers: Bool, history: Bool = false) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-inserts-\(UUID().uuidString).sqlite")
        container = try PersistentContainer(model: InsertsModel.model(withTriggers: withTriggers), location: .file(url),
                                            persistentHistoryTracking: history ? true : nil)
        try container.register(Article.self, forEntityName: "Article")
        context = container.newBackgroundContext()
        let context = self.context
        categories = try context.performAndWait {
            var created: [ManagedObject] = []
            for index in 0..<InsertsModel.categoryCount {
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("Category \(index)", forKey: "name")
                created.append(category)
            }
            try context.save()
            return created
        }
    }

    /// Inserts `dataset` object by object, saving every `saveEvery` objects (0: once at the end).
    func insertPerObject(_ dataset: ArticleDataset, saveEvery: Int) throws {
        let context = self.context
        let categories = self.categories
        try context.performAndWait {
            for row in 0..<dataset.count {
                let article = try context.insertObject(Article.self)
                article[Article.title] = dataset.titles[row]
                article[Article.body] = dataset.bodies[row]
                article[Article.views] = dataset.views[row]
                article[Article.created] = Date(timeIntervalSinceReferenceDate: dataset.created[row])
                article[Article.category] = categories[Int(dataset.categoryIDs[row] - 1)]
                if saveEvery > 0, (row + 1) % saveEvery == 0 { try context.save() }
            }
            try context.save()
        }
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// The raw line: the SQLite C API inserting the same rows into the same table
/// (triggers included) on a connection with the store's SQL functions.
final class RawInsertFixture {
    /// How the loop commits.
    enum Commits {
        /// Every row in one transaction.
        case once
        /// BEGIN IMMEDIATE, INSERT, COMMIT per row.
        case eachRow
        /// Per row, what a save of one new article sends: the INSERT between
        /// the key reservation and the category's version bump.
        case eachSave
    }

    let fixture: InsertFixture
    let connection: Connection
    private let statements: RawStatements
    var insert: OpaquePointer { statements[0] }
    var begin: OpaquePointer { statements[1] }
    var commit: OpaquePointer { statements[2] }
    var reserve: OpaquePointer { statements[3] }
    var bump: OpaquePointer { statements[4] }
    /// Each category's `Z_OPT`, by category key - 1, as the store holds it.
    private var categoryVersions: [Int64]

    /// `keepsTriggers: false` drops the store's triggers and keeps its derived
    /// columns and their indexes: what the columns cost without their upkeep.
    init(withTriggers: Bool, keepsTriggers: Bool = true) throws {
        fixture = try InsertFixture(withTriggers: withTriggers)
        connection = try Connection.rawWriter(fixture.url.path)
        if !keepsTriggers {
            for row in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
                guard case .text(let name)? = row.first else { throw InsertsError("a trigger without a name") }
                try connection.execute("DROP TRIGGER \"\(name)\"")
            }
        }
        statements = try RawStatements(
            [InsertsModel.rawInsert(withTriggers: withTriggers), "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
             InsertsModel.rawKeyReservation, InsertsModel.rawCategoryBump],
            on: connection)
        categoryVersions = try connection.rows("SELECT Z_OPT FROM ZCATEGORY ORDER BY Z_PK").map { row in
            guard case .integer(let version)? = row.first else { throw InsertsError("a category without Z_OPT") }
            return version
        }
        guard categoryVersions.count == InsertsModel.categoryCount else {
            throw InsertsError("expected \(InsertsModel.categoryCount) categories, found \(categoryVersions.count)")
        }
    }

    /// Inserts every article with keys after the categories' block, as a key
    /// reservation would hand them out, committing as `commits` says.
    func run(_ dataset: ArticleDataset, commits: Commits) throws {
        var counters = fl_ref_counters()
        let categoryCount = Int64(categoryVersions.count)
        let code = categoryVersions.withUnsafeMutableBufferPointer { versions in
            dataset.withCArticles { articles in
                switch commits {
                case .once: fl_ref_insert_keyed(insert, begin, commit, articles, 1, 1, &counters)
                case .eachRow: fl_ref_insert_keyed_each(insert, begin, commit, articles, 1, 1, &counters)
                case .eachSave:
                    fl_ref_save_each(insert, begin, commit, reserve, bump, articles, 1, 1, versions.baseAddress,
                                     categoryCount, &counters)
                }
            }
        }
        SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw InsertsError("raw insert failed with SQLite code \(code)") }
    }
}

struct InsertsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension InsertFixture {
    /// The batch insert, typed form: handles resolved once, values bound per row
    /// with no dictionary and no boxing.
    func insertTyped(_ dataset: ArticleDataset) throws {
        try dataset.batchInsert(into: container.coordinator, categories: categories.map(\.objectID))
    }

    /// The batch insert, Core Data's form: an array of dictionaries.
    func insertDictionaries(_ dataset: ArticleDataset) throws {
        var objects: [[String: Any]] = []
        objects.reserveCapacity(dataset.count)
        for index in 0..<dataset.count {
            objects.append([
                "title": dataset.titles[index], "body": dataset.bodies[index], "views": dataset.views[index],
                "created": Date(timeIntervalSinceReferenceDate: dataset.created[index]),
                "category": categories[Int(dataset.categoryIDs[index] - 1)].objectID,
            ])
        }
        let request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: objects)
        _ = try container.coordinator.execute(request)
    }

    /// The batch insert, Core Data's streaming form: one dictionary filled per
    /// row, the count not said ahead.
    func insertDictionaryHandler(_ dataset: ArticleDataset) throws {
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let categoryIDs = categories.map(\.objectID)
        var index = 0
        request.source = .dictionaryHandler { values in
            guard index < dataset.count else { return true }
            defer { index += 1 }
            values["title"] = dataset.titles[index]
            values["body"] = dataset.bodies[index]
            values["views"] = dataset.views[index]
            values["created"] = Date(timeIntervalSinceReferenceDate: dataset.created[index])
            values["category"] = categoryIDs[Int(dataset.categoryIDs[index] - 1)]
            return false
        }
        _ = try container.coordinator.execute(request)
    }
}
