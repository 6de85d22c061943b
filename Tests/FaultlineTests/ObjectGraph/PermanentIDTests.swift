import Foundation
import Testing
@testable import Faultline

/// `obtainPermanentIDs(for:)` gives unsaved objects their store keys before
/// the save, which then writes them under those keys.
@Suite("Permanent IDs obtained before a save")
struct PermanentIDTests {
    @Test("Obtained IDs are permanent, unique, kept by the save, and found by another context after it (not before)")
    func obtainedThenSaved() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        let (obtained, book) = try context.performAndWait {
            let ann = try context.insertNewObject(forEntityName: "Author")
            try ann.setValue("Ann", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("First", forKey: "title")
            try book.setValue(ann, forKey: "author")
            try context.obtainPermanentIDs(for: [ann, book])
            #expect(!ann.objectID.isTemporaryID && !book.objectID.isTemporaryID)
            #expect(ann.isInserted && context.registeredObject(for: ann.objectID) === ann)
            return (ann.objectID, book.objectID)
        }
        _ = other.performAndWait {
            #expect(throws: StoreError.objectNotFound(obtained.description)) { try other.existingObject(with: obtained) }
        }
        try context.performAndWait {
            let bob = try context.insertNewObject(forEntityName: "Author")
            try bob.setValue("Bob", forKey: "name")
            try context.save()
            #expect(context.registeredObject(for: obtained)?.isInserted == false)
            #expect(bob.objectID != obtained && !bob.objectID.isTemporaryID)
        }
        try other.performAndWait {
            let ann = try other.existingObject(with: obtained)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            let fetched = try other.existingObject(with: book)
            #expect((fetched.value(forKey: "author") as? ManagedObject)?.objectID == obtained)
        }
    }

    @Test("A fetched-results controller holding an unsaved object follows it to its obtained ID")
    func controllerFollows() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let controller = FetchedResultsController(fetchRequest: try FetchedResultsControllerTests.request(), managedObjectContext: context)
            try controller.performFetch()
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("A", forKey: "group")
            try item.setValue(Int64(1), forKey: "rank")
            try item.setValue(true, forKey: "visible")
            context.processPendingChanges()
            try context.obtainPermanentIDs(for: [item])
            #expect(controller.indexPath(forObject: item) == IndexPath(item: 0, section: 0))
            #expect(controller.fetchedObjects?.first === item)
            #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == [item.objectID])
            try context.save()
            #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == (try context.fetchObjectIDs(FetchedResultsControllerTests.request())))
        }
    }
}
