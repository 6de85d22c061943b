import Faultline
import Foundation

/// The Fetching suite's entity: an `Article` whose `title` has a canonical
/// search column (`searchTitle`, indexed by the store), `views` indexed and
/// `score` holding the same values without an index, so one store answers
/// "sorted with an index" and "sorted without one" on identical data.
enum FetchingModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Article") {
                Attribute("title", .string)
                Attribute("body", .string)
                Attribute("views", .integer64).indexed()
                Attribute("score", .integer64)
                Attribute("created", .date)
                Derived("searchTitle", .string, "canonical:(title)")
            }
        }
    }

    static let entity = "Article"
    static let table = "ZARTICLE"
    /// Every column a full-row fetch of the store reads, as the raw loops select them.
    static let columns = "t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZBODY, t0.ZVIEWS, t0.ZSCORE, t0.ZCREATED, t0.ZSEARCHTITLE"
}

/// Typed keys: index access, no string hashing per access.
enum ArticleKeys {
    static let title = AttributeKey<String?>("title")
    static let body = AttributeKey<String?>("body")
    static let views = AttributeKey<Int64?>("views")
    static let score = AttributeKey<Int64?>("score")
    static let created = AttributeKey<Date?>("created")
    static let searchTitle = AttributeKey<String?>("searchTitle")
}

struct FetchingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
