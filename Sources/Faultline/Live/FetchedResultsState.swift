import Foundation

/// A controller's results as object IDs in the fetch's order, each with its
/// sort keys and section name as they were when it was placed, and the
/// sections as runs of consecutive entries with one name.
///
/// Design note. Keeping each entry's keys lets a change be placed without
/// reading any other object: an entry is found by a binary search on its old
/// keys, a new place by one on the new keys, so a change costs O(log n)
/// comparisons and one move of the ID array's tail, not a sort — and a
/// controller over a batched fetch holds no objects at all.
struct FetchedResultsState {
    struct Section: Equatable {
        var name: String
        var start: Int
        var count: Int
    }

    let sort: InMemorySort
    private(set) var ids: [ManagedObjectID] = []
    /// Each entry's slot, beside its ID: a binary search reads keys without hashing.
    private var entrySlots: [Int32] = []
    private(set) var sections: [Section] = []
    /// Where each entry's keys and section name are kept.
    private var slots: [ManagedObjectID: Int] = [:]
    /// `sort.descriptors.count` keys per slot.
    private var slotKeys: [PredicateValue] = []
    private var slotSections: [String] = []
    private var freeSlots: [Int] = []
    private var stride: Int { sort.descriptors.count }

    init(sort: InMemorySort) { self.sort = sort }

    var count: Int { ids.count }
    func contains(_ id: ManagedObjectID) -> Bool { slots[id] != nil }

    /// The keys and section name `id` was placed with.
    func placement(of id: ManagedObjectID) -> (keys: ArraySlice<PredicateValue>, section: String)? {
        guard let slot = slots[id] else { return nil }
        return (slotKeys[slot * stride ..< (slot + 1) * stride], slotSections[slot])
    }

    // MARK: Loading

