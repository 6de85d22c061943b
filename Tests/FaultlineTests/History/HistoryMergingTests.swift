import Foundation
import Testing
@testable import Faultline

/// A history transaction merged into a context on another coordinator (what
/// another process sees): updated objects show the new values, deleted ones
/// leave, the objects-did-change notification fires; a save's notification
/// carries its transaction's token.
@Suite("Persistent history: merging a transaction into a context of another coordinator")
struct HistoryMergingTests {
    @Test("Another coordinator's update and delete, merged from history, show in a context that had the objects registered and cached")
    func mergeFromAnotherCoordinator() throws {
        let (writer, url) = try HistoryRoundTripTests.container()
        defer { HistoryRoundTripTests.remove(url) }
        let writing = writer.newBackgroundContext()
        let (kept, gone, saveToken) = try writing.performAndWait {
            let kept = try writing.insertNewObject(forEntityName: "Book")
            try kept.setValue("Draft", forKey: "title")
            let gone = try writing.insertNewObject(forEntityName: "Book")
            try gone.setValue("Scrap", forKey: "title")
            let token = Locked<PersistentHistoryToken?>(nil)
            let observer = NotificationCenter.default.addObserver(
                forName: .managedObjectContextDidSave, object: writing, queue: nil) { note in
                token.withLock { $0 = (note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave)?.historyToken }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try writing.save()
            return (kept.objectID, gone.objectID, token.withLock { $0 })
        }
        #expect(saveToken?.transactionNumber == 1, "the did-save notification carries the save's token")

        // The reader: another coordinator on the same file, as another process would be.
        let reader = try PersistentContainer(model: HistoryRoundTripTests.model(), location: .file(url))
        let reading = reader.newBackgroundContext()
        let keptID = try #require(reader.coordinator.managedObjectID(forURIRepresentation: kept.uriRepresentation()))
        let goneID = try #require(reader.coordinator.managedObjectID(forURIRepresentation: gone.uriRepresentation()))
        let (book, scrap) = try reading.performAndWait {
            let book = try reading.existingObject(with: keptID)
            let scrap = try reading.existingObject(with: goneID)
            #expect(book.value(forKey: "title") as? String == "Draft")
            return (book, scrap)
        }
        let token = try #require(try reader.coordinator.currentPersistentHistoryToken())

        try writing.performAndWait {
            let object = try writing.existingObject(with: kept)
            try object.setValue("Final", forKey: "title")
            writing.delete(try writing.existingObject(with: gone))
            try writing.save()
        }

        let transactions = try reading.execute(.fetchHistory(after: token)).transactions
        #expect(transactions.count == 1)
        // Posted on the reading context's queue: the objects' identities, which are Sendable.
        let announced = Locked<(updated: Set<ObjectIdentifier>, deleted: Set<ObjectIdentifier>)?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: .managedObjectContextObjectsDidChange, object: reading, queue: nil) { note in
            guard let change = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange else { return }
            announced.withLock {
                // Another save's update is a refresh here, as in Core Data.
                $0 = (Set(change.refreshedObjects.map(ObjectIdentifier.init)), Set(change.deletedObjects.map(ObjectIdentifier.init)))
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        reading.performAndWait {
            for transaction in transactions { reading.mergeChanges(from: transaction) }
            #expect(book.value(forKey: "title") as? String == "Final", "the cached row was dropped, the fault read the new one")
            #expect(scrap.isDeleted)
            #expect(reading.registeredObjects.contains(book))
            #expect(!reading.registeredObjects.contains(scrap))
        }
        #expect(announced.withLock { $0?.updated } == [ObjectIdentifier(book)])
        #expect(announced.withLock { $0?.deleted } == [ObjectIdentifier(scrap)])
    }
}
