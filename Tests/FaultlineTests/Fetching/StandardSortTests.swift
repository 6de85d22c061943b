import FaultlineSQLite
import FaultlineSupport
import Foundation
import Testing
@testable import Faultline

/// Core Data's `localizedStandardCompare:` sort, Finder's order, which apps
/// use for names with numbers in them: the store sorts with a collating
/// sequence calling the same comparison the in-memory sort calls, so a
/// fetch, unsaved objects and a fetched-results controller agree.
@Suite("Sorting in Finder's order (localizedStandardCompare:)")
struct StandardSortTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("name", .string)
            }
        }
    }

    static let names = ["item 10", "x20", "Banana", "item 2", "Item 1", "apple", "x3"]
    static let finderOrder = ["apple", "Banana", "Item 1", "item 2", "item 10", "x3", "x20"]

    private static func request(ascending: Bool = true) -> FetchRequest {
        var request = FetchRequest(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: ascending, comparison: .localizedStandard)]
        return request
    }

    private static func names(_ objects: some Sequence<ManagedObject>) -> [String?] {
        objects.map { $0.value(forKey: "name") as? String }
    }

    @Test("The comparison: digits as numbers, case ignored, unequal strings never tie")
    func comparison() {
        #expect(StandardTextOrder.compare("item 2", "item 10") == .orderedAscending)
        #expect(StandardTextOrder.compare("Item 1", "item 2") == .orderedAscending)
        #expect(StandardTextOrder.compare("apple", "Banana") == .orderedAscending)
        #expect(StandardTextOrder.compare("file", "File") != .orderedSame)
        #expect(StandardTextOrder.compare("same", "same") == .orderedSame)
    }

    @Test("A fetch sorts in the store with the collating sequence, both ways; nil first ascending")
    func storeOrder() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in Self.names + [nil] { try context.insertNewObject(forEntityName: "Item").setValue(name, forKey: "name") }
            try context.save()
            context.reset()
            let (sorted, statements) = try StatementLog.record { try context.fetch(Self.request()) }
            #expect(Self.names(sorted) == [nil] + Self.finderOrder)
            #expect(statements.contains { $0.contains("ORDER BY t0.ZNAME COLLATE FAULTLINE_STANDARD ASC") })
            let reversed = try context.fetch(Self.request(ascending: false))
            #expect(Self.names(reversed) == Self.finderOrder.reversed() + [nil])
            #expect(Self.request().sortDescriptors[0].reversed == Self.request(ascending: false).sortDescriptors[0])
        }
    }

    @Test("Unsaved objects sort in memory the way the store sorts saved ones")
    func pendingChanges() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in Self.names.prefix(4) { try context.insertNewObject(forEntityName: "Item").setValue(name, forKey: "name") }
            try context.save()
            for name in Self.names.dropFirst(4) { try context.insertNewObject(forEntityName: "Item").setValue(name, forKey: "name") }
            #expect(Self.names(try context.fetch(Self.request())) == Self.finderOrder)
        }
    }

    @Test("A fetched-results controller places a saved change where a refetch puts it")
    func controllerPlacement() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in Self.names { try context.insertNewObject(forEntityName: "Item").setValue(name, forKey: "name") }
            try context.save()
            let controller = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: context)
            try controller.performFetch()
            #expect(Self.names(try #require(controller.fetchedObjects)) == Self.finderOrder)
            try context.insertNewObject(forEntityName: "Item").setValue("item 9", forKey: "name")
            try context.save()
            let expected = ["apple", "Banana", "Item 1", "item 2", "item 9", "item 10", "x3", "x20"]
            #expect(Self.names(try #require(controller.fetchedObjects)) == expected)
            #expect(Self.names(try context.fetch(Self.request())) == expected)
        }
    }
}
