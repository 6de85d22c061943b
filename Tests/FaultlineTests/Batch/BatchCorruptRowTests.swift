import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A batch request over a row whose `Z_ENT` names no entity (a damaged or
/// foreign store) throws a typed error and changes nothing.
@Suite("Batch requests over a damaged Z_ENT")
struct BatchCorruptRowTests {
    private func damaged() throws -> (PersistentContainer, URL, [[SQLValue]]) {
        let (container, url) = try BatchModel.container()
        _ = try BatchDeleteRuleTests.seed(container)
        try container.coordinator.writer.withConnection { try $0.execute("UPDATE ZARTICLE SET Z_ENT = 4294967297 WHERE ZTITLE = 'A12'") }
        return (container, url, try BatchModel.rows(container, "SELECT Z_PK, Z_ENT, Z_OPT, ZVIEWS FROM ZARTICLE ORDER BY Z_PK"))
    }

    @Test("Update and delete over the damaged row throw unknownEntityNumber and leave every row as it was")
    func updateAndDelete() throws {
        let (container, url, before) = try damaged()
        defer { LibraryModel.remove(url) }
        let update = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["views": .value(.integer(9))])
        #expect(throws: StoreError.unknownEntityNumber(4_294_967_297, primaryKey: 5)) { try container.coordinator.execute(update) }
        let delete = BatchDeleteRequest(entityName: "Article", predicate: try FetchPredicate(format: "views >= 1"))
        #expect(throws: StoreError.unknownEntityNumber(4_294_967_297, primaryKey: 5)) { try container.coordinator.execute(delete) }
        #expect(try BatchModel.rows(container, "SELECT Z_PK, Z_ENT, Z_OPT, ZVIEWS FROM ZARTICLE ORDER BY Z_PK") == before)

        // Repaired by another connection, the store takes the same update: the
        // failed statements left no stale read snapshot on the writer.
        let article = try #require(container.model.entity(named: "Article"))
        try Connection(.file(url.path)).execute("UPDATE ZARTICLE SET Z_ENT = \(article.index + 1) WHERE Z_PK = 5")
        try container.coordinator.execute(update)
        #expect(try BatchModel.rows(container, "SELECT count(*) FROM ZARTICLE WHERE ZVIEWS = 9") == [[6]])
    }
}
