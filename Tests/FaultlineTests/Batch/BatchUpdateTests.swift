import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Batch updates: values and expressions over the row's own columns, `Z_OPT`
/// bumped, derived attributes kept right by the triggers.
@Suite("Batch update")
struct BatchUpdateTests {
    @Test("Values and expressions update the matching rows, bump Z_OPT and keep derived values right")
    func update() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let categories = try BatchModel.categories(["News"], in: container)
        let objects: [[String: Any]] = (1...4).map { ["title": "a\($0)", "views": $0, "category": categories[0]] }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Article", in: container.model, objects: objects))
        var request = BatchUpdateRequest(entityName: "Article", predicate: try FetchPredicate(format: "views > %@", 2))
        request.propertiesToUpdate = ["views": .expression("views * 10 + 1"), "title": .value(.string("Hot")),
                                      "rating": .expression("(views - 1) / 2.0")]
        request.resultType = .objectIDs
        let result = try container.coordinator.execute(request)
        #expect(result.objectIDs.map(\.primaryKey).sorted() == [3, 4])
        #expect(try BatchModel.rows(container, "SELECT ZTITLE, ZVIEWS, ZRATING, Z_OPT, ZSEARCHTITLE FROM ZARTICLE ORDER BY Z_PK") == [
            ["a1", 1, 2.5, 1, "a1"], ["a2", 2, 2.5, 1, "a2"], ["Hot", 31, 1.0, 2, "hot"], ["Hot", 41, 1.5, 2, "hot"],
        ])
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY") == [[4, 75]])
        // A to-one by object ID; nil clears it.
        var move = BatchUpdateRequest(entityName: "Article", predicate: try FetchPredicate(format: "title == %@", "a1"))
        move.propertiesToUpdate = ["category": .object(nil)]
        move.resultType = .count
        #expect(try container.coordinator.execute(move).count == 1)
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY") == [[3, 74]])
    }

    @Test("Expressions accept only numbers, the entity's numeric attributes and + - * /")
    func expressionGrammar() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        for text in ["views + ", "views; DROP TABLE ZARTICLE", "title + 1", "colour * 2", "1 + (2", "'x'"] {
            let request = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["views": .expression(text)])
            #expect(throws: BatchError.self) { try container.coordinator.execute(request) }
        }
        let wrongType = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["views": .value(.string("x"))])
        #expect(throws: BatchError.self) { try container.coordinator.execute(wrongType) }
        let derived = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["searchTitle": .value(.string("x"))])
        #expect(throws: BatchError.readOnlyProperty(entity: "Article", key: "searchTitle")) {
            try container.coordinator.execute(derived)
        }
        let fine = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["views": .expression("-(views + 2) * 3 / 1.5e0")])
        #expect(throws: Never.self) { try container.coordinator.execute(fine) }
    }
}
