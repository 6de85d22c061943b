import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Values are checked against attribute types (a wrong one fails the whole
/// request, naming the row and the key, and inserts nothing); validation
/// rules only run when asked.
@Suite("Batch insert type checks")
struct BatchInsertCheckTests {
    @Test("A wrong-typed value at row 5,000 of the array form fails with row and key; the table is unchanged")
    func wrongTypeInDictionaries() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try BatchModel.categories(["Before"], in: container)
        var objects: [[String: Any]] = (0..<10_000).map { ["title": "T\($0)", "views": $0] }
        objects[5_000]["views"] = "many"
        let request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: objects)
        #expect(throws: BatchError.wrongType(row: 5_000, key: "views", expected: .integer64AttributeType, got: "String")) {
            try container.coordinator.execute(request)
        }
        #expect(try BatchModel.count(container, "ZARTICLE") == 0)
        // No key was consumed either: the reservation rolled back with the rows.
        #expect(try BatchModel.scalar(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(0))
    }

    @Test("A wrong-typed value through a typed handle fails with row and key; nothing is inserted")
    func wrongTypeInTypedRows() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try request.attribute("title"), published = try request.attribute("published")
        request.source = .rows(count: 10_000) { row, index in
            row.set("T\(index)", at: title)
            if index == 5_000 { row.set("yesterday", at: published) }
        }
        #expect(throws: BatchError.wrongType(row: 5_000, key: "published", expected: .dateAttributeType, got: "String")) {
            try container.coordinator.execute(request)
        }
        #expect(try BatchModel.count(container, "ZARTICLE") == 0)
    }

    @Test("Exact conversions pass (a whole Double for an integer); lossy ones and unknown keys fail")
    func conversions() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        let exact = try BatchInsertRequest(entityName: "Article", in: container.model,
                                           objects: [["title": "Ok", "views": 3.0, "rating": 4, "flagged": 1]])
        try container.coordinator.execute(exact)
        #expect(try BatchModel.rows(container, "SELECT ZVIEWS, ZRATING, ZFLAGGED FROM ZARTICLE")
                == [[.integer(3), .real(4), .integer(1)]])
        let lossy = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "No", "views": 2.5]])
        #expect(throws: BatchError.wrongType(row: 0, key: "views", expected: .integer64AttributeType, got: "Double")) {
            try container.coordinator.execute(lossy)
        }
        let unknown = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "No", "colour": 1]])
        #expect(throws: BatchError.unknownProperty(entity: "Article", key: "colour")) {
            try container.coordinator.execute(unknown)
        }
        let derived = try BatchInsertRequest(entityName: "Article", in: container.model)
        #expect(throws: BatchError.readOnlyProperty(entity: "Article", key: "searchTitle")) { try derived.attribute("searchTitle") }
        #expect(try BatchModel.count(container, "ZARTICLE") == 1)
    }

    @Test("Validation rules are skipped by default and enforced on request")
    func validation() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        var request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "A"], ["views": 1]])
        try container.coordinator.execute(request)
        #expect(try BatchModel.count(container, "ZARTICLE") == 2)
        request.validatesValues = true
        #expect(throws: BatchError.self) { try container.coordinator.execute(request) }
        do {
            try container.coordinator.execute(request)
        } catch let error as BatchError {
            guard case .validationFailed(let row, let key, let failure) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(row == 0 && key == "title" && failure.code == .tooShort)
        }
        request.source = .objects([["title": "Long enough"], ["views": 1]])
        #expect(throws: BatchError.missingValue(row: 1, key: "title")) { try container.coordinator.execute(request) }
        #expect(try BatchModel.count(container, "ZARTICLE") == 2)
    }
}
