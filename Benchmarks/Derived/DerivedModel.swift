import Faultline
import Foundation

/// How a category's `articleCount` and `totalViews` are kept.
enum Strategy: String, CaseIterable {
    /// Derived attributes: the store's triggers maintain them on every write.
    case triggers
    /// Plain attributes: the app computes them in Swift and saves them.
    case swiftAtSave
    /// Not stored: a `COUNT`/`SUM … GROUP BY` query computes them when read.
    case onRead
}

/// The Derived suite's model: `Article` → `Category`, 100 categories, with the
/// category's count and sum kept by `strategy`, and optionally the article's
/// canonical search column (for the canonical-column lines only).
enum DerivedModel {
    static let categoryCount = 100

    static func model(_ strategy: Strategy, canonical: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Article") {
                Attribute("title", .string)
                Attribute("body", .string)
                Attribute("views", .integer64)
                Attribute("created", .date)
                Relationship("category", to: "Category", inverse: "articles")
                if canonical {
                    Derived("searchTitle", .string, "canonical:(title)")
                }
            }
            Entity("Category") {
                Attribute("name", .string)
                Relationship("articles", to: "Article", inverse: "category", toMany: true)
                if strategy == .triggers {
                    Derived("articleCount", .integer64, "articles.@count")
                    Derived("totalViews", .integer64, "@sum.articles.views")
                }
                if strategy == .swiftAtSave {
                    Attribute("articleCount", .integer64)
                    Attribute("totalViews", .integer64)
                }
            }
        }
    }

    /// The raw reference's INSERT: the columns a batch insert writes.
    static let rawInsert = "INSERT INTO ZARTICLE(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZVIEWS, ZCREATED, ZCATEGORY) VALUES(?, ?, ?, ?, ?, ?, ?, ?)"
    /// The update every update-heavy line runs, one row per execution.
    static let updateViews = "UPDATE ZARTICLE SET ZVIEWS = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?"
    /// Computing on read: every category's count and sum in one statement.
    static let aggregates = "SELECT ZCATEGORY, COUNT(*), COALESCE(SUM(ZVIEWS), 0) FROM ZARTICLE GROUP BY ZCATEGORY ORDER BY ZCATEGORY"
    /// The stored values, for the triggers and swiftAtSave strategies.
    static let stored = "SELECT Z_PK, ZARTICLECOUNT, ZTOTALVIEWS FROM ZCATEGORY ORDER BY Z_PK"
}

struct DerivedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
