import Foundation
import Testing
@testable import Faultline

/// Two coordinators on one store that records no persistent history: a check
/// announces another coordinator's commit once, without a token, and drops
/// the row cache, even when this coordinator also committed since the last
/// check (before or after the other commit); this coordinator's own commits
/// are announced too (Core Data announces a coordinator's own saves), one
/// notification per check for all of them, and leave the row cache alone; no
/// commit is announced twice.
@Suite("Without persistent history: another coordinator's commit is announced once, even beside this coordinator's own, which are announced too")
struct RemoteChangesWithoutHistoryTests {
    /// Two coordinators on a fresh store holding the one shared counter, and
    /// the counter's ID; `mine` has read the counter, so its row is cached.
    struct Pair {
        let url: URL
        let mine: PersistentContainer
        let theirs: PersistentContainer
        let counter: ManagedObjectID

        init() throws {
            url = try ExternalCommitTests.makeStore()
            mine = try PersistentContainer(model: ExternalCommitTests.model(), location: .file(url))
            theirs = try PersistentContainer(model: ExternalCommitTests.model(), location: .file(url))
            let context = mine.newBackgroundContext()
            counter = try context.performAndWait {
                let counter = try #require(try context.fetch(FetchRequest(entityName: "Counter")).first)
                #expect(counter.value(forKey: "count") as? Int64 == 0)
                return counter.objectID
            }
            #expect(mine.coordinator.rowCache.snapshot(for: counter) != nil, "the counter's row is cached")
        }

        /// A commit through `mine`: a new counter, leaving the shared one alone.
        func commitMine(_ name: String) throws {
            let context = mine.newBackgroundContext()
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Counter").setValue(name, forKey: "name")
                try context.save()
            }
        }

        /// A commit through `theirs`: the shared counter set to `value`.
        func commitTheirs(_ value: Int64) throws {
            let context = theirs.newBackgroundContext()
            try context.performAndWait {
                let counter = try #require(
                    try context.fetch(FetchRequest(entityName: "Counter", format: "name == %@", "shared")).first)
                try counter.setValue(value, forKey: "count")
                try context.save()
            }
        }

        /// The shared counter's value as a new context of `mine` reads it.
        func countSeenByMine() throws -> Int64? {
            let context = mine.newBackgroundContext()
            return try context.performAndWait { try context.existingObject(with: counter).value(forKey: "count") as? Int64 }
        }

        /// One check by `mine`: what it returned and how many notifications
        /// it posted.
        func check() throws -> (found: Int, posted: Int) {
            var found = 0
            let posted = try notifications { found = try mine.coordinator.checkForRemoteChanges() }
            return (found, posted)
        }

        /// Counts `persistentStoreRemoteChange` notifications `mine` posts
        /// while `body` runs; each must carry no token and no transaction.
        func notifications(during body: () throws -> Void) rethrows -> Int {
            let changes = Locked<[PersistentStoreRemoteChange?]>([])
            let observer = NotificationCenter.default.addObserver(
                forName: .persistentStoreRemoteChange, object: mine.coordinator, queue: nil
            ) { note in
                changes.withLock { $0.append(note.userInfo?[PersistentStoreRemoteChange.userInfoKey] as? PersistentStoreRemoteChange) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try body()
            return changes.withLock { list in
                #expect(list.allSatisfy { $0 != nil && $0?.historyToken == nil && $0?.transaction == nil })
                #expect(list.allSatisfy { $0?.storeUUID == mine.coordinator.storeUUID })
                return list.count
            }
        }
    }

    @Test("This coordinator commits, then another: one check announces it once and drops the row cache, so its value is read fresh")
    func remoteCommitAfterLocalCommit() throws {
        let pair = try Pair()
        defer { LibraryModel.remove(pair.url) }
        let coordinator = pair.mine.coordinator
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let posted = try pair.notifications {
            try pair.commitMine("local")
            try pair.commitTheirs(41)
            #expect(try coordinator.checkForRemoteChanges() == 1)
        }
        #expect(posted == 1)
        #expect(coordinator.rowCache.snapshot(for: pair.counter) == nil, "the check dropped the row cache")
        #expect(try pair.countSeenByMine() == 41, "read from the store, not from the row cache")
        #expect(try pair.check() == (0, 0), "announced once")
        let noticed = coordinator.externalCommitsNoticed
        try pair.commitMine("later")
        #expect(try pair.check() == (1, 1), "this coordinator's next commit is announced")
        #expect(coordinator.externalCommitsNoticed == noticed, "and the other's is not noticed again")
    }

    @Test("Another coordinator commits between two of this one's commits: one check announces it once")
    func remoteCommitBetweenLocalCommits() throws {
        let pair = try Pair()
        defer { LibraryModel.remove(pair.url) }
        let coordinator = pair.mine.coordinator
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let posted = try pair.notifications {
            try pair.commitMine("first")
            try pair.commitTheirs(42)
            try pair.commitMine("second")
            #expect(try coordinator.checkForRemoteChanges() == 1)
        }
        #expect(posted == 1)
        #expect(try pair.countSeenByMine() == 42)
        #expect(try pair.check() == (0, 0), "announced once")
    }

    @Test("Another coordinator commits, then this one (whose write start noticed it): one check announces it once")
    func remoteCommitBeforeLocalCommit() throws {
        let pair = try Pair()
        defer { LibraryModel.remove(pair.url) }
        let coordinator = pair.mine.coordinator
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let posted = try pair.notifications {
            try pair.commitTheirs(43)
            try pair.commitMine("local")
            #expect(try coordinator.checkForRemoteChanges() == 1)
        }
        #expect(posted == 1)
        #expect(try pair.countSeenByMine() == 43, "read from the store, not from the row cache")
        #expect(try pair.check() == (0, 0), "announced once")
    }

    @Test("Only this coordinator commits: each check after its commits announces them once, without a token, and the row cache stays")
    func onlyLocalCommits() throws {
        let pair = try Pair()
        defer { LibraryModel.remove(pair.url) }
        let coordinator = pair.mine.coordinator
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let posted = try pair.notifications {
            try pair.commitMine("first")
            try pair.commitMine("second")
            #expect(try coordinator.checkForRemoteChanges() == 1)
            #expect(try coordinator.checkForRemoteChanges() == 0, "announced once")
            try pair.commitMine("third")
            #expect(try coordinator.checkForRemoteChanges() == 1)
        }
        #expect(posted == 2)
        #expect(coordinator.rowCache.snapshot(for: pair.counter) != nil, "no commit elsewhere, so the row cache stays")
        #expect(coordinator.externalCommitsNoticed == 0)
    }

    @Test("Only another coordinator commits: announced once; the check after this coordinator's next commit announces that commit, not the other's again")
    func onlyRemoteCommit() throws {
        let pair = try Pair()
        defer { LibraryModel.remove(pair.url) }
        let coordinator = pair.mine.coordinator
        #expect(try coordinator.checkForRemoteChanges() == 0, "the first check only notes where the store is")
        let posted = try pair.notifications {
            try pair.commitTheirs(44)
            #expect(try coordinator.checkForRemoteChanges() == 1)
        }
        #expect(posted == 1)
        #expect(try pair.countSeenByMine() == 44)
        let noticed = coordinator.externalCommitsNoticed
        try pair.commitMine("local")
        #expect(try pair.check() == (1, 1), "the write that followed the announced commit is this coordinator's own, announced")
        #expect(coordinator.externalCommitsNoticed == noticed, "the other's commit is not noticed again")
    }
}
