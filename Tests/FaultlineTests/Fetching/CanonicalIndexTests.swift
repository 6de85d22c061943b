import Foundation
import Testing
@testable import Faultline

/// `[cd]` on an attribute with a `canonical:` column compares that column,
/// with the argument folded once, and SQLite's plan uses its index.
@Suite("[cd] comparisons on a canonical column use its index")
struct CanonicalIndexTests {
    private func plan(_ format: String, _ argument: String) throws -> (CompiledPredicate, [String]) {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let predicate = try FetchPredicate(format: format, argument)
        let compiled = try PredicateSQLCompiler.compile(predicate, entityName: "Author", schema: container.coordinator.schema)
        let rows = try container.coordinator.withReader { connection in
            try connection.rows("EXPLAIN QUERY PLAN SELECT t0.Z_PK FROM ZAUTHOR t0\(compiled.joins) WHERE \(compiled.whereClause)",
                                compiled.bindings)
        }
        let details = rows.compactMap { row -> String? in if case .text(let text)? = row.last { text } else { nil } }
        return (compiled, details)
    }

    @Test("name ==[cd] %@ is `t0.ZSEARCHNAME = ?` with the folded argument, searched through ZAUTHOR_ZSEARCHNAME_INDEX")
    func equality() throws {
        let (compiled, details) = try plan("name ==[cd] %@", "ZOË")
        #expect(compiled.whereClause == "t0.ZSEARCHNAME = ?")
        #expect(compiled.bindings == [.text("zoe")])
        #expect(details.contains { $0.contains("SEARCH t0 USING") && $0.contains("ZAUTHOR_ZSEARCHNAME_INDEX") }, "\(details)")
    }

    @Test("name BEGINSWITH[cd] %@ is the range `t0.ZSEARCHNAME >= ? AND t0.ZSEARCHNAME < ?`, searched through the index")
    func prefix() throws {
        let (compiled, details) = try plan("name BEGINSWITH[cd] %@", "Zo")
        #expect(compiled.whereClause == "(t0.ZSEARCHNAME >= ? AND t0.ZSEARCHNAME < ?)")
        #expect(compiled.bindings == [.text("zo"), .text("zp")])
        #expect(details.contains { $0.contains("SEARCH t0 USING") && $0.contains("ZAUTHOR_ZSEARCHNAME_INDEX") }, "\(details)")
    }

    @Test("[c] alone keeps the attribute and folds through FAULTLINE_FOLD_CASE, since the canonical form also drops diacritics")
    func caseOnly() throws {
        let (compiled, _) = try plan("name ==[c] %@", "ZOË")
        #expect(compiled.whereClause == "FAULTLINE_FOLD_CASE(t0.ZNAME) = ?")
        #expect(compiled.bindings == [.text("zoë")])
    }

    @Test("[cd] on an attribute without a canonical column applies FAULTLINE_CANONICAL to the column")
    func withoutCanonicalColumn() throws {
        let (compiled, _) = try plan("nickname CONTAINS[cd] %@", "BÖB")
        #expect(compiled.whereClause == "instr(FAULTLINE_CANONICAL(t0.ZNICKNAME), ?) > 0")
        #expect(compiled.bindings == [.text("bob")])
    }
}
