import Foundation
import FaultlineSQLite

/// What each article row of the data set holds, column by column: the
/// expectations of every line that writes `ArticleDataset` into a table
/// keyed 1…count in data-set order.
extension ArticleDataset {
    public enum Field {
        case title, body, views, created, categoryID
        /// `canonical:(title)`: the folding the store's canonical column is
        /// specified by (NFKC, then case, diacritic and width folding),
        /// computed here without the core's fast paths.
        case canonicalTitle
    }

    /// The value of `field` in the row with key `key` (data-set row key − 1).
    public func value(_ field: Field, key: Int64) -> SQLValue {
        let row = Int(key) - 1
        guard row >= 0, row < count else { return .null }
        switch field {
        case .title: return .text(titles[row])
        case .body: return .text(bodies[row])
        case .views: return .integer(views[row])
        case .created: return .real(created[row])
        case .categoryID: return .integer(categoryIDs[row])
        case .canonicalTitle: return .text(Self.canonical(titles[row]))
        }
    }

    public func column(_ name: String, _ field: Field) -> ExpectedColumn {
        ExpectedColumn(name) { self.value(field, key: $0) }
    }

    /// The article table as a line writing every row should leave it.
    public func expectedTable(_ table: String, keyColumn: String = "Z_PK", _ columns: [ExpectedColumn]) -> ExpectedTable {
        ExpectedTable(table, keyColumn: keyColumn, count: count, columns: columns)
    }

    static func canonical(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Articles and summed views per category (`categoryIDs` value − 1):
    /// what a category's derived count and sum should hold.
    public func categoryTotals(categoryCount: Int) -> (counts: [Int64], sums: [Int64]) {
        var counts = [Int64](repeating: 0, count: categoryCount)
        var sums = [Int64](repeating: 0, count: categoryCount)
        for row in 0..<count {
            let category = Int(categoryIDs[row] - 1)
            guard counts.indices.contains(category) else { continue }
            counts[category] += 1
            sums[category] += views[row]
        }
        return (counts, sums)
    }
}
