import Foundation
import Testing
@testable import Faultline

/// The statement a to-many prefetch level runs, as text: the source keys go
/// in as one bound JSON array, and the row's owner is read from the foreign
/// key the select list already holds, or from a column added for it.
@Suite("Prefetch statements")
struct PrefetchStatementTests {
    @Test("A to-many reads its owner from the inverse's key in the select list; a many-to-many from the join table")
    func statements() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let coordinator = container.coordinator
        func statement(_ entity: String, _ relationship: String) throws -> (sql: String, ownerPosition: Int32)? {
            let source = try #require(coordinator.model.entity(named: entity))
            let described = try #require(source.relationships.first { $0.name == relationship })
            return coordinator.reads[source.index].toMany[described.index].map { ($0.prefetch, $0.ownerPosition) }
        }
        let books = try #require(try statement("Author", "books"))
        #expect(books.sql == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZPAGES, t0.ZPRICE, t0.ZTITLE, t0.ZAUTHOR FROM ZBOOK t0"
                + " WHERE t0.ZAUTHOR IN (SELECT value FROM json_each(?))")
        #expect(books.ownerPosition == 6)
        let shelves = try #require(try statement("Book", "shelves"))
        #expect(shelves.sql == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZLABEL, j.Z_2BOOKS FROM ZSHELF t0"
                + " JOIN Z_2SHELVES j ON t0.Z_PK = j.Z_5SHELVES WHERE j.Z_2BOOKS IN (SELECT value FROM json_each(?))")
        #expect(shelves.ownerPosition == 4)
        #expect(try statement("Book", "author") == nil)
    }

    @Test("A to-many with no inverse reads its owner from the hidden key, added to the select list")
    func hiddenKey() throws {
        let model = ManagedObjectModel {
            Entity("Library") {
                Attribute("name", .string)
                Relationship("items", to: "Item", toMany: true)
            }
            Entity("Item") {
                Attribute("label", .string)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let coordinator = container.coordinator
        let library = try #require(coordinator.model.entity(named: "Library"))
        let items = try #require(library.relationships.first)
        let statement = try #require(coordinator.reads[library.index].toMany[items.index].map { (sql: $0.prefetch, ownerPosition: $0.ownerPosition) })
        #expect(statement.sql == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZLABEL, t0.Z2ITEMS FROM ZITEM t0"
                + " WHERE t0.Z2ITEMS IN (SELECT value FROM json_each(?))")
        #expect(statement.ownerPosition == 4)

        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["A", "B"] {
                let library = try context.insertNewObject(forEntityName: "Library")
                try library.setValue(name, forKey: "name")
                for number in 0..<3 {
                    let item = try context.insertNewObject(forEntityName: "Item")
                    try item.setValue("\(name)\(number)", forKey: "label")
                    try library.setValue(((library.value(forKey: "items") as? [ManagedObject]) ?? []) + [item], forKey: "items")
                }
            }
            try context.save()
            context.reset()
            var request = FetchRequest(entityName: "Library")
            request.relationshipKeyPathsForPrefetching = ["items"]
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let libraries = try context.fetch(request)
            let labels = libraries.map { library in
                ((library.value(forKey: "items") as? [ManagedObject]) ?? []).compactMap { $0.value(forKey: "label") as? String }.sorted()
            }
            #expect(labels == [["A0", "A1", "A2"], ["B0", "B1", "B2"]])
            #expect(context.counters.relationshipFaultsFired == 0)
        }
    }
}
