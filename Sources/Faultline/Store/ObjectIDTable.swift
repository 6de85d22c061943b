/// A table keyed by object ID: open addressing with linear probing, at most
/// half full, deletion by backward shift (no tombstones). A context's
/// registry and the row cache are both one.
///
/// Not `Dictionary`, for two reasons measured on the fetch paths. A fetch
/// asks for every row's object and registers the missing ones, and caches
/// every row, replacing what it held: `Dictionary` has no "find, else insert
/// here", so each new key cost two probe sequences where a `Bucket` costs one.
/// And `Dictionary` fills to three quarters, where the grouped ID hash
/// (consecutive keys in consecutive buckets, see
/// `ManagedObjectID._rawHashValue`) runs into long probe sequences (~135
/// instructions a lookup in a 10,000-row fetch); at half load they stay short
/// while keeping the locality the grouping buys.
///
/// A class, deliberately: each owner holds exactly one and never copies it.
final class ObjectIDTable<Value> {
    private var ids: UnsafeMutablePointer<ManagedObjectID>
    /// nil marks an empty bucket.
    private var values: UnsafeMutablePointer<Value?>
    private var mask: Int
    private(set) var count = 0
    /// Bumped by every insertion, removal and growth: a `Bucket` is valid
    /// only in the generation it was found in.
    private var generation = 0

    private static var smallestCapacity: Int { 16 }

    /// Where a key is, or where it would go.
    struct Bucket {
        fileprivate let index: Int
        let found: Bool
        fileprivate let generation: Int
    }

    private typealias Buckets = (ids: UnsafeMutablePointer<ManagedObjectID>, values: UnsafeMutablePointer<Value?>, capacity: Int)

    init() {
        (ids, values, _) = Self.emptyBuckets(Self.smallestCapacity)
        mask = Self.smallestCapacity - 1
    }

    deinit { Self.release((ids, values, mask + 1)) }

    private static func emptyBuckets(_ capacity: Int) -> Buckets {
        let values = UnsafeMutablePointer<Value?>.allocate(capacity: capacity)
        values.initialize(repeating: nil, count: capacity)
        return (.allocate(capacity: capacity), values, capacity)
    }

    private static func release(_ buckets: Buckets) {
        buckets.values.deinitialize(count: buckets.capacity)
        buckets.values.deallocate()
        buckets.ids.deallocate()
    }

    /// Puts `capacity` empty buckets in place of the table's, which it
    /// returns (for rehashing, then `release`).
    private func replaceBuckets(capacity: Int) -> Buckets {
        let old: Buckets = (ids, values, mask + 1)
        (ids, values, _) = Self.emptyBuckets(capacity)
        mask = capacity - 1
        generation &+= 1
        return old
    }

    /// Puts `value` in an empty bucket. Assigning would first destroy the
    /// bucket's nil, which for a value type holding references (the row
    /// cache's entries) goes through an outlined generic destroy, on every
    /// insert and on every entry a growth moves.
    @inline(__always)
    private func fill(_ index: Int, with value: consuming Value) {
        (values + index).initialize(to: value)
    }

    var isEmpty: Bool { count == 0 }
    /// Buckets allocated.
    var capacity: Int { mask + 1 }

    @inline(__always)
    private func home(_ id: ManagedObjectID) -> Int { id._rawHashValue(seed: 0) & mask }

    @inline(__always)
    private func probe(_ id: ManagedObjectID) -> (index: Int, found: Bool) {
        var index = home(id)
        while values[index] != nil {
            if ids[index] == id { return (index, true) }
            index = (index &+ 1) & mask
        }
        return (index, false)
    }

    /// The bucket of `id`; when it is absent, the table first makes room for
    /// inserting it there.
    @inline(__always)
    func bucket(for id: ManagedObjectID) -> Bucket {
        if (count &+ 1) &* 2 > mask &+ 1 { resize(to: (mask &+ 1) &* 2) }
        let (index, found) = probe(id)
        return Bucket(index: index, found: found, generation: generation)
    }

    /// The value in a found bucket (nil for an empty one).
    @inline(__always)
    func value(at bucket: Bucket) -> Value? {
        precondition(bucket.generation == generation, "stale bucket")
        return values[bucket.index]
    }

