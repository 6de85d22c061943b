import Foundation
import Testing
@testable import Faultline

/// Core Data posts `NSPersistentStoreRemoteChange` for a coordinator's own
/// saves too (CoreDataPlus's test_InvestigationPersistentStoreRemoteChangeAndSave
/// and its batch-insert variant expect it, with a token, on the saving
/// container and on a second one over the same file). A check announces this
/// coordinator's own commits like anyone else's — with history, with the same
/// token the other coordinator announces — but does not publish them to its
/// contexts or row cache a second time.
@Suite("A coordinator's own commits are announced by its remote-change check, as Core Data does, without a second merge")
struct OwnCommitsAnnouncedTests {
    /// Two containers on one fresh store, each checked once (the starting
    /// point), and an automatically merging context of the first with the
    /// objects-did-change notifications it has posted so far.
    final class Setup: @unchecked Sendable {
        let url: URL
        let first: PersistentContainer
        let second: PersistentContainer
        let merging: ManagedObjectContext
        private let heard = Locked<Int>(0)
        private var observer: NSObjectProtocol?

        init(history: Bool) throws {
            (first, url) = try HistoryRoundTripTests.container(tracking: history)
            second = try PersistentContainer(model: HistoryRoundTripTests.model(), location: .file(url), persistentHistoryTracking: history)
            merging = first.newBackgroundContext()
            merging.automaticallyMergesChangesFromParent = true
            let heard = heard
            observer = NotificationCenter.default.addObserver(
                forName: .managedObjectContextObjectsDidChange, object: merging, queue: nil
            ) { _ in heard.withLock { $0 += 1 } }
            #expect(try first.coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
            #expect(try second.coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        }

        deinit {
            if let observer { NotificationCenter.default.removeObserver(observer) }
            HistoryRoundTripTests.remove(url)
        }

        /// Objects-did-change notifications of `merging`, once the merges
        /// already scheduled on its queue have run.
        var mergesHeard: Int {
            merging.performAndWait {}
            return heard.withLock { $0 }
        }

        /// A save through a context of the first container; the saved book.
        func saveInFirst(_ title: String) throws -> ManagedObjectID {
            let context = first.newBackgroundContext()
            return try context.performAndWait {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(title, forKey: "title")
                try context.save()
                return book.objectID
            }
        }

        /// One check of `container`: what it returned and the payloads it posted.
        func check(_ container: PersistentContainer) throws -> (found: Int, posted: [PersistentStoreRemoteChange?]) {
            let posted = Locked<[PersistentStoreRemoteChange?]>([])
            let observer = NotificationCenter.default.addObserver(
                forName: .persistentStoreRemoteChange, object: container.coordinator, queue: nil
            ) { note in
                posted.withLock { $0.append(note.userInfo?[PersistentStoreRemoteChange.userInfoKey] as? PersistentStoreRemoteChange) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let found = try container.coordinator.checkForRemoteChanges()
            return (found, posted.withLock { $0 })
        }
    }

    @Test("With history, a save in the first container is announced by both containers' checks with the same token; the first's contexts and row cache do not take it again")
    func ownSaveAnnouncedWithToken() throws {
        let setup = try Setup(history: true)
        let id = try setup.saveInFirst("Mine")
        let merges = setup.mergesHeard
        #expect(setup.first.coordinator.rowCache.snapshot(for: id) != nil, "the save cached its row")

        let mine = try setup.check(setup.first)
        #expect(mine.found == 1)
        #expect(mine.posted.count == 1)
        let token = try #require(mine.posted.first??.historyToken, "the saving coordinator announces its save with its token")
        #expect(mine.posted.first??.transaction?.transactionNumber == token.transactionNumber)
        #expect(mine.posted.first??.transaction?.changes.map(\.changedObjectID) == [id])
        #expect(mine.posted.first??.storeUUID == setup.first.coordinator.storeUUID)

        let theirs = try setup.check(setup.second)
        #expect(theirs.found == 1)
        #expect(theirs.posted.count == 1)
        #expect(theirs.posted.first??.historyToken == token, "both containers announce the one transaction by the same token")

        #expect(setup.mergesHeard == merges, "the saving coordinator's merging context hears of its save once, at the save")
        #expect(setup.first.coordinator.rowCache.snapshot(for: id) != nil, "the announcement does not drop the saved row")
        #expect(setup.first.coordinator.externalCommitsNoticed == 0)
        #expect(try setup.check(setup.first).found == 0, "announced once")
        #expect(try setup.check(setup.second).found == 0, "announced once")
    }

    @Test("With history, a batch insert through the first container is announced by both containers' checks with the same token, and merged by neither of the first's contexts a second time")
    func ownBatchInsertAnnouncedWithToken() throws {
        let setup = try Setup(history: true)
        let request = try BatchInsertRequest(entityName: "Book", in: setup.first.model, objects: [["title": "One"], ["title": "Two"]])
        try setup.first.coordinator.execute(request)
        let merges = setup.mergesHeard

        let mine = try setup.check(setup.first)
        #expect(mine.found == 1)
        let token = try #require(mine.posted.first??.historyToken, "the executing coordinator announces its batch insert with its token")
        #expect(mine.posted.count == 1)
        #expect(mine.posted.first??.transaction?.changes.count == 2)

        let theirs = try setup.check(setup.second)
        #expect(theirs.found == 1)
        #expect(theirs.posted.map { $0?.historyToken } == [token])

        #expect(setup.mergesHeard == merges, "the check publishes nothing to the executing coordinator's contexts")
        #expect(setup.first.coordinator.externalCommitsNoticed == 0)
    }

    @Test("With history, own commits are announced in commit order with another coordinator's, and only the other's is published")
    func ownAndOtherInCommitOrder() throws {
        let setup = try Setup(history: true)
        let before = try setup.saveInFirst("Before")
        let context = setup.second.newBackgroundContext()
        let elsewhere = try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Elsewhere", forKey: "title")
            try context.save()
            return book.objectID
        }
        let after = try setup.saveInFirst("After")
        let merges = setup.mergesHeard

        let mine = try setup.check(setup.first)
        #expect(mine.found == 3)
        // Rows by key: the second coordinator's IDs name its own store identifier.
        #expect(mine.posted.map { $0?.transaction?.changes.map(\.changedObjectID.primaryKey) }
                == [[before.primaryKey], [elsewhere.primaryKey], [after.primaryKey]])
        let numbers = mine.posted.compactMap { $0?.historyToken?.transactionNumber }
        #expect(numbers.count == 3 && numbers == numbers.sorted())
        #expect(setup.mergesHeard == merges + 1, "the other coordinator's commit alone is merged")
    }

