import Foundation

/// The difference between two states of a controller's results, as Core
/// Data reports it: sections deleted (old indexes) and inserted (new
/// indexes); objects deleted at their old index paths, inserted at their new
/// ones, moved (their order among the objects present in both states
/// changed, or their section did) and updated (changed without moving); and,
/// built only when asked for, the ordered object IDs' `CollectionDifference`
/// (the standard library builds one in generic code that costs more than the
/// rest of a change together). Applied in the order a
/// table view applies a batch — deletes by old index paths, then inserts by
/// new ones, a move as a delete and an insert — the old state becomes the
/// new one (`FetchedResultsControllerTests` checks exactly that).
struct FetchedResultsChanges {
    struct ObjectChange {
        let id: ManagedObjectID
        let type: FetchedResultsChangeType
        let old: IndexPath?
        let new: IndexPath?
    }

    /// An entry's flat index and index path in one state.
    struct Place {
        let index: Int
        let path: IndexPath
    }

    private(set) var sectionChanges: [(name: String, index: Int, type: FetchedResultsChangeType)] = []
    private(set) var objectChanges: [ObjectChange] = []
    /// What the difference is built from: each step, or the two orders.
    private enum DifferenceSource {
        case steps([CollectionDifference<ManagedObjectID>.Change])
        case orders(old: [ManagedObjectID], new: [ManagedObjectID])
    }
    private var differenceSource = DifferenceSource.steps([])

    var difference: CollectionDifference<ManagedObjectID> {
        switch differenceSource {
        case .steps(let steps): CollectionDifference(steps) ?? CollectionDifference([])!
        case .orders(let old, let new): new.difference(from: old).inferringMoves()
        }
    }

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    private init() {}

    private mutating func compareSections(_ old: [FetchedResultsState.Section], _ new: [FetchedResultsState.Section]) {
        let oldNames = Set(old.map(\.name)), newNames = Set(new.map(\.name))
        for (index, section) in old.enumerated() where !newNames.contains(section.name) {
            sectionChanges.append((section.name, index, .delete))
        }
        for (index, section) in new.enumerated() where !oldNames.contains(section.name) {
            sectionChanges.append((section.name, index, .insert))
        }
    }

    /// From what one change did, entry by entry: `removed` were present and
    /// are not; `inserted` are new; `replaced` were present and were placed
    /// again by new keys or section; `kept` changed without new keys. Only
    /// replaced objects can move: one moved when its place among the entries
    /// nothing touched changed, or its section's name did, or another
    /// replaced one sits at the same place (their order may have swapped).
    init(removed: [(ManagedObjectID, Place)], inserted: [(ManagedObjectID, Place)],
         replaced: [(id: ManagedObjectID, old: Place, new: Place, sectionChanged: Bool)],
         kept: [(ManagedObjectID, Place, Place)],
         oldSections: [FetchedResultsState.Section], newSections: [FetchedResultsState.Section]) {
        compareSections(oldSections, newSections)
        let oldTouched = (removed.map(\.1.index) + replaced.map(\.old.index)).sorted()
        let newTouched = (inserted.map(\.1.index) + replaced.map(\.new.index)).sorted()
        func rank(_ index: Int, among touched: [Int]) -> Int { index - Self.countBelow(index, in: touched) }
        let ranks = replaced.map { (rank($0.old.index, among: oldTouched), rank($0.new.index, among: newTouched)) }
        var oldRankUses: [Int: Int] = [:]
        for (old, _) in ranks { oldRankUses[old, default: 0] += 1 }

        var updates: [ObjectChange] = kept.map { ObjectChange(id: $0.0, type: .update, old: $0.1.path, new: $0.2.path) }
        var moves: [(ManagedObjectID, Place, Place)] = []
        for (entry, rank) in zip(replaced, ranks) {
            if rank.0 == rank.1, !entry.sectionChanged, oldRankUses[rank.0] == 1 {
                updates.append(ObjectChange(id: entry.id, type: .update, old: entry.old.path, new: entry.new.path))
            } else {
                moves.append((entry.id, entry.old, entry.new))
            }
        }
        for (id, old) in removed.sorted(by: { $0.1.index < $1.1.index }) {
            objectChanges.append(ObjectChange(id: id, type: .delete, old: old.path, new: nil))
        }
        var later: [(Int, ObjectChange)] = inserted.map { ($0.1.index, ObjectChange(id: $0.0, type: .insert, old: nil, new: $0.1.path)) }
        later += moves.map { ($0.2.index, ObjectChange(id: $0.0, type: .move, old: $0.1.path, new: $0.2.path)) }
        later += updates.map { change in (Self.flatIndex(change.new, newSections), change) }
        objectChanges += later.sorted { $0.0 < $1.0 }.map(\.1)

        var steps: [CollectionDifference<ManagedObjectID>.Change] = []
        for (id, old) in removed { steps.append(.remove(offset: old.index, element: id, associatedWith: nil)) }
        for (id, new) in inserted { steps.append(.insert(offset: new.index, element: id, associatedWith: nil)) }
        for (id, old, new) in moves {
            steps.append(.remove(offset: old.index, element: id, associatedWith: new.index))
            steps.append(.insert(offset: new.index, element: id, associatedWith: old.index))
        }
        differenceSource = .steps(steps)
    }

