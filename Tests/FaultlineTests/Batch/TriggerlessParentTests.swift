import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// New parents (a category keeping counts of its articles, a shelf summing its
/// categories' counts) inserted with the triggers off: their own INSERT
/// trigger's recompute becomes one UPDATE over the new keys, run after the
/// children's stand-ins, so an import of a whole graph in one save skips the
/// triggers too and leaves every value as the triggers would.
@Suite("New parents inserted with triggers off")
struct TriggerlessParentTests {
    typealias Model = TriggerlessInsertTests

    /// In one context: `shelves` new shelves, `categories` new categories
    /// (on the new shelves, on the old ones, one on none), then `articles`
    /// articles into new and old categories (every eleventh into none), saving
    /// after every `perSave` new objects and at the end.
    static func importGraph(
        shelves: Int, categories: Int, articles: Int, perSave: Int, old: [ManagedObjectID], into container: PersistentContainer
    ) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var inserted = 0
            func counted(_ object: ManagedObject) throws -> ManagedObject {
                inserted += 1
                if inserted % perSave == 0 { try context.save() }
                return object
            }
            let oldCategories = try old.map { try context.existingObject(with: $0) }
            var request = FetchRequest(entityName: "Shelf")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let oldShelves = try context.fetch(request)
            var newShelves: [ManagedObject] = []
            for index in 0..<shelves {
                let shelf = try context.insertNewObject(forEntityName: "Shelf")
                try shelf.setValue("New shelf \(index)", forKey: "name")
                newShelves.append(try counted(shelf))
            }
            let everyShelf = newShelves + oldShelves
            var newCategories: [ManagedObject] = []
            for index in 0..<categories {
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("New \(index)", forKey: "name")
                if index != 0 { try category.setValue(everyShelf[index % everyShelf.count], forKey: "shelf") }
                newCategories.append(try counted(category))
            }
            let everyCategory = newCategories + oldCategories
            for index in 0..<articles {
                _ = try counted(TriggerlessSaveTests.article(index, categories: everyCategory, in: context))
            }
            try context.save()
        }
    }

    @Test("One save of 3 shelves, 12 categories and 2,500 articles leaves every table as saves of 500 leave it")
    func graphInOneSave() throws {
        let (bulk, bulkURL, bulkOld) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, rowOld) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(rowURL) }
        try Self.importGraph(shelves: 3, categories: 12, articles: 2_500, perSave: 10_000, old: bulkOld, into: bulk)
        #expect(bulk.coordinator.writer.rowsInsertedWithoutTriggers.load(ordering: .relaxed) == 3 + 12 + 2_500)
        try Self.importGraph(shelves: 3, categories: 12, articles: 2_500, perSave: 500, old: rowOld, into: rowByRow)
        #expect(rowByRow.coordinator.writer.rowsInsertedWithoutTriggers.load(ordering: .relaxed) == 0)
        try Model.expectSameTables(bulk, as: rowByRow, ignoringVersions: true)
        // And the values are what the model means, not only what the triggers leave.
        let counts = try Model.table(bulk, "SELECT ZARTICLECOUNT, (SELECT COUNT(*) FROM ZARTICLE a WHERE a.ZCATEGORY = c.Z_PK) FROM ZCATEGORY c")
        #expect(counts.count == 19 && counts.allSatisfy { $0[0] == $0[1] })
        let shelves = try Model.table(bulk, "SELECT ZARTICLETOTAL, (SELECT SUM(c.ZARTICLECOUNT) FROM ZCATEGORY c WHERE c.ZSHELF = s.Z_PK) FROM ZSHELF s")
        #expect(shelves.count == 5 && shelves.allSatisfy { $0[0] == $0[1] })
    }

    @Test("1,500 categories in one batch request: the shelves' sums and the categories' own values as in requests of 500")
    func parentsInOneRequest() throws {
        let (bulk, bulkURL, _) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(bulkURL) }
        let (rowByRow, rowURL, _) = try Model.seeded(Model.model())
        defer { LibraryModel.remove(rowURL) }
        func insertCategories(_ range: Range<Int>, into container: PersistentContainer) throws -> BatchResult {
            let context = container.newBackgroundContext()
            let shelves = try context.performAndWait { try context.fetch(FetchRequest(entityName: "Shelf")).map(\.objectID) }
            var request = try BatchInsertRequest(entityName: "Category", in: container.model)
            let name = try request.attribute("name"), shelf = try request.relationship("shelf")
            request.source = .rows(count: range.count) { row, offset in
                let index = range.lowerBound + offset
                row.set("C\(index)", at: name)
                if index % 3 != 0 { row.set(shelves[index % shelves.count], at: shelf) }
            }
            return try container.coordinator.execute(request)
        }
        #expect(try insertCategories(0..<1_500, into: bulk).counters.rowsInsertedWithoutTriggers == 1_500)
        for start in stride(from: 0, to: 1_500, by: 500) {
            #expect(try insertCategories(start..<start + 500, into: rowByRow).counters.rowsInsertedWithoutTriggers == 0)
        }
        try Model.expectSameTables(bulk, as: rowByRow)
        // Only the seeded category has articles; every new one counts none.
        #expect(try Model.table(bulk, "SELECT COUNT(*) FROM ZCATEGORY WHERE ZARTICLECOUNT != 0") == [[.integer(1)]])
        #expect(try Model.table(bulk, "SELECT COUNT(*) FROM ZCATEGORY WHERE ZARTICLECOUNT = 0") == [[.integer(6 + 1_500)]])
    }

    @Test("The stand-ins of a parent table: its rows into their parents' sums, then its own aggregates recomputed")
    func standInStatements() throws {
        let schema = try StoreSchema(compiling: Model.model().checked())
        let categories = try #require(schema.insertedRowsUpkeep["ZCATEGORY"])
        #expect(categories.parentAggregates.map(\.parentTable) == ["ZSHELF"])
        #expect(categories.recomputes.map(\.sql) == ["""
            UPDATE ZCATEGORY SET ZARTICLECOUNT = (SELECT COUNT(c.Z_PK) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            Z_DA_ZAVERAGEVIEWS_SUM = (SELECT COALESCE(SUM(c.ZVIEWS), 0) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            Z_DA_ZAVERAGEVIEWS_COUNT = (SELECT COUNT(c.ZVIEWS) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            ZAVERAGEVIEWS = (SELECT AVG(c.ZVIEWS) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            ZBESTRATING = (SELECT MAX(c.ZRATING) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            ZMAXVIEWS = (SELECT MAX(c.ZVIEWS) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            ZMINVIEWS = (SELECT MIN(c.ZVIEWS) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK), \
            ZTOTALVIEWS = (SELECT COALESCE(SUM(c.ZVIEWS), 0) FROM ZARTICLE c WHERE c.ZCATEGORY = ZCATEGORY.Z_PK) \
            WHERE Z_PK BETWEEN ?1 AND ?2
            """])
        #expect(categories.statements.count == 2)
        #expect(schema.insertedRowsUpkeep["ZSHELF"]?.recomputes.map(\.sources) == [["ZCATEGORY"]])
    }

    @Test("Aggregates over a table's own rows (subcategories) keep its triggers")
    func ownRows() throws {
        let model = ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string)
                Relationship("parent", to: "Category", inverse: "children")
                Relationship("children", to: "Category", inverse: "parent", toMany: true)
                Derived("childCount", .integer64, "children.@count")
            }
        }
        let schema = try StoreSchema(compiling: model.checked())
        #expect(schema.insertedRowsUpkeep["ZCATEGORY"] == nil)
        #expect(schema.hasInsertTriggers(on: "ZCATEGORY"))
    }
}
