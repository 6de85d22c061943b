import FixtureSupport
import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// Commits made by another connection or process reach the row cache: it is
/// dropped when SQLite's data version shows someone else committed, and a
/// version conflict drops the rows it proves old, so Core Data's retry loop
/// (`rollback()`, `refresh(_:mergeChanges: false)`, try again) converges.
@Suite("Commits by other connections and processes")
struct ExternalCommitTests {
    static let storeVariable = "FAULTLINE_EXTERNAL_COMMIT_STORE"
    static let increments = 150

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Counter") {
                Attribute("name", .string)
                Attribute("count", .integer64).defaultValue(.integer(0))
            }
        }
    }

    /// Increments the one counter `times` times, as a Core Data app does: on a
    /// conflict, roll back, refresh the object from the store, try again.
    /// Returns the attempts it took.
    static func increment(_ url: URL, times: Int) throws -> Int {
        let container = try PersistentContainer(model: model(), location: .file(url), busyTimeout: 10)
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let counter = try #require(try context.fetch(FetchRequest(entityName: "Counter")).first)
            var attempts = 0
            var done = 0
            while done < times {
                attempts += 1
                guard attempts < times * 200 else { throw RetriesExhausted(done: done, attempts: attempts) }
                let value = counter.value(forKey: "count") as? Int64 ?? 0
                try counter.setValue(value + 1, forKey: "count")
                do {
                    try context.save()
                    done += 1
                } catch SaveError.conflicts {
                    context.rollback()
                    context.refresh(counter, mergeChanges: false)
                }
            }
            return attempts
        }
    }

    struct RetriesExhausted: Error { let done: Int; let attempts: Int }

    static func makeStore() throws -> URL {
        let url = ScratchStores.url()
        let container = try PersistentContainer(model: model(), location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Counter").setValue("shared", forKey: "name")
            try context.save()
        }
        return url
    }

    static func storedValue(_ url: URL) throws -> Int64? {
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let connection = try Connection(.file(url.path), configuration: configuration)
        guard case .integer(let value)? = try connection.scalar("SELECT ZCOUNT FROM ZCOUNTER") else { return nil }
        return value
    }

    @Test("Another coordinator's commit is noticed by the next read: the row cache is dropped and a fault reads the new value")
    func anotherConnectionsCommit() throws {
        let url = try Self.makeStore()
        defer { LibraryModel.remove(url) }
        let mine = try PersistentContainer(model: Self.model(), location: .file(url))
        let theirs = try PersistentContainer(model: Self.model(), location: .file(url))
        let first = mine.newBackgroundContext()
        let id: ManagedObjectID = try first.performAndWait {
            let counter = try #require(try first.fetch(FetchRequest(entityName: "Counter")).first)
            #expect(counter.value(forKey: "count") as? Int64 == 0)
            return counter.objectID
        }
        let other = theirs.newBackgroundContext()
        try other.performAndWait {
            let counter = try #require(try other.fetch(FetchRequest(entityName: "Counter")).first)
            try counter.setValue(Int64(41), forKey: "count")
            try other.save()
        }
        #expect(mine.coordinator.externalCommitsNoticed == 0)
        let second = mine.newBackgroundContext()
        try second.performAndWait {
            _ = try second.count(for: FetchRequest(entityName: "Counter"))
            #expect(mine.coordinator.externalCommitsNoticed == 1)
            mine.coordinator.resetCounters()
            #expect(try second.existingObject(with: id).value(forKey: "count") as? Int64 == 41)
            #expect(mine.coordinator.rowCache.counters.hits == 0)
        }
    }

    /// Child: increments the counter when the parent set the store variable.
    @Test("A coordinator's first write notices a commit made elsewhere since it opened: a fault read after it reads the new value, not the row cache")
    func firstWriteNoticesEarlierCommit() throws {
        let url = try Self.makeStore()
        defer { LibraryModel.remove(url) }
        let mine = try PersistentContainer(model: Self.model(), location: .file(url))
        let theirs = try PersistentContainer(model: Self.model(), location: .file(url))
        let first = mine.newBackgroundContext()
        let id: ManagedObjectID = try first.performAndWait {
            try #require(try first.fetch(FetchRequest(entityName: "Counter")).first).objectID
        }
        let other = theirs.newBackgroundContext()
        try other.performAndWait {
            try #require(try other.fetch(FetchRequest(entityName: "Counter")).first).setValue(Int64(41), forKey: "count")
            try other.save()
        }
        // Mine writes before reading again: only its writer can notice.
        let writer = mine.newBackgroundContext()
        try writer.performAndWait {
            try writer.insertNewObject(forEntityName: "Counter").setValue("mine", forKey: "name")
            try writer.save()
        }
        #expect(mine.coordinator.externalCommitsNoticed == 1)
        let reader = mine.newBackgroundContext()
        try reader.performAndWait { () throws in
            #expect(try reader.existingObject(with: id).value(forKey: "count") as? Int64 == 41)
        }
    }

    @Test("child: increment the shared counter, when asked")
    func childIncrements() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.storeVariable] else { return }
        _ = try Self.increment(URL(fileURLWithPath: path), times: Self.increments)
    }

    @Test("parent: two processes incrementing one counter with rollback and refresh on conflict: every increment lands")
    func twoProcessesConverge() throws {
        guard ProcessInfo.processInfo.environment[Self.storeVariable] == nil else { return }
        let url = try Self.makeStore()
        defer { LibraryModel.remove(url) }
        let child = try TestChildProcess.start(filter: "ExternalCommitTests/childIncrements", variable: Self.storeVariable, value: url.path)
        let attempts = try Self.increment(url, times: Self.increments)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(attempts >= Self.increments)
        #expect(try Self.storedValue(url) == Int64(2 * Self.increments))
    }
}
