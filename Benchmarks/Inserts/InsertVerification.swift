import BenchmarkData
import FaultlineSQLite

extension InsertFixture {
    /// Every line's check, raw or Faultline: the store holds each article of
    /// `dataset` with its own values in its own columns, and (with triggers)
    /// its canonical title and every category's derived article count.
    func verifyInserted(_ dataset: ArticleDataset, withTriggers: Bool) throws {
        let verifier = try StoreVerifier(path: url.path)
        try verifier.verify(CoreDataArticleTables.articles(
            dataset, entity: try verifier.entityNumber("Article"), canonical: withTriggers))
        let counts = dataset.categoryTotals(categoryCount: InsertsModel.categoryCount).counts
        try verifier.verify(CoreDataArticleTables.categories(
            count: InsertsModel.categoryCount, entity: try verifier.entityNumber("Category"),
            derived: withTriggers ? [CoreDataArticleTables.perCategory("ZARTICLECOUNT", counts)] : []))
    }
}
