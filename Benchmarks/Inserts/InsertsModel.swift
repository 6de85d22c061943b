import Faultline
import Foundation

/// The Inserts suite's entity: an `Article` with a canonical search column and
/// a derived count on its category, or the same entity with no derived
/// attributes, so trigger maintenance costs its own line.
enum InsertsModel {
    static func model(withTriggers: Bool) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Article", className: "Article") {
                Attribute("title", .string)
                Attribute("body", .string)
                Attribute("views", .integer64)
                Attribute("created", .date)
                Relationship("category", to: "Category", inverse: "articles")
                if withTriggers {
                    Derived("searchTitle", .string, "canonical:(title)")
                }
            }
            Entity("Category") {
                Attribute("name", .string)
                Relationship("articles", to: "Article", inverse: "category", toMany: true)
                if withTriggers {
                    Derived("articleCount", .integer64, "articles.@count")
                }
            }
        }
    }

    /// The INSERT the raw C loop runs: the statement a per-object save issues —
    /// its columns, `OR FAIL`, and with the triggers the search column computed
    /// in the statement (the trigger then has nothing to do).
    static func rawInsert(withTriggers: Bool) -> String {
        withTriggers
            ? "INSERT OR FAIL INTO ZARTICLE(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZVIEWS, ZCREATED, ZCATEGORY, ZSEARCHTITLE) "
                + "VALUES(?, ?, ?, ?, ?, ?, ?, ?, FAULTLINE_CANONICAL(?4))"
            : "INSERT OR FAIL INTO ZARTICLE(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZVIEWS, ZCREATED, ZCATEGORY) "
                + "VALUES(?, ?, ?, ?, ?, ?, ?, ?)"
    }
    /// A save's key reservation and, its to-many changed, the category's
    /// version bump: the statements Faultline sends, as Core Data does.
    static let rawKeyReservation = "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"
    static let rawCategoryBump = "UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
    static let categoryCount = 100
}

/// The typed subclass a per-object insert uses: index access, no string hashing.
final class Article: ManagedObject {
    static let title = AttributeKey<String?>("title")
    static let body = AttributeKey<String?>("body")
    static let views = AttributeKey<Int64?>("views")
    static let created = AttributeKey<Date?>("created")
    static let category = ToOneKey<ManagedObject>("category")
}
