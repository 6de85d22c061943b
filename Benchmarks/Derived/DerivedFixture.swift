import BenchmarkData
import Faultline
import FaultlineBench
import FaultlineSQLite
import Foundation

/// One iteration's store: a fresh file with the 100 categories saved, the
/// container for typed batch inserts and Swift-side saves, and a second
/// connection (the store's SQL functions registered) for the SQL the lines run
/// by hand: the per-row UPDATE loop and the aggregate reads.
final class DerivedFixture {
    let strategy: Strategy
    let canonical: Bool
    let url: URL
    let container: PersistentContainer
    let context: ManagedObjectContext
    let categories: [ManagedObject]
    let connection: Connection
    /// Category primary key → index into `Totals`.
    private let categoryIndex: [Int64: Int]

    init(_ strategy: Strategy, canonical: Bool = false) throws {
        self.strategy = strategy
        self.canonical = canonical
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-derived-\(UUID().uuidString).sqlite")
        container = try PersistentContainer(model: DerivedModel.model(strategy, canonical: canonical), location: .file(url))
        context = container.newBackgroundContext()
        let context = self.context
        categories = try context.performAndWait {
            var created: [ManagedObject] = []
            for index in 0..<DerivedModel.categoryCount {
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("Category \(index)", forKey: "name")
                if strategy == .swiftAtSave {
                    try category.setValue(Int64(0), forKey: "articleCount")
                    try category.setValue(Int64(0), forKey: "totalViews")
                }
                created.append(category)
            }
            try context.save()
            return created
        }
        categoryIndex = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($0.element.objectID.primaryKey, $0.offset) })
        connection = try Connection.rawWriter(url.path)
    }

    /// The typed batch insert: handles resolved once, values bound per row.
    func insertTyped(_ dataset: ArticleDataset) throws {
        try dataset.batchInsert(into: container.coordinator, categories: categories.map(\.objectID))
    }

    /// Swift at save: sets every category's plain count and sum attributes and
    /// saves them (one UPDATE per category).
    func save(_ totals: Totals) throws {
        let context = self.context
        let categories = self.categories
        try context.performAndWait {
            for (index, category) in categories.enumerated() {
                try category.setValue(totals.counts[index], forKey: "articleCount")
                try category.setValue(totals.sums[index], forKey: "totalViews")
            }
            try context.save()
        }
    }

    /// Swift at save, after updates: adds each affected category's change of
    /// views (old values known to the app) to its saved sum and saves.
    func saveSums(after updates: ViewUpdates, on dataset: ArticleDataset) throws {
        var deltas: [Int: Int64] = [:]
        for (update, row) in updates.rows.enumerated() {
            deltas[Int(dataset.categoryIDs[row] - 1), default: 0] += updates.views[update] - dataset.views[row]
        }
        let context = self.context
        let categories = self.categories
        try context.performAndWait {
            for (index, delta) in deltas {
                guard let sum = categories[index].value(forKey: "totalViews") as? Int64 else {
                    throw DerivedError("swiftAtSave: category \(index) has no saved totalViews")
                }
                try categories[index].setValue(sum + delta, forKey: "totalViews")
            }
            try context.save()
        }
    }

    /// The update-heavy work: one prepared UPDATE bound per row, one transaction.
    func apply(_ updates: ViewUpdates) throws {
        let statement = try connection.prepare(DerivedModel.updateViews)
        try connection.transaction(.immediate) {
            for index in 0..<updates.count {
                try statement.bind(updates.views[index], at: 1)
                try statement.bind(updates.keys[index], at: 2)
                try statement.execute()
            }
        }
    }

    /// Computing on read: one COUNT/SUM … GROUP BY over the articles.
    func readAggregates() throws -> Totals {
        try totals(DerivedModel.aggregates)
    }

    /// The stored derived (or Swift-maintained) values.
    func readStored() throws -> Totals {
        try totals(DerivedModel.stored)
    }

    private func totals(_ sql: String) throws -> Totals {
        var totals = Totals(categoryCount: DerivedModel.categoryCount)
        let statement = try connection.prepare(sql)
        while try statement.step() {
            guard let index = categoryIndex[statement.int64(at: 0)] else {
                throw DerivedError("unknown category key \(statement.int64(at: 0)) in \(sql)")
            }
            totals.counts[index] = statement.int64(at: 1)
            totals.sums[index] = statement.int64(at: 2)
        }
        return totals
    }

    /// The correctness check: the strategy's values (stored, or `readOnce` for
    /// on-read) and the table's own aggregates must both equal what Swift
    /// computed from the dataset. Throws on any difference.
    func verify(_ expected: Totals, line: String, readOnce: Totals? = nil) throws {
        let actual = try aggregatesOrStored(readOnce)
        let table = try readAggregates()
        guard actual == expected, table == expected else {
            throw DerivedError("\(line): per-category totals are wrong (checksum \(actual.checksum), table \(table.checksum), expected \(expected.checksum))")
        }
    }

    private func aggregatesOrStored(_ readOnce: Totals?) throws -> Totals {
        switch strategy {
        case .onRead:
            guard let readOnce else { throw DerivedError("onRead: the measured read returned nothing") }
            return readOnce
        case .triggers, .swiftAtSave:
            return try readStored()
        }
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

extension DerivedFixture {
    /// Every line's check of the rows themselves: every article of `dataset`
    /// with its own values (views and version as `updates` left them), its
    /// canonical title when the schema has one (and no NULL one anywhere),
    /// and every category's name.
    func verifyRows(_ dataset: ArticleDataset, updates: ViewUpdates? = nil) throws {
        let verifier = StoreVerifier(connection: connection)
        try verifier.verify(CoreDataArticleTables.articles(
            dataset, entity: try verifier.entityNumber("Article"), canonical: canonical,
            views: updates.map { updates in ExpectedColumn("ZVIEWS") { updates.views(key: $0, in: dataset) } },
            version: updates.map { updates in ExpectedColumn("Z_OPT") { updates.version(key: $0) } }))
        if canonical { try verifier.expectCount("ZARTICLE", dataset.count, where: "ZSEARCHTITLE IS NOT NULL") }
        try verifier.verify(CoreDataArticleTables.categories(
            count: DerivedModel.categoryCount, entity: try verifier.entityNumber("Category")))
    }
}

/// The plan of the on-read aggregate, on an empty store of the same schema:
/// recorded so the gate notices if the GROUP BY stops using the category index.
func aggregatePlans() throws -> [String: String] {
    let fixture = try DerivedFixture(.onRead)
    defer { fixture.remove() }
    return ["aggregates": try QueryPlan.explain(DerivedModel.aggregates, on: fixture.connection)]
}
