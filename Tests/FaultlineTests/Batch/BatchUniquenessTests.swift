import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Uniqueness constraints in batch inserts: a duplicate fails the request
/// (naming row and constraint) without a policy; object trump upserts every
/// column; the per-column policy updates only the columns a row sets.
@Suite("Batch insert uniqueness and upsert")
struct BatchUniquenessTests {
    static func seed(_ container: PersistentContainer) throws {
        let seed = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [
            ["title": "First", "slug": "a", "views": 10, "rating": 4.0],
            ["title": "Second", "slug": "b", "views": 20, "rating": 3.0],
        ])
        try container.coordinator.execute(seed)
    }

    @Test("Without a policy a duplicate fails naming the row and the constraint; nothing is inserted")
    func duplicateFails() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try Self.seed(container)
        let request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [
            ["title": "New 1", "slug": "c"], ["title": "New 2", "slug": "d"], ["title": "Dup", "slug": "b"],
        ])
        #expect(throws: BatchError.uniquenessViolation(row: 2, entity: "Article", constraint: ["slug"])) {
            try container.coordinator.execute(request)
        }
        #expect(try BatchModel.count(container, "ZARTICLE") == 2)
        // A duplicate within the request itself is caught the same way.
        let twice = try BatchInsertRequest(entityName: "Category", in: container.model, objects: [["name": "X"], ["name": "X"]])
        #expect(throws: BatchError.uniquenessViolation(row: 1, entity: "Category", constraint: ["name"])) {
            try container.coordinator.execute(twice)
        }
        #expect(try BatchModel.count(container, "ZCATEGORY") == 0)
    }

    @Test("Object trump upserts: the stored row takes every column (unset ones get defaults) and Z_OPT is bumped")
    func objectTrump() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try Self.seed(container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [
            ["title": "First again", "slug": "a"], ["title": "Third", "slug": "c", "views": 30],
        ])
        request.conflictPolicy = BatchConflictPolicy(.mergeByPropertyObjectTrump)
        request.resultType = .objectIDs
        let result = try container.coordinator.execute(request)
        #expect(result.count == 2)
        #expect(result.counters.rowsInserted == 1 && result.counters.rowsUpdated == 1)
        #expect(result.objectIDs.map(\.primaryKey) == [1, 3])
        let rows = try BatchModel.rows(container, "SELECT Z_PK, Z_OPT, ZTITLE, ZSLUG, ZVIEWS, ZRATING, ZSEARCHTITLE FROM ZARTICLE ORDER BY Z_PK")
        #expect(rows == [
            [1, 2, "First again", "a", 0, 2.5, .text(CanonicalText.fold("First again"))],
            [2, 1, "Second", "b", 20, 3.0, .text(CanonicalText.fold("Second"))],
            [3, 1, "Third", "c", 30, 2.5, .text(CanonicalText.fold("Third"))],
        ])
        #expect(try BatchModel.scalar(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(3))
    }

    @Test("The per-column upsert updates only the columns each row sets; unset columns keep their stored values")
    func perColumn() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try Self.seed(container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        request.conflictPolicy = .updateSetColumns
        let slug = try request.attribute("slug"), views = try request.attribute("views"), title = try request.attribute("title")
        request.source = .rows(count: 3) { row, index in
            switch index {
            case 0: row.set("a", at: slug); row.set(Int64(11), at: views)        // title and rating kept
            case 1: row.set("b", at: slug); row.set("Second, renamed", at: title) // views and rating kept
            default: row.set("z", at: slug); row.set("Fresh", at: title)          // inserted with defaults
            }
        }
        let result = try container.coordinator.execute(request)
        #expect(result.counters.rowsUpdated == 2 && result.counters.rowsInserted == 1)
        let rows = try BatchModel.rows(container, "SELECT Z_OPT, ZTITLE, ZSLUG, ZVIEWS, ZRATING, ZSEARCHTITLE FROM ZARTICLE ORDER BY Z_PK")
        #expect(rows == [
            [2, "First", "a", 11, 4.0, .text(CanonicalText.fold("First"))],
            [2, "Second, renamed", "b", 20, 3.0, .text(CanonicalText.fold("Second, renamed"))],
            [1, "Fresh", "z", 0, 2.5, .text(CanonicalText.fold("Fresh"))],
        ])
    }

    @Test("Store trump keeps the stored row and drops the new one")
    func keepStored() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        try Self.seed(container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model, objects: [["title": "Other", "slug": "a"]])
        request.conflictPolicy = .keepStored
        request.resultType = .count
        #expect(try container.coordinator.execute(request).count == 0)
        #expect(try BatchModel.rows(container, "SELECT ZTITLE, Z_OPT FROM ZARTICLE WHERE ZSLUG = 'a'") == [["First", 1]])
    }
}
