import FaultlineSupport
import Synchronization

/// The query generation a context reads: its own pin, else its parent's — a
/// child reads through its parent, so it sees the store as the parent does —
/// and the children that follow it. Set from the context's queue (its pins)
/// and from its parent's (what it inherits); read by faults on every fire.
final class ReadGeneration: Sendable {
    private struct State {
        var own: PinnedReader?
        var inherited: PinnedReader?
        var children: [WeakContext] = []
        var effective: PinnedReader? { own ?? inherited }
    }

    private struct WeakContext {
        weak var context: ManagedObjectContext?
    }

    private let state = Locked(State())
    /// Whether reads go to a pinned generation: faults then skip the row
    /// cache, whose rows may be newer.
    let isPinned = Atomic<Bool>(false)

    /// The context's own pin, not one it inherits.
    var own: PinnedReader? { state.withLock { $0.own } }

    /// What the context reads, and what its children inherit.
    var effective: PinnedReader? { state.withLock { $0.effective } }

    /// Pins (or, with nil, unpins) the context itself; returns what it reads
    /// now and the children to pass it to.
    func pin(_ reader: PinnedReader?) -> (effective: PinnedReader?, children: [ManagedObjectContext]) {
        state.withLock { state in
            state.own = reader
            return (state.effective, Self.live(&state.children))
        }
    }

    /// The parent's generation; nil when the context's own pin hides it (nothing changes).
    func inherit(_ reader: PinnedReader?) -> (effective: PinnedReader?, children: [ManagedObjectContext])? {
        state.withLock { state in
            state.inherited = reader
            guard state.own == nil else { return nil }
            return (state.effective, Self.live(&state.children))
        }
    }

    /// Registers a new child; returns what it inherits.
    func adopt(_ child: ManagedObjectContext) -> PinnedReader? {
        state.withLock { state in
            // A parent that makes a child per request and never repins would
            // otherwise keep every dead child's entry.
            state.children.removeAll { $0.context == nil }
            state.children.append(WeakContext(context: child))
            return state.effective
        }
    }

    /// Entries kept, dead children's included.
    var entryCount: Int { state.withLock { $0.children.count } }

    private static func live(_ children: inout [WeakContext]) -> [ManagedObjectContext] {
        children.removeAll { $0.context == nil }
        return children.compactMap(\.context)
    }
}