    /// Reads (or changes) the value of a found bucket in place: `value(at:)`
    /// copies it out, retaining everything it holds, for a caller that wants
    /// one field.
    @inline(__always)
    func withValue<Result>(at bucket: Bucket, _ body: (inout Value) -> Result) -> Result {
        precondition(bucket.generation == generation && bucket.found, "stale or empty bucket")
        return body(&values[bucket.index]!)
    }

    /// Stores `value` in `bucket`: replaces a found key's value, or inserts
    /// `id` in an empty bucket.
    @inline(__always)
    func store(_ value: consuming Value, at bucket: Bucket, for id: ManagedObjectID) {
        precondition(bucket.generation == generation, "stale bucket")
        guard !bucket.found else {
            values[bucket.index] = value
            return
        }
        fill(bucket.index, with: value)
        ids[bucket.index] = id
        count &+= 1
        generation &+= 1
    }

    subscript(id: ManagedObjectID) -> Value? {
        get {
            let (index, found) = probe(id)
            return found ? values[index] : nil
        }
        set {
            // Moved out of `newValue`: binding it with `if let` copied the
            // value, a retain and a release per store.
            var newValue = newValue
            if let value = newValue.take() { store(value, at: bucket(for: id), for: id) } else { removeValue(for: id) }
        }
    }

    /// The value for `id`, made by `make` and inserted when absent, with one
    /// probe sequence unless `make` itself changed the table.
    @inline(__always)
    func value(for id: ManagedObjectID, orMake make: () -> Value) -> Value {
        let found = bucket(for: id)
        if let value = value(at: found) { return value }
        let made = make()
        store(made, at: found.generation == generation ? found : bucket(for: id), for: id)
        return made
    }

    @discardableResult
    func removeValue(for id: ManagedObjectID) -> Value? {
        let (found, present) = probe(id)
        guard present else { return nil }
        return remove(at: found)
    }

    private func remove(at found: Int) -> Value? {
        let removed = values[found].take()
        count &-= 1
        generation &+= 1
        // Backward shift: pull later members of the run into the hole when
        // the hole lies between their home bucket and where they sit.
        var hole = found
        var index = (found &+ 1) & mask
        while values[index] != nil {
            let distanceToHome = (index &- home(ids[index])) & mask
            let distanceToHole = (index &- hole) & mask
            // The loop stops at the first empty bucket: this one holds a value.
            if distanceToHome >= distanceToHole, let moved = values[index].take() {
                ids[hole] = ids[index]
                fill(hole, with: moved)
                hole = index
            }
            index = (index &+ 1) & mask
        }
        return removed
    }

    /// Empties the table. Keeping its storage suits a table that refills to
    /// its old size (the row cache) and needs values whose release cannot
    /// reach back into the table; otherwise the table shrinks to its smallest
    /// and the values are released only once it is empty.
    func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            for index in 0...mask { values[index] = nil }
            count = 0
            generation &+= 1
            return
        }
        let old = replaceBuckets(capacity: Self.smallestCapacity)
        count = 0
        Self.release(old)
    }

    /// Room for `additional` more keys without growing.
    func reserve(_ additional: Int) {
        let wanted = count + additional
        var capacity = mask + 1
        while wanted * 2 > capacity { capacity *= 2 }
        if capacity > mask + 1 { resize(to: capacity) }
    }

    var allValues: [Value] {
        var result: [Value] = []
        result.reserveCapacity(count)
        for index in 0...mask { if let value = values[index] { result.append(value) } }
        return result
    }

    private func resize(to capacity: Int) {
        let old = replaceBuckets(capacity: capacity)
        for index in 0..<old.capacity {
            guard let value = old.values[index].take() else { continue }
            let (target, _) = probe(old.ids[index])
            ids[target] = old.ids[index]
            fill(target, with: value)
        }
        // Every old value was taken, so the old buckets hold only nils:
        // deinitializing them would walk them through the generic value
        // witness for nothing (~140 instructions an insert while a registry grows).
        old.values.deallocate()
        old.ids.deallocate()
    }
}
