import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// To-one relationships in batch inserts, by object ID or by the
/// destination's unique key — which Core Data's batch insert cannot do.
@Suite("Batch insert to-one relationships")
struct BatchToOneTests {
    @Test("By object ID, in dictionaries and through a typed handle")
    func byObjectID() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let categories = try BatchModel.categories(["News", "Sport"], in: container)
        let dictionaries = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [
            ["title": "D1", "category": categories[0]], ["title": "D2", "category": categories[1], "views": 7],
        ])
        try container.coordinator.execute(dictionaries)
        var typed = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try typed.attribute("title"), category = try typed.relationship("category")
        typed.source = .rows(count: 2) { row, index in
            row.set("T\(index)", at: title)
            row.set(index == 0 ? categories[1] : nil, at: category)
        }
        try container.coordinator.execute(typed)
        let rows = try BatchModel.rows(container, "SELECT ZTITLE, ZCATEGORY FROM ZARTICLE ORDER BY Z_PK")
        #expect(rows == [["D1", .integer(categories[0].primaryKey)], ["D2", .integer(categories[1].primaryKey)],
                         ["T0", .integer(categories[1].primaryKey)], ["T1", .null]])
        #expect(try BatchModel.rows(container, "SELECT ZNAME, ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY ORDER BY Z_PK")
                == [["News", 1, 0], ["Sport", 2, 7]])
        // An ID of the wrong entity fails, naming row and key.
        let wrong = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "W", "category": categories[0]], ["title": "X", "category": ManagedObjectID(storeIdentifier: container.coordinator.identifier, entityIndex: 0, primaryKey: 1)]])
        #expect(throws: BatchError.self) { try container.coordinator.execute(wrong) }
        #expect(try BatchModel.count(container, "ZARTICLE") == 4)
    }

    @Test("By the destination's unique key, resolved by a subselect in the one insert statement")
    func byUniqueKey() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try BatchModel.categories(["News", "Sport"], in: container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        try request.lookUp("category", by: "name")
        let title = try request.attribute("title"), category = try request.relationship("category")
        let names = ["Sport", "News", "Sport", "Missing"]
        request.source = .rows(count: names.count) { row, index in
            row.set("A\(index)", at: title)
            row.set(names[index], at: category)
        }
        try container.coordinator.execute(request)
        #expect(try BatchModel.rows(container, "SELECT a.ZTITLE, c.ZNAME FROM ZARTICLE a LEFT JOIN ZCATEGORY c ON c.Z_PK = a.ZCATEGORY ORDER BY a.Z_PK")
                == [["A0", "Sport"], ["A1", "News"], ["A2", "Sport"], ["A3", .null]])
        #expect(try BatchModel.rows(container, "SELECT ZARTICLESCOUNT FROM ZCATEGORY ORDER BY ZNAME") == [[1], [2]])
        // Only single-attribute unique keys can be looked up.
        var invalid = try BatchInsertRequest(entityName: "Sponsor", in: container.model)
        #expect(throws: BatchError.notAUniqueKey(entity: "Category", attribute: "articlesCount")) {
            try invalid.lookUp("category", by: "articlesCount")
        }
    }
}