    /// Entries in the order given. When that order is not the in-memory
    /// sort's (a collation the store orders differently), the entries are
    /// sorted again, stably, so every later binary search holds.
    init(sort: InMemorySort, entries: [(id: ManagedObjectID, keys: [PredicateValue], section: String)]) {
        self.sort = sort
        var ordered = entries
        let isSorted = zip(entries, entries.dropFirst()).allSatisfy { sort.compare($0.keys[...], $1.keys[...]) != .orderedDescending }
        if !isSorted {
            ordered = entries.enumerated().sorted {
                switch sort.compare($0.element.keys[...], $1.element.keys[...]) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: $0.offset < $1.offset
                }
            }.map(\.element)
        }
        ids.reserveCapacity(ordered.count)
        slots.reserveCapacity(ordered.count)
        slotKeys.reserveCapacity(ordered.count * stride)
        for entry in ordered where slots[entry.id] == nil {
            let slot = slotSections.count
            slots[entry.id] = slot
            slotKeys += entry.keys
            slotSections.append(entry.section)
            appendToSections(entry.section)
            ids.append(entry.id)
            entrySlots.append(Int32(slot))
        }
    }

    private mutating func appendToSections(_ name: String) {
        if let last = sections.last, last.name == name {
            sections[sections.count - 1].count += 1
        } else {
            sections.append(Section(name: name, start: ids.count, count: 1))
        }
    }

    // MARK: Finding

    /// The index of `id`: a binary search on the keys it was placed with, then
    /// a walk over the entries with equal keys.
    func position(of id: ManagedObjectID) -> Int? {
        guard let slot = slots[id] else { return nil }
        var index = lowerBound(slotKeys, from: slot * stride)
        while index < ids.count {
            if ids[index] == id { return index }
            guard sort.compare(slotKeys, from: keysStart(at: index), slotKeys, from: slot * stride) == .orderedSame else { break }
            index += 1
        }
        return ids.firstIndex(of: id)
    }

    private func keysStart(at index: Int) -> Int { Int(entrySlots[index]) * stride }

    /// The first index whose keys are not less than `keys[start...]`.
    private func lowerBound(_ keys: [PredicateValue], from start: Int) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if sort.compare(slotKeys, from: keysStart(at: middle), keys, from: start) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first index whose keys are greater than `keys`: where a new entry
    /// goes, after any with equal keys.
    private func upperBound(_ keys: [PredicateValue]) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if sort.compare(slotKeys, from: keysStart(at: middle), keys, from: 0) == .orderedDescending { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The section holding entry `index`.
    func section(at index: Int) -> Int {
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].start <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func indexPath(at index: Int) -> IndexPath {
        let section = section(at: index)
        return IndexPath(item: index - sections[section].start, section: section)
    }

    // MARK: Changing

    /// Takes `id` out; returns where it was.
    @discardableResult
    mutating func remove(_ id: ManagedObjectID) -> Int? {
        guard let index = position(of: id), let slot = slots.removeValue(forKey: id) else { return nil }
        freeSlots.append(slot)
        Self.remove(at: index, from: &ids)
        Self.remove(at: index, from: &entrySlots)
        let section = section(at: index)
        sections[section].count -= 1
        for later in sections.indices where later > section { sections[later].start -= 1 }
        if sections[section].count == 0 {
            sections.remove(at: section)
            // Runs with one name meet when the entry between them leaves.
            if section > 0, section < sections.count, sections[section - 1].name == sections[section].name {
                sections[section - 1].count += sections[section].count
                sections.remove(at: section)
            }
        }
        return index
    }

    /// Places `id` by `keys`, after the entries with equal keys; returns its index.
    @discardableResult
    mutating func insert(_ id: ManagedObjectID, keys: [PredicateValue], section name: String) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slotKeys.replaceSubrange(slot * stride ..< (slot + 1) * stride, with: keys)
            slotSections[slot] = name
        } else {
            slot = slotSections.count
            slotKeys += keys
            slotSections.append(name)
        }
        slots[id] = slot
        let index = upperBound(keys)
        Self.insert(id, at: index, into: &ids)
        Self.insert(Int32(slot), at: index, into: &entrySlots)
        insertIntoSections(name, at: index)
        return index
    }

    /// Joins the run before or after `index` when it has `name`, else starts
    /// a run there, splitting one a differently named entry lands inside.
    /// The runs still describe the entries without the new one.
    private mutating func insertIntoSections(_ name: String, at index: Int) {
        let before = index > 0 ? section(at: index - 1) : nil
        let after = index < ids.count - 1 ? section(at: index) : nil
        if let before, sections[before].name == name {
            grow(before, by: 1)
        } else if let after, after != before, sections[after].name == name {
            grow(after, by: 1)
        } else if let before, before == after {
            let run = sections[before]
            let tail = Section(name: run.name, start: index + 1, count: run.start + run.count - index)
            sections[before].count = index - run.start
            for later in sections.indices where later > before { sections[later].start += 1 }
            sections.insert(contentsOf: [Section(name: name, start: index, count: 1), tail], at: before + 1)
        } else {
            let at = before.map { $0 + 1 } ?? 0
            for later in sections.indices where later >= at { sections[later].start += 1 }
            sections.insert(Section(name: name, start: index, count: 1), at: at)
        }
    }

    /// `section` holds `count` more entries; the runs after it start later.
    private mutating func grow(_ section: Int, by count: Int) {
        sections[section].count += count
        for later in sections.indices where later > section { sections[later].start += count }
    }

    // `Array.remove(at:)` and `insert(_:at:)` move the tail element by element
    // (the standard library's generic code, ~15 instructions an ID); the IDs
    // are plain words, so one memmove does it.

    private static func remove<Word: BitwiseCopyable>(at index: Int, from words: inout [Word]) {
        let count = words.count
        words.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, index + 1 < count else { return }
            memmove(base + index, base + index + 1, (count - index - 1) * MemoryLayout<Word>.stride)
        }
        words.removeLast()
    }

    private static func insert<Word: BitwiseCopyable>(_ word: Word, at index: Int, into words: inout [Word]) {
        words.append(word)
        let count = words.count
        words.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, index + 1 < count else { return }
            memmove(base + index + 1, base + index, (count - index - 1) * MemoryLayout<Word>.stride)
            base[index] = word
        }
    }

    /// Renames an entry (a saved object's temporary ID became permanent);
    /// returns its index.
    mutating func rename(_ old: ManagedObjectID, to new: ManagedObjectID) -> Int? {
        guard old != new, let index = position(of: old), let slot = slots.removeValue(forKey: old) else { return nil }
        slots[new] = slot
        ids[index] = new
        return index
    }
}
