import Foundation
import Testing
@testable import Faultline

/// Expressions and indexes: an expression of constants is folded to one bound
/// value, so the column it is compared with keeps its index; `noindex:(x)`
/// compiles to `+x`, SQLite's way to keep a term off an index, as Core Data's
/// hint asks.
@Suite("Expressions keep a column's index unless noindex: asks otherwise")
struct ExpressionPlanTests {
    private func plan(_ format: String) throws -> (CompiledPredicate, [String]) {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let compiled = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: format), entityName: "Author", schema: container.coordinator.schema)
        let rows = try container.coordinator.withReader { connection in
            try connection.rows("EXPLAIN QUERY PLAN SELECT t0.Z_PK FROM ZAUTHOR t0\(compiled.joins) WHERE \(compiled.whereClause)",
                                compiled.bindings)
        }
        return (compiled, rows.compactMap { row -> String? in if case .text(let text)? = row.last { text } else { nil } })
    }

    @Test("searchName == lowercase:('ZOE') folds the function: one bound value, searched through the index")
    func foldedConstant() throws {
        let (compiled, details) = try plan("searchName == lowercase:('ZOE')")
        #expect(compiled.whereClause == "t0.ZSEARCHNAME = ?")
        #expect(compiled.bindings == [.text("zoe")])
        #expect(details.contains { $0.contains("SEARCH t0 USING") && $0.contains("ZAUTHOR_ZSEARCHNAME_INDEX") }, "\(details)")
    }

    @Test("noindex:(searchName) == 'zoe' is +t0.ZSEARCHNAME: a scan, no search through the index")
    func noindex() throws {
        let (compiled, details) = try plan("noindex:(searchName) == 'zoe'")
        #expect(compiled.whereClause == "+t0.ZSEARCHNAME = ?")
        #expect(details.contains { $0.contains("SCAN t0") }, "\(details)")
        #expect(!details.contains { $0.contains("SEARCH t0") }, "\(details)")
    }
}
