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

    @Test("Moving articles to another category: the merge refreshes both categories' articles; a deleted category's ID is refused")
    func moveBetweenCategories() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let categories = try BatchModel.categories(["News", "Sport", "Gone"], in: container)
        let objects: [[String: Any]] = (1...3).map { ["title": "a\($0)", "category": categories[0]] }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Article", in: container.model, objects: objects))
        let context = container.newBackgroundContext()
        func titles(_ id: ManagedObjectID) throws -> [String] {
            try context.existingObject(with: id).value(forKey: "articles").map { ($0 as? [ManagedObject]) ?? [] }?
                .compactMap { $0.value(forKey: "title") as? String }.sorted() ?? []
        }
        try context.performAndWait { () throws in
            #expect(try titles(categories[0]) == ["a1", "a2", "a3"])
            #expect(try titles(categories[1]) == [])
        }
        var move = BatchUpdateRequest(entityName: "Article", predicate: try FetchPredicate(format: "title != %@", "a3"))
        move.propertiesToUpdate = ["category": .object(categories[1])]
        move.resultType = .objectIDs
        let result = try container.coordinator.execute(move)
        #expect(result.objectIDs.count == 2)
        #expect(Set(result.changes.updatedObjectIDs).isSuperset(of: [categories[0], categories[1]]))
        try context.performAndWait { () throws in
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
            #expect(try titles(categories[0]) == ["a3"])
            #expect(try titles(categories[1]) == ["a1", "a2"])
        }
        try container.coordinator.execute(BatchDeleteRequest(entityName: "Category", predicate: try FetchPredicate(format: "name == %@", "Gone")))
        var dangling = BatchUpdateRequest(entityName: "Article")
        dangling.propertiesToUpdate = ["category": .object(categories[2])]
        #expect(throws: BatchError.foreignObjectID(row: -1, key: "category", id: categories[2].description)) {
            try container.coordinator.execute(dangling)
        }
        #expect(try BatchModel.scalar(container, "SELECT COUNT(*) FROM ZARTICLE WHERE ZCATEGORY = ?", [.integer(categories[1].primaryKey)]) == .integer(2))
    }

    @Test("An update giving two rows one unique value is a typed error and writes nothing")
    func uniqueness() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let objects: [[String: Any]] = (1...3).map { ["title": "a\($0)", "slug": "s\($0)"] }
        try container.coordinator.execute(try BatchInsertRequest(entityName: "Article", in: container.model, objects: objects))
        let request = BatchUpdateRequest(entityName: "Article", propertiesToUpdate: ["slug": .value(.string("same"))])
        #expect(throws: BatchError.updateViolatesUniqueness(entity: "Article", constraint: ["slug"])) {
            try container.coordinator.execute(request)
        }
        #expect(try BatchModel.rows(container, "SELECT ZSLUG FROM ZARTICLE ORDER BY Z_PK") == [["s1"], ["s2"], ["s3"]])
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
