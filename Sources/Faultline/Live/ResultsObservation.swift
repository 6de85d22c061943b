import Foundation
import Synchronization

/// One state of an observed fetch (`ManagedObjectContext.changes(of:)`): its
/// objects' IDs in order, by section, and how it differs from the state
/// before — Sendable, so it crosses to any task or actor (a view model on
/// the main actor) while the objects stay on their context's queue.
public struct ObservedResults: Sendable {
    public struct Section: Sendable, Equatable {
        /// The section key path's value as text ("" without one).
        public let name: String
        public let objectIDs: [ManagedObjectID]
    }

    public let sections: [Section]
    /// From the previous state to this one; nil for the first.
    public let difference: CollectionDifference<ManagedObjectID>?

    /// Every object ID, in the fetch's order.
    public var objectIDs: [ManagedObjectID] { sections.flatMap(\.objectIDs) }
}

extension ManagedObjectContext {
    /// The results of `request` now, then again after every change that
    /// affects them — a save of this context, a merge of another context's
    /// save, of a batch request or of another process's history — each with
    /// its difference from the one before. Kept current by a fetched-results
    /// controller on the context's queue (decided in memory, as the
    /// controller decides); cancelling the iterating task (or dropping the
    /// sequence) stops it. With a `minimumInterval`, elements come at most
    /// that often: the changes in between are coalesced into one element, its
    /// difference taken from the element before. A request without sort
    /// descriptors, or of an unknown entity, finishes the sequence with the
    /// controller's error.
    public func changes(of request: FetchRequest, sectionNameKeyPath: String? = nil, minimumInterval: TimeInterval = 0)
        -> AsyncThrowingStream<ObservedResults, any Error>
    {
        AsyncThrowingStream { continuation in
            let observation = ResultsObservation(continuation: continuation, minimumInterval: minimumInterval, queue: queue)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                Task { await self.perform { observation.stop() } }
            }
            Task {
                await self.perform { observation.start(request: request, sectionNameKeyPath: sectionNameKeyPath, in: self) }
            }
        }
    }
}

/// A controller feeding one `changes(of:)` sequence. Confined to its
/// context's queue, like the controller.
final class ResultsObservation: FetchedResultsControllerDifferenceDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<ObservedResults, any Error>.Continuation
    private var controller: FetchedResultsController?
    private var stopped = false
    /// The context's queue, where a coalesced element is delivered.
    private let queue: DispatchQueue
    private let minimumInterval: TimeInterval
    /// The IDs of the last element and when it went; whether one is due.
    private var delivered: (ids: [ManagedObjectID], at: DispatchTime) = ([], .now())
    private var deliveryScheduled = false
    /// Observations running now, in the process: what a test reads to see a
    /// cancelled one gone.
    static let running = Atomic<Int>(0)

    init(continuation: AsyncThrowingStream<ObservedResults, any Error>.Continuation, minimumInterval: TimeInterval,
         queue: DispatchQueue) {
        self.continuation = continuation
        self.minimumInterval = minimumInterval
        self.queue = queue
    }

    func start(request: FetchRequest, sectionNameKeyPath: String?, in context: ManagedObjectContext) {
        guard !stopped else { return }
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: sectionNameKeyPath)
        controller.delegate = self
        do {
            try controller.performFetch()
        } catch {
            continuation.finish(throwing: error)
            return
        }
        self.controller = controller
        Self.running.add(1, ordering: .relaxed)
        yield(results(of: controller, difference: nil))
    }

    private func yield(_ results: ObservedResults) {
        delivered = (results.objectIDs, .now())
        continuation.yield(results)
    }

    func stop() {
        stopped = true
        guard let controller else { return }
        controller.delegate = nil
        self.controller = nil
        Self.running.subtract(1, ordering: .relaxed)
    }

    func controller(_ controller: FetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        guard !stopped else { return }
        guard minimumInterval > 0 else { return yield(results(of: controller, difference: difference)) }
        guard !deliveryScheduled else { return }
        let due = delivered.at + minimumInterval
        if due <= .now() { return deliverCoalesced() }
        deliveryScheduled = true
        queue.asyncAfter(deadline: due) { [self] in
            deliveryScheduled = false
            deliverCoalesced()
        }
    }

    /// The controller's state now, with its difference from the last element.
    private func deliverCoalesced() {
        guard !stopped, let controller else { return }
        let now = results(of: controller, difference: nil)
        let ids = now.objectIDs
        yield(ObservedResults(sections: now.sections, difference: ids.difference(from: delivered.ids).inferringMoves()))
    }

    private func results(of controller: FetchedResultsController, difference: CollectionDifference<ManagedObjectID>?) -> ObservedResults {
        ObservedResults(
            sections: (controller.sections ?? []).map { ObservedResults.Section(name: $0.name, objectIDs: Array($0.objects.objectIDs)) },
            difference: difference)
    }
}
