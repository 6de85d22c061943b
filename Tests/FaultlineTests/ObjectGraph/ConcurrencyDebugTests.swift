import FixtureSupport
import Foundation
import Testing
@testable import Faultline

/// `FAULTLINE_CONCURRENCY_DEBUG=1` stops the process at a context used off
/// its queue, as Core Data's `-com.apple.CoreData.ConcurrencyDebug 1` does,
/// and never stops correct code. The switch is read once per process, so each
/// case runs in a process of its own (an exit test) that sets it first.
@Suite("Concurrency debugging stops a context used off its queue")
struct ConcurrencyDebugTests {
    /// A saved author in a fresh store, with debugging on in this process.
    /// A process that is meant to stop gets an in-memory store: it dies
    /// before any clean-up could remove a file.
    static func storeWithAuthor(_ location: StoreLocation = .inMemory) throws -> PersistentContainer {
        setenv("FAULTLINE_CONCURRENCY_DEBUG", "1", 1)
        let container = try PersistentContainer(model: LibraryModel.model(), location: location)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Author").setValue("Ana", forKey: "name")
            try context.save()
        }
        return container
    }

    /// The synchronous `perform(_:)`, which async code cannot name.
    static func performAndSignal(_ context: ManagedObjectContext) {
        let done = DispatchSemaphore(value: 0)
        context.perform {
            _ = context.hasChanges
            done.signal()
        }
        done.wait()
    }

    static func stderr(_ result: ExitTest.Result) -> String {
        String(decoding: result.standardErrorContent, as: UTF8.self)
    }

    @Test("Correct use — nested performAndWait, perform, async perform, a child's save, automatic merges — runs to the end")
    func correctUseRuns() async {
        await #expect(processExitsWith: .success) {
            let url = ScratchStores.url()
            let container = try ConcurrencyDebugTests.storeWithAuthor(.file(url))
            defer { LibraryModel.remove(url) }
            let context = container.newBackgroundContext()
            let other = container.newBackgroundContext()
            other.automaticallyMergesChangesFromParent = true
            try other.performAndWait { _ = try other.fetch(FetchRequest(entityName: "Author")).map { $0.value(forKey: "name") } }
            try context.performAndWait {
                let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
                try context.performAndWait { try author.setValue("Anabel", forKey: "name") }
                let child = context.newChildContext()
                try child.performAndWait {
                    let mine = try child.existingObject(with: author.objectID)
                    try mine.setValue("Anabella", forKey: "name")
                    try child.save()
                }
                try context.save()
            }
            ConcurrencyDebugTests.performAndSignal(context)
            let names = try await other.perform {
                try other.fetch(FetchRequest(entityName: "Author")).compactMap { $0.value(forKey: "name") as? String }
            }
            // The body's own checks end the process with a code the parent sees.
            if names != ["Anabella"] { exit(3) }
        }
    }

    @Test("A fetch off the queue stops the process, naming the call and the context")
    func fetchOffQueue() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            let context = container.newBackgroundContext()
            context.name = "worker"
            _ = try context.fetch(FetchRequest(entityName: "Author"))
        }
        let message = Self.stderr(result)
        #expect(message.contains("fetch(_:file:line:) was called on context 'worker'"), "\(message)")
        #expect(message.contains("perform or performAndWait"), "\(message)")
    }

    @Test("An insert off the queue stops the process")
    func insertOffQueue() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            _ = try container.newBackgroundContext().insertNewObject(forEntityName: "Author")
        }
        #expect(Self.stderr(result).contains("insertNewObject(forEntityName:) was called"))
    }

    @Test("A save off the queue stops the process")
    func saveOffQueue() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            try container.newBackgroundContext().save()
        }
        #expect(Self.stderr(result).contains("save() was called"))
    }

    @Test("Changing an object fetched inside performAndWait, after the block returned, stops the process")
    func writeAfterTheBlock() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            let context = container.newBackgroundContext()
            let author = try context.performAndWait { try #require(try context.fetch(FetchRequest(entityName: "Author")).first) }
            _ = context.performAndWait { author.value(forKey: "name") }
            try author.setValue("Off the queue", forKey: "name")
        }
        #expect(Self.stderr(result).contains("a change to an object was called"))
    }

    @Test("Firing a fault off the queue stops the process")
    func faultOffQueue() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            let id = try #require(try container.newBackgroundContext().fetchObjectIDsOnQueue("Author").first)
            let context = container.newBackgroundContext()
            let fault = try context.performAndWait { try context.object(with: id) }
            _ = fault.value(forKey: "name")
        }
        #expect(Self.stderr(result).contains("firing a fault was called"))
    }

    @Test("A main-queue context used from another thread stops the process")
    func viewContextOffMain() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ConcurrencyDebugTests.storeWithAuthor()
            let view = await MainActor.run { container.viewContext }
            // Tests run off the main thread.
            _ = try view.count(for: FetchRequest(entityName: "Author"))
        }
        #expect(Self.stderr(result).contains("count(for:) was called"))
    }

    @Test("Without the variable, nothing is checked: the same off-queue fetch runs")
    func offWithoutTheVariable() async {
        await #expect(processExitsWith: .success) {
            unsetenv("FAULTLINE_CONCURRENCY_DEBUG")
            let (container, url) = try LibraryModel.container()
            defer { LibraryModel.remove(url) }
            if try !container.newBackgroundContext().fetch(FetchRequest(entityName: "Author")).isEmpty { exit(3) }
        }
    }
}

extension ManagedObjectContext {
    fileprivate func fetchObjectIDsOnQueue(_ entityName: String) throws -> [ManagedObjectID] {
        try performAndWait { try fetchObjectIDs(FetchRequest(entityName: entityName)) }
    }
}