    /// From two whole states (after a re-query): every entry compared by ID;
    /// `updated` are the changed objects present in both.
    init(old: FetchedResultsState, new: FetchedResultsState, updated: Set<ManagedObjectID>) {
        compareSections(old.sections, new.sections)
        func places(_ state: FetchedResultsState) -> [ManagedObjectID: Place] {
            var places: [ManagedObjectID: Place] = [:]
            places.reserveCapacity(state.count)
            for (sectionIndex, section) in state.sections.enumerated() {
                for item in 0 ..< section.count {
                    let index = section.start + item
                    places[state.ids[index]] = Place(index: index, path: IndexPath(item: item, section: sectionIndex))
                }
            }
            return places
        }
        let oldPlaces = places(old), newPlaces = places(new)
        func sectionName(_ place: Place, _ state: FetchedResultsState) -> String { state.sections[place.path.section].name }
        let oldSurvivors = old.ids.filter { newPlaces[$0] != nil }
        let newSurvivors = new.ids.filter { oldPlaces[$0] != nil }
        var reordered = Set<ManagedObjectID>()
        for change in newSurvivors.difference(from: oldSurvivors).inferringMoves() {
            if case .insert(_, let element, _) = change { reordered.insert(element) }
        }
        for id in old.ids where newPlaces[id] == nil {
            objectChanges.append(ObjectChange(id: id, type: .delete, old: oldPlaces[id]?.path, new: nil))
        }
        for id in new.ids {
            guard let now = newPlaces[id] else { continue }
            guard let before = oldPlaces[id] else {
                objectChanges.append(ObjectChange(id: id, type: .insert, old: nil, new: now.path))
                continue
            }
            if reordered.contains(id) || sectionName(before, old) != sectionName(now, new) {
                objectChanges.append(ObjectChange(id: id, type: .move, old: before.path, new: now.path))
            } else if updated.contains(id) {
                objectChanges.append(ObjectChange(id: id, type: .update, old: before.path, new: now.path))
            }
        }
        differenceSource = .orders(old: old.ids, new: new.ids)
    }

    /// How many of the ascending `indexes` are below `index`.
    private static func countBelow(_ index: Int, in indexes: [Int]) -> Int {
        var low = 0, high = indexes.count
        while low < high {
            let middle = (low + high) / 2
            if indexes[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func flatIndex(_ path: IndexPath?, _ sections: [FetchedResultsState.Section]) -> Int {
        guard let path, sections.indices.contains(path.section) else { return 0 }
        return sections[path.section].start + path.item
    }

    /// The same changes without the updates (a save reporting what the
    /// context's own changes already reported).
    func withoutUpdates() -> FetchedResultsChanges {
        var copy = self
        copy.objectChanges.removeAll { $0.type == .update }
        return copy
    }

    func report(to delegate: FetchedResultsControllerDelegate, from controller: FetchedResultsController,
                objects: (ManagedObjectID) -> ManagedObject) {
        if let delegate = delegate as? FetchedResultsControllerDifferenceDelegate {
            return delegate.controller(controller, didChangeContentWith: difference)
        }
        delegate.controllerWillChangeContent(controller)
        for change in sectionChanges {
            delegate.controller(controller, didChange: controller.section(named: change.name, at: change.index, type: change.type),
                                atSectionIndex: change.index, for: change.type)
        }
        for change in objectChanges {
            delegate.controller(controller, didChange: objects(change.id), at: change.old, for: change.type, newIndexPath: change.new)
        }
        delegate.controllerDidChangeContent(controller)
    }
}

extension FetchedResultsChanges {
    /// The same changes without section changes (a controller without a
    /// section key path has one section, always there).
    func withoutSectionChanges() -> FetchedResultsChanges {
        var copy = self
        copy.sectionChanges = []
        return copy
    }
}
