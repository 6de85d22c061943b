import BenchmarkData
import Faultline
import FaultlineBench
import FaultlineSQLite
import Foundation
import Testing

/// The verifier every suite line goes through catches what a wrong line
/// writes: a swapped column, a missing row, a wrong derived value.
@Suite("Store verifier")
struct StoreVerifierTests {
    /// An Inserts-shaped store: articles with a canonical title, categories
    /// with a derived article count, filled by the typed batch insert.
    final class Store {
        let url: URL
        let dataset = ArticleDataset(count: 200)
        let container: PersistentContainer
        let categoryCount = 10

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("verifier-\(UUID().uuidString).sqlite")
            container = try PersistentContainer(model: ManagedObjectModel {
                Entity("Article") {
                    Attribute("title", .string)
                    Attribute("body", .string)
                    Attribute("views", .integer64)
                    Attribute("created", .date)
                    Relationship("category", to: "Category", inverse: "articles")
                    Derived("searchTitle", .string, "canonical:(title)")
                }
                Entity("Category") {
                    Attribute("name", .string)
                    Relationship("articles", to: "Article", inverse: "category", toMany: true)
                    Derived("articleCount", .integer64, "articles.@count")
                }
            }, location: .file(url))
            let context = container.newBackgroundContext()
            let count = categoryCount
            let categories = try context.performAndWait {
                let made = try (0..<count).map { index in
                    let category = try context.insertNewObject(forEntityName: "Category")
                    try category.setValue("Category \(index)", forKey: "name")
                    return category
                }
                try context.save()
                return made.map(\.objectID)
            }
            // 100 data-set categories folded onto ten.
            try ArticleDataset(count: 200).batchInsert(
                into: container.coordinator, categories: (0..<100).map { categories[$0 % count] })
        }

        /// The data set as this store holds it (category ids folded onto ten).
        func articles(_ verifier: StoreVerifier) throws -> ExpectedTable {
            var table = CoreDataArticleTables.articles(dataset, entity: try verifier.entityNumber("Article"), canonical: true)
            if let index = table.columns.firstIndex(where: { $0.name == "ZCATEGORY" }) {
                table.columns[index] = ExpectedColumn("ZCATEGORY") { key in
                    .integer((self.dataset.categoryIDs[Int(key) - 1] - 1) % Int64(self.categoryCount) + 1)
                }
            }
            return table
        }

        func categories(_ verifier: StoreVerifier) throws -> ExpectedTable {
            var counts = [Int64](repeating: 0, count: categoryCount)
            for id in dataset.categoryIDs { counts[Int((id - 1) % Int64(categoryCount))] += 1 }
            return CoreDataArticleTables.categories(
                count: categoryCount, entity: try verifier.entityNumber("Category"),
                derived: [CoreDataArticleTables.perCategory("ZARTICLECOUNT", counts)])
        }

        func verifier() throws -> StoreVerifier {
            try StoreVerifier(path: url.path) { try StoreFunctions.register(on: $0) }
        }

        func remove() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
    }

    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A store written right passes, canonical titles and derived counts included")
    func passes() throws {
        let store = try Store()
        defer { store.remove() }
        let verifier = try store.verifier()
        try verifier.verify(try store.articles(verifier))
        try verifier.verify(try store.categories(verifier))
    }

    @Test("Two columns swapped (the typed-key defect's shape) fail, naming the row and column")
    func swappedColumn() throws {
        let store = try Store()
        defer { store.remove() }
        let verifier = try store.verifier()
        try verifier.connection.execute("UPDATE ZARTICLE SET ZVIEWS = ZTITLE, ZTITLE = NULL WHERE Z_PK = 200")
        let message = failure { try verifier.verify(try store.articles(verifier)) }
        #expect(message?.hasPrefix("ZARTICLE row Z_PK = 200: ZTITLE is NULL, expected 'Article 199:") == true)
    }

    @Test("A missing row fails on the count; a missing sampled row with the count made up fails on the row")
    func missingRow() throws {
        let store = try Store()
        defer { store.remove() }
        let verifier = try store.verifier()
        try verifier.connection.execute("DELETE FROM ZARTICLE WHERE Z_PK = 1")
        #expect(failure { try verifier.verify(try store.articles(verifier)) } == "ZARTICLE has 199 rows, expected 200")
        try verifier.connection.execute(
            "INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT 201, Z_ENT, 1, 'extra' FROM ZARTICLE WHERE Z_PK = 2")
        #expect(failure { try verifier.verify(try store.articles(verifier)) } == "ZARTICLE has no row Z_PK = 1")
    }

    @Test("A wrong derived value fails: a category's count, an article's canonical title")
    func wrongDerived() throws {
        let store = try Store()
        defer { store.remove() }
        let verifier = try store.verifier()
        try verifier.connection.execute("UPDATE ZCATEGORY SET ZARTICLECOUNT = ZARTICLECOUNT + 1 WHERE Z_PK = 4")
        #expect(failure { try verifier.verify(try store.categories(verifier)) }?.hasPrefix("ZCATEGORY row Z_PK = 4: ZARTICLECOUNT is") == true)
        try verifier.connection.execute("UPDATE ZARTICLE SET ZSEARCHTITLE = 'Article 0' WHERE Z_PK = 1")
        #expect(failure { try verifier.verify(try store.articles(verifier)) }?.hasPrefix("ZARTICLE row Z_PK = 1: ZSEARCHTITLE is 'Article 0'") == true)
    }

    @Test("The sample holds the first two, the last and rows spread between, each once")
    func sample() {
        #expect(ExpectedTable.sample(count: 0) == [])
        #expect(ExpectedTable.sample(count: 1) == [1])
        let keys = ExpectedTable.sample(count: 10_000)
        #expect(keys.first == 1 && keys.dropFirst().first == 2 && keys.last == 10_000)
        #expect(keys.count == 10 && Set(keys).count == keys.count)
    }

    @Test("A graph's raw reads and a strategy's titles match the plain SQL reads; a wrong result fails")
    func graphReads() throws {
        let store = try ObjectGraphStore(shape: try GraphShape(parents: 20, fanOuts: [3, 2]))
        defer { store.remove() }
        let workload = try GraphWorkload(
            shape: store.shape, pattern: try AccessPattern(fraction: 0.5, order: .random, keyPaths: ["books.chapters"]))
        let reader = try RawGraphReader(store: store, workload: workload)
        let raw = try reader.run()
        try workload.verifyRaw(raw, rows: reader.lastRun.rowsReturned, storePath: store.url.path)
        #expect(failure { try workload.verifyRaw(raw + 1, rows: reader.lastRun.rowsReturned, storePath: store.url.path) } != nil)
        let titles = Int64(try workload.run(.prefetch, in: store.container.newBackgroundContext()))
        try workload.verifyTitles(titles, storePath: store.url.path)
        #expect(failure { try workload.verifyTitles(titles - 1, storePath: store.url.path) }?
            .contains("the store read by plain SQLite says \(titles)") == true)
    }
}
