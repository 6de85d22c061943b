import Foundation
import Testing
@testable import Faultline
import FaultlineSupport

/// `managedObjectContextWillSave` (Core Data's `NSManagedObjectContextWillSave`)
/// is posted as `save()` starts, on the context's queue, with the context as
/// its object: what an observer changes there — the timestamp pattern of
/// Core Data apps — is written by the same save.
@Suite("The will-save notification comes first, and what its observer changes is saved with the rest")
struct WillSaveNotificationTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Note") {
                Attribute("text", .string)
                Attribute("updatedAt", .date).optional()
            }
        }
    }

    @Test("An observer stamping every inserted and updated object in will-save: the stamps are in the store after one save; an empty save posts it too")
    func observerChangesAreSaved() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let stamp = Date(timeIntervalSinceReferenceDate: 1_000)
        let posted = Locked(0)
        let token = NotificationCenter.default.addObserver(forName: .managedObjectContextWillSave, object: context, queue: nil) { note in
            guard let saving = note.object as? ManagedObjectContext else { return }
            posted.withLock { $0 += 1 }
            #expect(note.userInfo == nil)
            for object in saving.insertedObjects.union(saving.updatedObjects) {
                try? object.setValue(stamp, forKey: "updatedAt")
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.performAndWait {
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("first", forKey: "text")
            try context.save()
            #expect(!context.hasChanges, "the observer's change was saved, not left pending")
            try context.save()
        }
        #expect(posted.withLock { $0 } == 2)
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            let saved = try #require(try reader.fetch(FetchRequest(entityName: "Note")).first)
            #expect(saved.value(forKey: "updatedAt") as? Date == stamp)
        }
    }
}
