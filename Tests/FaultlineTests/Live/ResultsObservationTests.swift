import Foundation
import Testing
@testable import Faultline

/// `context.changes(of:)`: the current result, then one element per change
/// that affects it — the context's own save, another context's merged save, a
/// batch request — each with its difference; cancelling the consuming task
/// stops the controller behind it.
@Suite("Observing a fetch as an AsyncSequence", .serialized, .timeLimit(.minutes(1)))
struct ResultsObservationTests {
    static func insert(_ group: String, _ rank: Int64, visible: Bool = true, in context: ManagedObjectContext) throws {
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue(group, forKey: "group")
        try item.setValue(rank, forKey: "rank")
        try item.setValue(visible, forKey: "visible")
    }

    @Test("The first element is the current result; an insert, its save, another context's save and a batch delete each yield the next, with its difference")
    func elements() async throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        try context.performAndWait {
            try Self.insert("A", 1, in: context)
            try Self.insert("B", 2, in: context)
            try context.save()
        }
        var results = context.changes(of: try FetchedResultsControllerTests.request(), sectionNameKeyPath: "group")
            .makeAsyncIterator()
        let first = try #require(try await results.next())
        #expect(first.objectIDs.count == 2)
        #expect(first.sections.map(\.name) == ["A", "B"])
        #expect(first.difference == nil)

        try context.performAndWait {
            try Self.insert("A", 3, in: context)
            try context.save()
        }
        // The insert is reported as it happens, under its temporary ID; the
        // save then renames it.
        let inserted = try #require(try await results.next())
        #expect(inserted.sections.map(\.objectIDs.count) == [2, 1])
        #expect(inserted.objectIDs.filter(\.isTemporaryID).count == 1)
        #expect(first.objectIDs.applying(try #require(inserted.difference)) == inserted.objectIDs)
        let second = try #require(try await results.next())
        #expect(second.objectIDs.allSatisfy { !$0.isTemporaryID })
        #expect(inserted.objectIDs.applying(try #require(second.difference)) == second.objectIDs)

        let other = container.newBackgroundContext()
        try other.performAndWait {
            try Self.insert("C", 4, in: other)
            try Self.insert("C", 5, visible: false, in: other)
            try other.save()
        }
        let third = try #require(try await results.next())
        #expect(third.sections.map(\.name) == ["A", "B", "C"])
        #expect(third.objectIDs.count == 4, "the hidden item is not in the result")
        #expect(second.objectIDs.applying(try #require(third.difference)) == third.objectIDs)

        try context.performAndWait {
            _ = try context.execute(BatchDeleteRequest(entityName: "Item", predicate: try FetchPredicate(format: "group == 'A'")))
        }
        let fourth = try #require(try await results.next())
        #expect(fourth.sections.map(\.name) == ["B", "C"])
        #expect(third.objectIDs.applying(try #require(fourth.difference)) == fourth.objectIDs)
    }

    @Test("With a minimum interval, saves in quick succession arrive as one element whose difference spans them all, no sooner than the interval")
    func coalesced() async throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        // Taken before the first element goes, so the interval after it is a lower bound.
        let clock = ContinuousClock()
        let start = clock.now
        let interval = Duration.seconds(2)
        var results = context.changes(of: try FetchedResultsControllerTests.request(), minimumInterval: 2).makeAsyncIterator()
        let first = try #require(try await results.next())
        #expect(first.objectIDs.isEmpty)
        try context.performAndWait {
            for rank in 1...3 {
                try Self.insert("A", Int64(rank), in: context)
                try context.save()
            }
        }
        let savedWithinInterval = clock.now - start < interval
        let second = try #require(try await results.next())
        #expect(clock.now - start >= interval)
        #expect(first.objectIDs.applying(try #require(second.difference)) == second.objectIDs)
        // Coalescing is owed to saves made within the interval after the first
        // element. A machine too loaded to get this far in 2 s (seen when the
        // crash and fault-injection suites ran beside it) rightly delivers the
        // first save at once; then the rest must follow, an interval later.
        if savedWithinInterval {
            #expect(second.objectIDs.count == 3, "three saves within the interval, one element")
            #expect(second.difference?.insertions.count == 3)
        } else {
            var last = second
            while last.objectIDs.count < 3, let next = try await results.next() { last = next }
            #expect(last.objectIDs.count == 3)
        }
    }

    @Test("Cancelling the consuming task ends the sequence and stops its controller")
    func cancellation() async throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let before = ResultsObservation.running.load(ordering: .relaxed)
        let request = try FetchedResultsControllerTests.request()
        let consumer = Task {
            var received = 0
            for try await _ in context.changes(of: request) { received += 1 }
            return received
        }
        // The first element arrives once the controller has fetched.
        for _ in 0..<500 where ResultsObservation.running.load(ordering: .relaxed) == before {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(ResultsObservation.running.load(ordering: .relaxed) == before + 1)
        consumer.cancel()
        #expect(try await consumer.value == 1)
        for _ in 0..<500 where ResultsObservation.running.load(ordering: .relaxed) != before {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(ResultsObservation.running.load(ordering: .relaxed) == before, "the controller was stopped")
        // A save afterwards reaches no controller and nothing fails.
        try context.performAndWait {
            try Self.insert("A", 1, in: context)
            try context.save()
        }
    }

    @Test("A sectioned request without sort descriptors finishes the sequence with the controller's error")
    func refusal() async throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        var results = context.changes(of: FetchRequest(entityName: "Item"), sectionNameKeyPath: "group").makeAsyncIterator()
        await #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Item")) { _ = try await results.next() }
    }
}
