import Foundation

/// The difference between two states of a controller's sections, as Core
/// Data reports it: sections deleted (old indexes) and inserted (new
/// indexes); objects deleted at their old index paths, inserted at their new
/// ones, moved (their order among the objects present in both states
/// changed, or their section did) and updated (changed without moving); and
/// the ordered object IDs' `CollectionDifference`. Applied in the order a
/// table view applies a batch — deletes by old index paths, then inserts by
/// new ones, a move as a delete and an insert — the old state becomes the
/// new one (`FetchedResultsControllerTests` checks exactly that).
struct FetchedResultsChanges {
    struct ObjectChange {
        let object: ManagedObject
        let type: FetchedResultsChangeType
        let old: IndexPath?
        let new: IndexPath?
    }

    private(set) var sectionChanges: [(section: FetchedResultsSection, index: Int, type: FetchedResultsChangeType)] = []
    private(set) var objectChanges: [ObjectChange] = []
    let difference: CollectionDifference<ManagedObjectID>

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    init(old: [FetchedResultsSection], new: [FetchedResultsSection], updated: Set<ObjectIdentifier>) {
        let oldNames = Set(old.map(\.name)), newNames = Set(new.map(\.name))
        for (index, section) in old.enumerated() where !newNames.contains(section.name) {
            sectionChanges.append((section, index, .delete))
        }
        for (index, section) in new.enumerated() where !oldNames.contains(section.name) {
            sectionChanges.append((section, index, .insert))
        }

        func paths(_ sections: [FetchedResultsSection]) -> [ObjectIdentifier: (path: IndexPath, section: String)] {
            var paths: [ObjectIdentifier: (path: IndexPath, section: String)] = [:]
            for (sectionIndex, section) in sections.enumerated() {
                for (item, object) in section.objects.enumerated() {
                    paths[ObjectIdentifier(object)] = (IndexPath(item: item, section: sectionIndex), section.name)
                }
            }
            return paths
        }
        let oldObjects = old.flatMap(\.objects), newObjects = new.flatMap(\.objects)
        let oldPaths = paths(old), newPaths = paths(new)
        // Objects in both states whose order among themselves changed.
        let oldSurvivors = oldObjects.map(ObjectIdentifier.init).filter { newPaths[$0] != nil }
        let newSurvivors = newObjects.map(ObjectIdentifier.init).filter { oldPaths[$0] != nil }
        var reordered = Set<ObjectIdentifier>()
        for change in newSurvivors.difference(from: oldSurvivors).inferringMoves() {
            if case .insert(_, let element, _) = change { reordered.insert(element) }
        }
        for object in oldObjects where newPaths[ObjectIdentifier(object)] == nil {
            objectChanges.append(ObjectChange(object: object, type: .delete, old: oldPaths[ObjectIdentifier(object)]?.path, new: nil))
        }
        for object in newObjects {
            let key = ObjectIdentifier(object)
            guard let now = newPaths[key] else { continue }
            guard let before = oldPaths[key] else {
                objectChanges.append(ObjectChange(object: object, type: .insert, old: nil, new: now.path))
                continue
            }
            if reordered.contains(key) || before.section != now.section {
                objectChanges.append(ObjectChange(object: object, type: .move, old: before.path, new: now.path))
            } else if updated.contains(key) {
                objectChanges.append(ObjectChange(object: object, type: .update, old: before.path, new: now.path))
            }
        }
        difference = newObjects.map(\.objectID).difference(from: oldObjects.map(\.objectID)).inferringMoves()
    }

    func report(to delegate: FetchedResultsControllerDelegate, from controller: FetchedResultsController) {
        delegate.controllerWillChangeContent(controller)
        for change in sectionChanges {
            delegate.controller(controller, didChange: change.section, atSectionIndex: change.index, for: change.type)
        }
        for change in objectChanges {
            delegate.controller(controller, didChange: change.object, at: change.old, for: change.type, newIndexPath: change.new)
        }
        delegate.controllerDidChangeContent(controller)
        delegate.controller(controller, didChangeContentWith: difference)
    }
}
