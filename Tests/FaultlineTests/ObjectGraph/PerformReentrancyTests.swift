import Foundation
import Testing
@testable import Faultline

/// `performAndWait` is reentrant, as Core Data's: called on the context's own
/// queue it runs inline instead of deadlocking in `DispatchQueue.sync`.
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

    @Test("performAndWait from inside perform runs inline")
    func insidePerform() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let value = try await context.perform { context.performAndWait { 42 } }
        #expect(value == 42)
    }

    @Test("Another context's queue is not this one's: performAndWait there still hops queues")
    func otherContextHops() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        first.performAndWait {
            #expect(first.isOnOwnQueue)
            #expect(!second.isOnOwnQueue)
            second.performAndWait { #expect(second.isOnOwnQueue && !first.isOnOwnQueue) }
        }
    }
}
