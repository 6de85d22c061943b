import Foundation
import Testing
@testable import Faultline

/// Core Data's controller takes a fetch whose sort descriptors are an empty
/// array (CoreDataPlus's batch-insert test does so): the objects come in the
/// store's order, and objects saved later go after them.
@Suite("A fetched-results controller with empty sort descriptors")
struct UnsortedResultsTests {
    @Test("Lists the objects in the store's order and follows saves, batched or not", arguments: [0, 2])
    func storeOrder(batchSize: Int) throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func item(_ rank: Int64) throws -> ManagedObject {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(rank, forKey: "rank")
                return item
            }
            let first = try item(3), second = try item(1), third = try item(2)
            try context.save()
            var request = FetchRequest(entityName: "Item")
            request.fetchBatchSize = batchSize
            // Written as Core Data code writes it, with a cache name (kept, no cache made).
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil,
                                                      cacheName: "Root")
            FetchedResultsController.deleteCache(withName: "Root")
            #expect(controller.cacheName == "Root")
            let recorder = FetchedResultsControllerTests.Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchedObjects?.map(\.objectID) == [first, second, third].map(\.objectID))

            let fourth = try item(0)
            context.delete(first)
            try context.save()
            #expect(controller.fetchedObjects?.map(\.objectID) == [second, third, fourth].map(\.objectID))
            #expect(recorder.events.contains(.object(first.objectID, IndexPath(item: 0, section: 0), .delete, nil)))
            #expect(recorder.events.contains(.object(fourth.objectID, nil, .insert, IndexPath(item: 2, section: 0))))
            #expect(controller.indexPath(forObject: third) == IndexPath(item: 1, section: 0))
        }
    }

    @Test("With sections it is refused: a section's objects must be together, which takes an order")
    func sectionsNeedOrder() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.performAndWait {
            let controller = FetchedResultsController(fetchRequest: FetchRequest(entityName: "Item"), managedObjectContext: context,
                                                      sectionNameKeyPath: "group")
            #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Item")) { try controller.performFetch() }
        }
    }
}
