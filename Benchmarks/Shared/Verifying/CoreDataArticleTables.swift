import FaultlineBench
import FaultlineSQLite

/// The two tables the Inserts and Derived suites write, in Core Data's
/// layout: `ZARTICLE` (one row per data-set article, keys 1…count in data-set
/// order) and `ZCATEGORY` (`Category 0`…, keys 1…count, saved before the
/// articles, so category key k is `categoryIDs` value k).
public enum CoreDataArticleTables {
    /// `ZARTICLE` after every article of `dataset` is written. `views` and
    /// `version` replace the inserted `ZVIEWS` and `Z_OPT` = 1 for lines that
    /// update rows after inserting them.
    public static func articles(
        _ dataset: ArticleDataset, entity: Int64, canonical: Bool,
        views: ExpectedColumn? = nil, version: ExpectedColumn? = nil
    ) -> ExpectedTable {
        var columns: [ExpectedColumn] = [
            .constant("Z_ENT", .integer(entity)),
            version ?? .constant("Z_OPT", 1),
            dataset.column("ZTITLE", .title),
            dataset.column("ZBODY", .body),
            views ?? dataset.column("ZVIEWS", .views),
            dataset.column("ZCREATED", .created),
            dataset.column("ZCATEGORY", .categoryID),
        ]
        if canonical { columns.append(dataset.column("ZSEARCHTITLE", .canonicalTitle)) }
        return dataset.expectedTable("ZARTICLE", columns)
    }

    /// `ZCATEGORY`, every row compared (there are few): its name, and the
    /// `derived` columns a line maintains, by category key.
    public static func categories(count: Int, entity: Int64, derived: [ExpectedColumn] = []) -> ExpectedTable {
        let name = ExpectedColumn("ZNAME") { .text("Category \($0 - 1)") }
        return ExpectedTable(
            "ZCATEGORY", count: count, columns: [.constant("Z_ENT", .integer(entity)), name] + derived,
            sampleKeys: count > 0 ? Array(1...Int64(count)) : [])
    }

    /// A per-category value (`values[key − 1]`) as an expected column.
    public static func perCategory(_ name: String, _ values: [Int64]) -> ExpectedColumn {
        ExpectedColumn(name) { key in
            values.indices.contains(Int(key) - 1) ? .integer(values[Int(key) - 1]) : .null
        }
    }
}

extension StoreVerifier {
    /// The entity number Core Data's metadata gives `entity` (its `Z_ENT`).
    public func entityNumber(_ entity: String) throws -> Int64 {
        let number = try integer("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(entity)])
        guard number > 0 else { throw VerificationFailure("Z_PRIMARYKEY has no entity \(entity)") }
        return number
    }
}
