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
    let fixture: InsertFixture
    let connection: Connection
    private let statements: RawStatements
    var insert: OpaquePointer { statements[0] }
    var begin: OpaquePointer { statements[1] }
    var commit: OpaquePointer { statements[2] }

    init(withTriggers: Bool) throws {
        fixture = try InsertFixture(withTriggers: withTriggers)
        connection = try Connection.rawWriter(fixture.url.path)
        statements = try RawStatements(
            [InsertsModel.rawInsert(withTriggers: withTriggers), "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION"],
            on: connection)
    }

    /// Inserts every article in one transaction, or (`commitEach`) each in a
    /// transaction of its own, as one save per object commits.
    func run(_ dataset: ArticleDataset, commitEach: Bool = false) throws {
        var counters = fl_ref_counters()
        // Keys after the categories' block, as a key reservation would hand out.
        let code = dataset.withCArticles { articles in
            commitEach
                ? fl_ref_insert_keyed_each(insert, begin, commit, articles, 1, 1, &counters)
                : fl_ref_insert_keyed(insert, begin, commit, articles, 1, 1, &counters)
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
}
