/// A context's stored objects by ID: open addressing with linear probing,
/// at most half full, deletion by backward shift (no tombstones).
///
/// Not `Dictionary`, for two reasons measured on the fetch paths. A fetch
/// asks for every row's object and registers the missing ones: `Dictionary`
/// has no "find, else insert here", so each new object cost two probe
/// sequences; `object(for:orMake:)` costs one. And `Dictionary` fills to
/// three quarters, where the grouped ID hash (consecutive keys in
/// consecutive buckets, see `ManagedObjectID._rawHashValue`) runs into long
/// probe sequences (~135 instructions a lookup in a 10,000-row fetch); at half
/// load they stay short while keeping the locality the grouping buys.
///
/// A class, deliberately: the context owns exactly one and never copies it.
final class ObjectTable {
    private var ids: UnsafeMutablePointer<ManagedObjectID>
    /// nil marks an empty bucket.
    private var objects: UnsafeMutablePointer<ManagedObject?>
    private var mask: Int
    private(set) var count = 0
    /// Bumped by every insertion and removal, so `object(for:orMake:)` can
    /// tell whether `make` changed the table under it.
    private var generation = 0

    private static let smallestCapacity = 16

    init() {
        ids = .allocate(capacity: Self.smallestCapacity)
        objects = .allocate(capacity: Self.smallestCapacity)
        objects.initialize(repeating: nil, count: Self.smallestCapacity)
        mask = Self.smallestCapacity - 1
    }

    deinit {
        objects.deinitialize(count: mask + 1)
        objects.deallocate()
        ids.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ id: ManagedObjectID) -> Int { id._rawHashValue(seed: 0) & mask }

    /// The bucket holding `id`, or the empty bucket where it would go.
    @inline(__always)
    private func bucket(for id: ManagedObjectID) -> (index: Int, found: Bool) {
        var index = home(id)
        while let _ = objects[index] {
            if ids[index] == id { return (index, true) }
            index = (index &+ 1) & mask
        }
        return (index, false)
    }

    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            let (index, found) = bucket(for: id)
            return found ? objects[index] : nil
        }
        set {
            if let newValue { insert(newValue, for: id) } else { removeValue(for: id) }
        }
    }

    /// The object for `id`, made by `make` and inserted when absent, with one
    /// probe sequence unless `make` itself changed the table.
    @inline(__always)
    func object(for id: ManagedObjectID, orMake make: () -> ManagedObject) -> ManagedObject {
        let (index, found) = bucket(for: id)
        if found, let object = objects[index] { return object }
        let generationBefore = generation
        let object = make()
        if generation != generationBefore || (count &+ 1) &* 2 > mask &+ 1 {
            insert(object, for: id)
        } else {
            ids[index] = id
            objects[index] = object
            count &+= 1
            generation &+= 1
        }
        return object
    }

    /// Inserts or replaces.
    func insert(_ object: ManagedObject, for id: ManagedObjectID) {
        if (count &+ 1) &* 2 > mask &+ 1 { resize(to: (mask &+ 1) &* 2) }
        let (index, found) = bucket(for: id)
        ids[index] = id
        objects[index] = object
        if !found { count &+= 1 }
        generation &+= 1
    }

    @discardableResult
    func removeValue(for id: ManagedObjectID) -> ManagedObject? {
        let (found, present) = bucket(for: id)
        guard present else { return nil }
        let removed = objects[found]
        objects[found] = nil
        count &-= 1
        generation &+= 1
        // Backward shift: pull later members of the run into the hole when
        // the hole lies between their home bucket and where they sit.
        var hole = found
        var index = (found &+ 1) & mask
        while objects[index] != nil {
            let distanceToHome = (index &- home(ids[index])) & mask
            let distanceToHole = (index &- hole) & mask
            if distanceToHome >= distanceToHole {
                ids[hole] = ids[index]
                objects[hole] = objects[index].take()
                hole = index
            }
            index = (index &+ 1) & mask
        }
        return removed
    }

    func removeAll() {
        for index in 0...mask { objects[index] = nil }
        count = 0
        generation &+= 1
    }

    /// Room for `additional` more objects without growing.
    func reserve(_ additional: Int) {
        let wanted = count + additional
        var capacity = mask + 1
        while wanted * 2 > capacity { capacity *= 2 }
        if capacity > mask + 1 { resize(to: capacity) }
    }

    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for index in 0...mask { if let object = objects[index] { result.append(object) } }
        return result
    }

    private func resize(to capacity: Int) {
        let oldIDs = ids, oldObjects = objects, oldCapacity = mask + 1
        ids = .allocate(capacity: capacity)
        objects = .allocate(capacity: capacity)
        objects.initialize(repeating: nil, count: capacity)
        mask = capacity - 1
        for index in 0..<oldCapacity {
            guard let object = oldObjects[index].take() else { continue }
            let (target, _) = bucket(for: oldIDs[index])
            ids[target] = oldIDs[index]
            objects[target] = object
        }
        oldObjects.deinitialize(count: oldCapacity)
        oldObjects.deallocate()
        oldIDs.deallocate()
        generation &+= 1
    }
}
