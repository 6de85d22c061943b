import Foundation
import Testing
@testable import Faultline

/// `performAndWait` is reentrant, as Core Data's: called on the context's own
/// queue — or on one this thread holds further out, as a child's save inside
/// the parent's block does — it runs inline instead of deadlocking in
/// `DispatchQueue.sync`.
@Suite("performAndWait reentrancy")
struct PerformReentrancyTests {
    @Test("A nested performAndWait on the same context runs inline, in order")
    func nestedRunsInline() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        var order: [Int] = []
        try context.performAndWait {
            order.append(1)
            try context.performAndWait {
                order.append(2)
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Nested", forKey: "name")
                context.performAndWait { order.append(3) }
                try context.save()
            }
            order.append(4)
        }
        #expect(order == [1, 2, 3, 4])
    }

    @Test("The view context's performAndWait from the main actor runs inline, where main-queue blocks run on worker threads after dispatchMain(), as here")
    @MainActor
    func viewContextFromTheMainActor() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.viewContext
        #expect(context.isOnOwnQueue)
        let count = try context.performAndWait {
            try context.insertNewObject(forEntityName: "Author").setValue("Main", forKey: "name")
            try context.save()
            return try context.count(for: FetchRequest(entityName: "Author"))
        }
        #expect(count == 1)
    }

    @Test("The view context's outermost performAndWait from the main actor ends its block as any other: its changes are announced, its undo step closes")
    @MainActor
    func viewContextBlockEndsItsEvent() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let view = container.viewContext
        view.reportsUnsavedChanges = true
        view.undoManager = UndoManager()
        let listener = ObjectsDidChangeAsCoreDataTests.Listener(view)
        let first = try view.performAndWait {
            let author = try view.insertNewObject(forEntityName: "Author")
            try author.setValue("First", forKey: "name")
            return author
        }
        #expect(listener.all.map(\.inserted) == [[ObjectIdentifier(first)]])
        let second = try view.performAndWait {
            let author = try view.insertNewObject(forEntityName: "Author")
            try author.setValue("Second", forKey: "name")
            // A nested block is inside the outer one: nothing is announced yet.
            view.performAndWait {}
            #expect(listener.all.count == 1)
            return author
        }
        #expect(listener.all.map(\.inserted) == [[ObjectIdentifier(first)], [ObjectIdentifier(second)]])
        view.undoManager?.undo()
        #expect(view.insertedObjects == [first])
    }

    @Test("From the main actor on a worker thread, a child of the view context fetches and saves, and a background block reaches back into the view context inline")
    @MainActor
    func mainQueueHeldThroughOtherContexts() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let view = container.viewContext
        let child = view.newChildContext()
        // The child's fetch and save each reach the view context with performAndWait.
        let count = try child.performAndWait {
            try child.insertNewObject(forEntityName: "Author").setValue("Child", forKey: "name")
            try child.save()
            return try child.count(for: FetchRequest(entityName: "Author"))
        }
        #expect(count == 1)
        try view.save()
        let background = container.newBackgroundContext()
        let names = try view.performAndWait {
            try background.performAndWait {
                try view.performAndWait { try view.fetch(FetchRequest(entityName: "Author")).compactMap { $0.value(forKey: "name") as? String } }
            }
        }
        #expect(names == ["Child"])
    }

    @Test("performAndWait from inside perform runs inline")
    func insidePerform() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let value = await context.perform { context.performAndWait { 42 } }
        #expect(value == 42)
    }

    @Test("perform from synchronous code returns at once and runs the block on the context's queue, as Core Data's perform(_:)")
    func performFromSynchronousCode() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let ran = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        final class Outcome: @unchecked Sendable { var onQueue = false; var saved: Error?; var count = 0 }
        let outcome = Outcome()
        context.perform {
            gate.wait()
            outcome.onQueue = context.isOnOwnQueue
            do {
                try context.insertNewObject(forEntityName: "Author").setValue("Ana", forKey: "name")
                try context.save()
                outcome.count = try context.count(for: FetchRequest(entityName: "Author"))
            } catch { outcome.saved = error }
            ran.signal()
        }
        // Returned before the block ran: it waits for this thread's signal.
        gate.signal()
        ran.wait()
        #expect(outcome.onQueue && outcome.saved == nil && outcome.count == 1)
    }

    @Test("Another context's queue is not this one's; one this thread holds further out is")
    func otherContextHops() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let third = container.newBackgroundContext()
        #expect(!first.isOnOwnQueue)
        first.performAndWait {
            #expect(first.isOnOwnQueue)
            #expect(!second.isOnOwnQueue)
            second.performAndWait {
                #expect(second.isOnOwnQueue)
                // Held by this thread below `second`'s block: running its block here is safe.
                #expect(first.isOnOwnQueue)
                #expect(!third.isOnOwnQueue)
            }
            #expect(!second.isOnOwnQueue)
        }
        #expect(!first.isOnOwnQueue && !second.isOnOwnQueue)
    }

    @Test("A child's save inside the parent's performAndWait runs on the held parent queue instead of deadlocking")
    func childSaveInsideParentBlock() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let names = try parent.performAndWait { () throws -> [String] in
            let child = parent.newChildContext()
            try child.performAndWait {
                let author = try child.insertNewObject(forEntityName: "Author")
                try author.setValue("Nested", forKey: "name")
                let grandchild = child.newChildContext()
                try grandchild.performAndWait {
                    let other = try grandchild.insertNewObject(forEntityName: "Author")
                    try other.setValue("Deeper", forKey: "name")
                    try grandchild.save()
                }
                try child.save()
            }
            #expect(parent.insertedObjects.count == 2)
            try parent.save()
            return try ChildContextTests.names(parent)
        }
        #expect(names == ["Deeper", "Nested"])
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try ChildContextTests.names(reader) } == ["Deeper", "Nested"])
    }

    @Test("A child's save inside the parent's perform runs inline too")
    func childSaveInsideParentPerform() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let inserted = try await parent.perform {
            let child = parent.newChildContext()
            try child.performAndWait {
                let author = try child.insertNewObject(forEntityName: "Author")
                try author.setValue("From perform", forKey: "name")
                try child.save()
            }
            return parent.insertedObjects.count
        }
        #expect(inserted == 1)
    }
}
