import Faultline

/// The generic model the profiler generates graphs of: three levels, each
/// with a title and a rank, linked by a to-many and its to-one inverse:
///
///     Level0 ──books──▶ Level1 ──chapters──▶ Level2
///            ◀─author─         ◀───book────
///
/// Tables `ZLEVEL0`, `ZLEVEL1` (key column `ZAUTHOR`), `ZLEVEL2` (`ZBOOK`).
public enum ObjectGraphModel {
    public static let entityNames = ["Level0", "Level1", "Level2"]
    /// The to-many relationship from each level to the next.
    public static let relationships = ["books", "chapters"]
    /// The to-one inverse of each, as a table column.
    static let inverseColumns = ["ZAUTHOR", "ZBOOK"]
    public static let keyPaths = ["books", "books.chapters"]

    public static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Level0") {
                Attribute("title", .string)
                Attribute("rank", .integer64)
                Relationship("books", to: "Level1", inverse: "author", toMany: true)
            }
            Entity("Level1") {
                Attribute("title", .string)
                Attribute("rank", .integer64)
                Relationship("author", to: "Level0", inverse: "books")
                Relationship("chapters", to: "Level2", inverse: "book", toMany: true)
            }
            Entity("Level2") {
                Attribute("title", .string)
                Attribute("rank", .integer64)
                Relationship("book", to: "Level1", inverse: "chapters")
            }
        }
    }


    static func table(level: Int) -> String { "Z" + entityNames[level].uppercased() }

    /// The columns every raw read selects, as the store's own SELECT does.
    static func selectList(level: Int) -> String {
        let base = "Z_PK, Z_ENT, Z_OPT, ZTITLE, ZRANK"
        return level == 0 ? base : base + ", " + inverseColumns[level - 1]
    }

    /// The key of child `child` (0-based) of the object with key `parentKey`
    /// one level up: children are numbered in blocks, parent by parent.
    public static func childKey(parentKey: Int64, child: Int, fanOut: Int) -> Int64 {
        (parentKey - 1) * Int64(fanOut) + Int64(child) + 1
    }
}
