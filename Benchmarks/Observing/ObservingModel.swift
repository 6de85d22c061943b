import Faultline
import Foundation

/// The observed entity: an item in one of ten groups (the sections), ranked
/// (the sort), visible or not (the predicate), with a note nothing reads.
enum ObservingModel {
    static let groups = (0..<10).map { "G\($0)" }

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("group", .string)
                Attribute("rank", .integer64)
                Attribute("visible", .boolean)
                Attribute("note", .string)
            }
        }
    }

    /// What every controller follows: the visible items by group, then rank.
    static func request() throws -> FetchRequest {
        var request = FetchRequest(entityName: "Item")
        request.predicate = try FetchPredicate(format: "visible == YES")
        request.sortDescriptors = [FetchSortDescriptor(key: "group"), FetchSortDescriptor(key: "rank")]
        return request
    }

    /// The same query by hand: each row's key and the keys it is placed by.
    static let rawQuery = "SELECT Z_PK, ZGROUP, ZRANK FROM ZITEM WHERE ZVISIBLE = 1 ORDER BY ZGROUP, ZRANK"

    /// Item `index` of the seeded store: three in four visible, ranks 0, 10, 20 …
    static func values(of index: Int) -> (group: String, rank: Int64, visible: Bool) {
        (groups[index % groups.count], Int64(index) * 10, index % 4 != 0)
    }
}

struct ObservingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
