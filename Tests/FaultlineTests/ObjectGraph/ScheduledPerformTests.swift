import Foundation
import Testing
@testable import Faultline

/// `perform(schedule:_:)`, as Core Data's: `.immediate` (the default) runs the
/// block at once when the caller is already on the context's queue and
/// enqueues it otherwise; `.enqueued` always runs it after the blocks already
/// on the queue. A block that cannot throw is awaited without `try`.
@Suite("perform(schedule:) runs the block at once or after the queued ones")
struct ScheduledPerformTests {
    /// What the blocks did, in order; touched on the main queue only.
    final class Order: @unchecked Sendable {
        var steps: [String] = []
    }

    /// `perform(_:)` from synchronous code: queued behind whatever is on the main queue.
    static func enqueueSynchronously(_ context: ManagedObjectContext, _ order: Order, _ step: String) {
        context.perform { order.steps.append(step) }
    }

    @Test("From the main actor, .immediate runs before a block already queued on the view context; .enqueued after it")
    @MainActor
    func viewContextFromTheMainActor() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let view = container.viewContext
        let order = Order()
        Self.enqueueSynchronously(view, order, "queued")
        let inserted = try await view.perform(schedule: .immediate) { () throws -> Int in
            order.steps.append("immediate")
            try view.insertNewObject(forEntityName: "Author").setValue("Now", forKey: "name")
            return view.insertedObjects.count
        }
        #expect(inserted == 1)
        #expect(order.steps == ["immediate"])
        await view.perform(schedule: .enqueued) { order.steps.append("enqueued") }
        #expect(order.steps == ["immediate", "queued", "enqueued"])
        // The default is .immediate.
        await view.perform { order.steps.append("default") }
        #expect(order.steps == ["immediate", "queued", "enqueued", "default"])
    }

    @Test("Off the context's queue both schedules run the block on it and hand back its result or its error")
    func backgroundContext() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        for schedule in [ManagedObjectContext.ScheduledTaskType.immediate, .enqueued] {
            let onQueue = await context.perform(schedule: schedule) { context.isOnOwnQueue }
            #expect(onQueue)
            await #expect(throws: FetchError.self) {
                try await context.perform(schedule: schedule) { try context.fetch(FetchRequest(entityName: "Nothing")).count }
            }
        }
        let count = try await context.perform {
            try context.insertNewObject(forEntityName: "Author").setValue("Saved", forKey: "name")
            try context.save()
            return try context.count(for: FetchRequest(entityName: "Author"))
        }
        #expect(count == 1)
    }
}