    @Test("Without history, a save in the first container is announced by both containers' checks, tokenless; only the other container drops its row cache")
    func ownSaveAnnouncedWithoutHistory() throws {
        let setup = try Setup(history: false)
        let id = try setup.saveInFirst("Mine")
        let merges = setup.mergesHeard
        #expect(setup.first.coordinator.rowCache.snapshot(for: id) != nil, "the save cached its row")

        let mine = try setup.check(setup.first)
        #expect(mine.found == 1)
        #expect(mine.posted.count == 1)
        #expect(mine.posted.allSatisfy { $0 != nil && $0?.historyToken == nil && $0?.transaction == nil })

        let theirs = try setup.check(setup.second)
        #expect(theirs.found == 1)
        #expect(theirs.posted.count == 1)
        #expect(theirs.posted.allSatisfy { $0 != nil && $0?.historyToken == nil && $0?.transaction == nil })

        #expect(setup.first.coordinator.rowCache.snapshot(for: id) != nil, "an own commit leaves the row cache alone")
        #expect(setup.first.coordinator.externalCommitsNoticed == 0)
        #expect(setup.second.coordinator.externalCommitsNoticed > 0, "the commit was made elsewhere for the second")
        #expect(setup.mergesHeard == merges)
        #expect(try setup.check(setup.first).found == 0, "announced once")
        #expect(try setup.check(setup.second).found == 0, "announced once")
    }
}
