import FixtureSupport
import Foundation
import Testing
@testable import Faultline

/// Two processes on one store that records persistent history: the other
/// process's saves reach this one's row cache and contexts without a manual
/// refresh, one remote-change notification per commit with its token (this
/// coordinator's own commits are announced too, in commit order, as Core Data
/// does); the counter-increment retry loop converges with every increment in
/// the history.
@Suite("Persistent history: changes from another process reach this one's row cache, contexts and notifications")
struct RemoteChangeTests {
    static let variable = "FAULTLINE_REMOTE_CHANGE_STORE"
    static let savesByChild = 3

    @Test("child: three saves renaming the one book, when asked")
    func childSaves() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.variable] else { return }
        let container = try PersistentContainer(model: HistoryRoundTripTests.model(), location: .file(URL(fileURLWithPath: path)))
        let context = container.newBackgroundContext()
        context.transactionAuthor = "child"
        try context.performAndWait {
            let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
            for number in 1...Self.savesByChild {
                try book.setValue("Edition \(number)", forKey: "title")
                try context.save()
            }
        }
    }

    @Test("parent: another process's saves are found by one check, published to the row cache and to a context that merges automatically, and announced once per commit with its token, this coordinator's later save after them")
    func remoteSavesReachThisProcess() throws {
        guard ProcessInfo.processInfo.environment[Self.variable] == nil else { return }
        let (container, url) = try HistoryRoundTripTests.container()
        defer { HistoryRoundTripTests.remove(url) }
        let coordinator = container.coordinator
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let book = try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Draft", forKey: "title")
            try context.save()
            return book
        }
        let id = context.performAndWait { book.objectID }
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        #expect(try coordinator.checkForRemoteChanges() == 0, "nothing changed")

        let tokens = Locked<[PersistentHistoryToken?]>([])
        let observer = NotificationCenter.default.addObserver(forName: .persistentStoreRemoteChange, object: coordinator, queue: nil) { note in
            let change = note.userInfo?[PersistentStoreRemoteChange.userInfoKey] as? PersistentStoreRemoteChange
            tokens.withLock { $0.append(change?.historyToken) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let child = try TestChildProcess.start(filter: "RemoteChangeTests/childSaves", variable: Self.variable, value: url.path)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        // A local save between the child's commits and the check is announced
        // after them (Core Data announces a coordinator's own saves).
        try context.performAndWait {
            let other = try context.insertNewObject(forEntityName: "Author")
            try other.setValue("Local", forKey: "name")
            try context.save()
        }

        #expect(try coordinator.checkForRemoteChanges() == Self.savesByChild + 1)
        #expect(tokens.withLock { $0.map { $0?.transactionNumber } } == [2, 3, 4, 5])
        #expect(tokens.withLock { $0.allSatisfy { $0?.storeUUID == coordinator.storeUUID } })
        #expect(coordinator.rowCache.snapshot(for: id) == nil, "the row the child changed left the row cache")
        context.performAndWait {
            #expect(book.value(forKey: "title") as? String == "Edition 3", "merged without a refresh")
        }
        #expect(try coordinator.checkForRemoteChanges() == 0)
    }

    @Test("History another coordinator deleted before this one read it is announced once, without a transaction; so is its own deleted history, which leaves the row cache alone")
    func deletedHistory() throws {
        let (container, url) = try HistoryRoundTripTests.container()
        defer { HistoryRoundTripTests.remove(url) }
        let coordinator = container.coordinator
        let other = try PersistentContainer(model: HistoryRoundTripTests.model(), location: .file(url))
        let mine = container.newBackgroundContext(), theirs = other.newBackgroundContext()
        func save(_ context: ManagedObjectContext, _ title: String) throws {
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Book").setValue(title, forKey: "title")
                try context.save()
            }
        }
        try save(mine, "First")
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let changes = Locked<[PersistentStoreRemoteChange?]>([])
        let observer = NotificationCenter.default.addObserver(forName: .persistentStoreRemoteChange, object: coordinator, queue: nil) { note in
            changes.withLock { $0.append(note.userInfo?[PersistentStoreRemoteChange.userInfoKey] as? PersistentStoreRemoteChange) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        try save(mine, "Mine")
        let token = try #require(try other.coordinator.currentPersistentHistoryToken())
        _ = try theirs.execute(.deleteHistory(before: token))
        let noticed = coordinator.externalCommitsNoticed
        #expect(try coordinator.checkForRemoteChanges() == 1, "this coordinator's own commit is announced, its history gone")
        #expect(changes.withLock { $0.count == 1 && $0[0] != nil && $0[0]?.historyToken == nil && $0[0]?.transaction == nil })
        #expect(coordinator.externalCommitsNoticed == noticed, "the deleted transaction was this coordinator's own: the row cache stays")

        try save(theirs, "Theirs")
        _ = try theirs.execute(.deleteHistory(before: try #require(try other.coordinator.currentPersistentHistoryToken())))
        #expect(try coordinator.checkForRemoteChanges() == 1)
        #expect(changes.withLock { $0.count == 2 && $0[1] != nil && $0[1]?.historyToken == nil && $0[1]?.transaction == nil })
        #expect(coordinator.externalCommitsNoticed > noticed, "another coordinator's deleted transaction empties the row cache")
        try save(theirs, "Later")
        #expect(try coordinator.checkForRemoteChanges() == 1, "checks after it read history again")
        #expect(changes.withLock { $0.last??.historyToken?.transactionNumber } == 4)
    }

    @Test("Observing polls on its own: a save through another coordinator is announced without a call")
    func polling() throws {
        let (container, url) = try HistoryRoundTripTests.container()
        defer { HistoryRoundTripTests.remove(url) }
        let coordinator = container.coordinator
        let announced = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .persistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
            announced.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        coordinator.startObservingRemoteChanges(every: 0.01)
        defer { coordinator.stopObservingRemoteChanges() }
        let other = try PersistentContainer(model: HistoryRoundTripTests.model(), location: .file(url))
        let context = other.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Elsewhere", forKey: "title")
            try context.save()
        }
        #expect(announced.wait(timeout: .now() + 10) == .success)
    }

    @Test("child: increment the shared counter, when asked")
    func childIncrements() throws {
        guard let path = ProcessInfo.processInfo.environment[ExternalCommitTests.storeVariable + "_HISTORY"] else { return }
        _ = try ExternalCommitTests.increment(URL(fileURLWithPath: path), times: ExternalCommitTests.increments)
    }

    @Test("parent: two processes incrementing one counter in a store with history converge, and every increment is one transaction naming count")
    func incrementsConverge() throws {
        guard ProcessInfo.processInfo.environment[ExternalCommitTests.storeVariable + "_HISTORY"] == nil else { return }
        let url = ScratchStores.url()
        defer { HistoryRoundTripTests.remove(url) }
        do {
            let container = try PersistentContainer(model: ExternalCommitTests.model(), location: .file(url), persistentHistoryTracking: true)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Counter").setValue("shared", forKey: "name")
                try context.save()
            }
        }
        let child = try TestChildProcess.start(
            filter: "RemoteChangeTests/childIncrements", variable: ExternalCommitTests.storeVariable + "_HISTORY", value: url.path)
        _ = try ExternalCommitTests.increment(url, times: ExternalCommitTests.increments)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try ExternalCommitTests.storedValue(url) == Int64(2 * ExternalCommitTests.increments))
        let reader = try PersistentContainer(model: ExternalCommitTests.model(), location: .file(url))
        let transactions = try reader.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 1 + 2 * ExternalCommitTests.increments)
        #expect(transactions.dropFirst().allSatisfy { $0.changes.count == 1 && $0.changes.first?.updatedProperties == ["count"] })
        #expect(Set(transactions.map(\.transactionNumber)).count == transactions.count)
    }
}
