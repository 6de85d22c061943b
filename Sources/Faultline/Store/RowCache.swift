import Dispatch

/// Snapshots of rows keyed by object ID, shared by every context of a
/// coordinator: a fault fired in one context after another read the row costs
/// no SQL.
///
/// Bounded, with CLOCK (second-chance) replacement: a hit marks its slot; the
/// hand evicts the first unmarked slot it meets, clearing marks on the way.
/// Dropping an entity's rows bumps the entity's generation instead of walking
/// the table: a row stored under an older generation is stale, and goes when
/// it is next asked for or evicted. Thread-safe behind one lock; every
/// operation is O(1) amortised.
public final class RowCache: Sendable {
    /// Hit, miss and eviction counts since creation or `resetCounters()`.
    public struct Counters: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
    }

    private struct Slot {
        var id: ManagedObjectID
        var referenced: Bool
    }

    private struct Entry {
        var slot: Int
        /// Its entity's generation when stored.
        var generation: Int
        var snapshot: RowSnapshot
        /// When the row was read (monotonic nanoseconds), for staleness intervals.
        var readAt: UInt64
    }

    private struct State {
        let entries = ObjectIDTable<Entry>()
        var slots: [Slot] = []
        var hand = 0
        var free: [Int] = []
        var counters = Counters()
        /// By entity index; an entity never invalidated is at generation 0.
        var generations: [Int] = []

        func generation(of entityIndex: Int) -> Int {
            entityIndex >= 0 && entityIndex < generations.count ? generations[entityIndex] : 0
        }
    }

    /// The clock rows are stamped with and their age measured by (monotonic
    /// nanoseconds): a read takes it before its statement runs, so a row
    /// never looks younger than it is.
    @usableFromInline static var clock: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The most rows held.
    public let capacity: Int
    private let state = Locked(State())

    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The snapshot of `id` if cached and, when `maximumAge` is given, read no
    /// longer than that many seconds ago. Counts a hit or a miss.
    public func snapshot(for id: ManagedObjectID, maximumAge: Double? = nil) -> RowSnapshot? {
        let now = maximumAge == nil ? 0 : Self.clock
        return state.withLock { state in
            guard let entry = state.entries[id] else {
                state.counters.misses += 1
                return nil
            }
            guard entry.generation == state.generation(of: id.entityIndex) else {
                Self.remove(id, from: &state)
                state.counters.misses += 1
                return nil
            }
            guard maximumAge.map({ Double(now &- entry.readAt) / 1e9 <= $0 }) ?? true else {
                state.counters.misses += 1
                return nil
            }
            state.counters.hits += 1
            state.slots[entry.slot].referenced = true
            return entry.snapshot
        }
    }

    /// Stores (or replaces) snapshots read at `readAt` (`clock`'s reading; a
    /// statement's rows share the one taken before it ran).
    public func store<Snapshots: Sequence>(_ snapshots: Snapshots, readAt: UInt64 = RowCache.clock)
    where Snapshots.Element == (ManagedObjectID, RowSnapshot) {
        state.withLock { state in
            Self.makeRoom(for: snapshots.underestimatedCount, in: &state, capacity: capacity)
            for (id, snapshot) in snapshots { Self.insert(id, snapshot, readAt: readAt, into: &state, capacity: capacity) }
        }
    }

    /// `store(_:)` for a save's rows, read in place by position: iterated,
    /// or mapped to pairs, each row was copied whole before its snapshot was.
    func store(_ rows: [KeyedSnapshot], readAt: UInt64) {
        state.withLock { state in
            Self.makeRoom(for: rows.count, in: &state, capacity: capacity)
            for index in rows.indices {
                Self.insert(rows[index].id, rows[index].snapshot, readAt: readAt, into: &state, capacity: capacity)
            }
        }
    }

    /// Grows once for a whole batch rather than rehashing as it fills.
    private static func makeRoom(for count: Int, in state: inout State, capacity: Int) {
        let wanted = min(capacity, state.entries.count + count)
        state.entries.reserve(wanted - state.entries.count)
        growSlots(of: &state, toHold: wanted, capacity: capacity)
    }

    /// Stores (or replaces) one snapshot — a fault fired alone — without
    /// the sequence the batch form iterates and copies its pairs through.
    public func store(
        _ id: ManagedObjectID, _ snapshot: consuming RowSnapshot, readAt: UInt64 = RowCache.clock
    ) {
        // Moved in through an optional the closure borrows: captured by value,
        // the snapshot was copied into the closure and again into the table.
        var moving: RowSnapshot? = consume snapshot
        state.withLock { state in
            guard let snapshot = moving.take() else { return }
            Self.growSlots(of: &state, toHold: min(capacity, state.entries.count + 1), capacity: capacity)
            Self.insert(id, snapshot, readAt: readAt, into: &state, capacity: capacity)
        }
    }

    /// Doubling: `reserveCapacity` grows to exactly what it is asked, so
    /// reserving one more slot per one-row store (a fault fired alone, a
    /// save of one object) copied every slot each time.
    private static func growSlots(of state: inout State, toHold wanted: Int, capacity: Int) {
        guard wanted > state.slots.capacity else { return }
        state.slots.reserveCapacity(min(capacity, max(wanted, state.slots.capacity * 2)))
    }

    /// Drops the snapshots of `ids` (rows a save or batch request changed).
    public func invalidate<S: Sequence>(_ ids: S) where S.Element == ManagedObjectID {
        state.withLock { state in
            for id in ids { Self.remove(id, from: &state) }
        }
    }

    /// Drops every snapshot of the given entities (rows triggers may have changed).
    public func invalidate(entities: Set<Int>) {
        guard !entities.isEmpty else { return }
        state.withLock { state in
            for entity in entities where entity >= 0 {
                if entity >= state.generations.count {
                    state.generations += Array(repeating: 0, count: entity + 1 - state.generations.count)
                }
                state.generations[entity] &+= 1
            }
        }
    }

    public func removeAll() {
        // The tables keep their storage: a cache refills to about the size
        // it had, and freeing and regrowing megabytes each time leaves the
        // allocator extents it cannot split for the small objects that follow.
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.slots.removeAll(keepingCapacity: true)
            state.free.removeAll(keepingCapacity: true)
            state.hand = 0
        }
    }

    /// Rows held and current (stale ones not yet dropped are left out).
    public var count: Int {
        state.withLock { state in
            state.entries.allValues.count { $0.generation == state.generation(of: $0.snapshot.entityIndex) }
        }
    }
    public var counters: Counters { state.withLock { $0.counters } }
    public func resetCounters() { state.withLock { $0.counters = Counters() } }

    // `consuming`: the caller's copy moves into the table. Borrowed, it was
    // copied once more through an outlined copy that the optimiser had merged
    // with others and that called the runtime's generic tuple witness.
    private static func insert(
        _ id: ManagedObjectID, _ snapshot: consuming RowSnapshot, readAt: UInt64, into state: inout State, capacity: Int
    ) {
        // One probe finds the row or the bucket a new one goes in.
        let bucket = state.entries.bucket(for: id)
        let generation = state.generation(of: id.entityIndex)
        if bucket.found {
            let slot = state.entries.withValue(at: bucket) { $0.slot }
            state.entries.store(Entry(slot: slot, generation: generation, snapshot: snapshot, readAt: readAt), at: bucket, for: id)
            state.slots[slot].referenced = true
            return
        }
        if let slot = state.free.popLast() {
            state.slots[slot] = Slot(id: id, referenced: false)
            state.entries.store(Entry(slot: slot, generation: generation, snapshot: snapshot, readAt: readAt), at: bucket, for: id)
        } else if state.slots.count < capacity {
            state.entries.store(Entry(slot: state.slots.count, generation: generation, snapshot: snapshot, readAt: readAt), at: bucket, for: id)
            state.slots.append(Slot(id: id, referenced: false))
        } else {
            // Evicting moves other rows in the table: the bucket is stale.
            let slot = evictOne(from: &state)
            state.slots[slot] = Slot(id: id, referenced: false)
            state.entries[id] = Entry(slot: slot, generation: generation, snapshot: snapshot, readAt: readAt)
        }
    }

    /// Advances the hand to an unreferenced live slot, evicts its row and returns it.
    private static func evictOne(from state: inout State) -> Int {
        while true {
            let slot = state.hand
            state.hand = (state.hand + 1) % state.slots.count
            if state.slots[slot].referenced {
                state.slots[slot].referenced = false
                continue
            }
            state.entries[state.slots[slot].id] = nil
            state.counters.evictions += 1
            return slot
        }
    }

    private static func remove(_ id: ManagedObjectID, from state: inout State) {
        guard let entry = state.entries.removeValue(for: id) else { return }
        state.free.append(entry.slot)
    }
}
