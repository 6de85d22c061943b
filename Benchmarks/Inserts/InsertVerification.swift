import BenchmarkData
import FaultlineSQLite

extension InsertFixture {
    /// Every line's check, raw or Faultline: the store holds each article of
    /// `dataset` with its own values in its own columns, and (with triggers)
    /// its canonical title and every category's derived article count.
    func verifyInserted(_ dataset: ArticleDataset, withTriggers: Bool) throws {
        try verifyInserted(dataset, canonical: withTriggers, counted: withTriggers)
    }

    /// `counted`: each category's derived article count is checked too (a
    /// line whose triggers were dropped keeps the canonical column only).
    func verifyInserted(_ dataset: ArticleDataset, canonical: Bool, counted: Bool) throws {
        let verifier = try StoreVerifier(path: url.path)
        try verifier.verify(CoreDataArticleTables.articles(
            dataset, entity: try verifier.entityNumber("Article"), canonical: canonical))
        let counts = dataset.categoryTotals(categoryCount: InsertsModel.categoryCount).counts
        try verifier.verify(CoreDataArticleTables.categories(
            count: InsertsModel.categoryCount, entity: try verifier.entityNumber("Category"),
            derived: counted ? [CoreDataArticleTables.perCategory("ZARTICLECOUNT", counts)] : []))
    }

    /// A history line's check: one insert change per article and category,
    /// each naming its row, in `transactions` transactions after the categories'.
    func verifyHistory(_ dataset: ArticleDataset, transactions: Int) throws {
        let verifier = try StoreVerifier(path: url.path)
        try verifier.expectCount("ACHANGE", dataset.count + InsertsModel.categoryCount, where: "ZCHANGETYPE = 0")
        try verifier.expectCount("ACHANGE", dataset.count, where: "ZENTITY = \(try verifier.entityNumber("Article")) AND "
            + "ZENTITYPK IN (SELECT Z_PK FROM ZARTICLE)")
        try verifier.expectCount("ATRANSACTION", 1 + transactions)
    }
}
