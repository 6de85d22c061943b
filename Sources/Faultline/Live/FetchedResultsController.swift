import Foundation

/// Why a controller refused a request.
public enum FetchedResultsError: Error, Equatable, CustomStringConvertible {
    /// Core Data requires a sort: results without an order cannot be diffed.
    case missingSortDescriptors(entity: String)
    case unknownEntity(String)
    /// `object(at:)` past the sections or a section's objects.
    case indexPathOutOfRange(section: Int, item: Int)

    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            "a fetched-results controller needs sort descriptors (fetch of \(entity) has none)"
        case .unknownEntity(let name): "unknown entity \(name)"
        case .indexPathOutOfRange(let section, let item): "no object at section \(section), item \(item)"
        }
    }
}

/// Core Data's `NSFetchedResultsController`: the results of a sorted fetch,
/// in sections, kept current as its context saves and merges other saves,
/// with a delegate told what changed.
///
/// Design note. A change arrives as the objects a save or a merge inserted,
/// updated and deleted; the controller decides in memory, with the predicate
/// evaluator and the fetch's in-memory sort (the ones `includesPendingChanges`
/// uses), which of them belong to the results and where — no fetch runs
/// again. Reading an updated object's values may fire its fault (a merge
/// turns another save's updates into faults); nothing else reads the store.
/// Unsaved changes of the context itself are seen when it saves (Core Data
/// also reports them as they happen; not yet here). Confined, like its
/// context, to the context's queue: create it, fetch and read it there.
public final class FetchedResultsController: @unchecked Sendable {
    public let fetchRequest: FetchRequest
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names an object's section; sort by it first,
    /// so each section's objects are contiguous.
    public let sectionNameKeyPath: String?
    public weak var delegate: FetchedResultsControllerDelegate?
    public private(set) var fetchedObjects: [ManagedObject]?
    public private(set) var sections: [FetchedResultsSection]?
    /// Entity indexes whose objects the fetch returns.
    private var hierarchy: Set<Int> = []
    private var observers: [NSObjectProtocol] = []

    public init(fetchRequest: FetchRequest, managedObjectContext: ManagedObjectContext, sectionNameKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    deinit { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

    /// Runs the fetch and starts following the context's saves and merges.
    public func performFetch() throws {
        guard let entity = managedObjectContext.coordinator.model.entity(named: fetchRequest.entityName) else {
            throw FetchedResultsError.unknownEntity(fetchRequest.entityName)
        }
        guard !fetchRequest.sortDescriptors.isEmpty else {
            throw FetchedResultsError.missingSortDescriptors(entity: fetchRequest.entityName)
        }
        hierarchy = Set(fetchRequest.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        let objects = try managedObjectContext.fetch(fetchRequest)
        fetchedObjects = objects
        sections = sectioned(objects)
        if observers.isEmpty { observe() }
    }

    public func object(at indexPath: IndexPath) throws -> ManagedObject {
        let section = indexPath.section, item = indexPath.item
        guard let sections, sections.indices.contains(section), sections[section].objects.indices.contains(item) else {
            throw FetchedResultsError.indexPathOutOfRange(section: section, item: item)
        }
        return sections[section].objects[item]
    }

    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        guard let sections else { return nil }
        for (sectionIndex, section) in sections.enumerated() {
            if let item = section.objects.firstIndex(where: { $0 === object }) { return IndexPath(item: item, section: sectionIndex) }
        }
        return nil
    }

    // MARK: Following changes

    private func observe() {
        let center = NotificationCenter.default
        observers.append(center.addObserver(forName: .managedObjectContextDidSave, object: managedObjectContext, queue: nil) {
            [weak self] note in
            guard let self, let saved = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave else { return }
            let context = self.managedObjectContext
            let changed = (saved.insertedObjectIDs.union(saved.updatedObjectIDs)).compactMap { context.registeredObject(for: $0) }
            self.apply(changed: changed, deletedIDs: saved.deletedObjectIDs)
        })
        observers.append(center.addObserver(forName: .managedObjectContextObjectsDidChange, object: managedObjectContext, queue: nil) {
            [weak self] note in
            guard let self, let merged = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange else { return }
            let context = self.managedObjectContext
            var changed = Array(merged.updatedObjects)
            changed += merged.insertedObjectIDs.compactMap { try? context.object(with: $0) }
            self.apply(changed: changed, deletedIDs: Set(merged.deletedObjects.map(\.objectID)))
        })
    }

    /// The results after `changed` objects (inserted or updated) and the
    /// deletion of `deletedIDs`, decided in memory; the delegate is told
    /// the difference. A predicate or sort key that cannot be read leaves the
    /// results as they were.
    func apply(changed: [ManagedObject], deletedIDs: Set<ManagedObjectID>) {
        guard let old = fetchedObjects, let oldSections = sections else { return }
        var next = old.filter { !$0.isDeleted && $0.managedObjectContext != nil && !deletedIDs.contains($0.objectID) }
        var present = Set(next.map(ObjectIdentifier.init))
        var updated = Set<ObjectIdentifier>()
        do {
            for object in changed where hierarchy.contains(object.entityIndex) && !object.isDeleted {
                let matches = try fetchRequest.predicate?.evaluate(with: object) ?? true
                if matches {
                    if present.insert(ObjectIdentifier(object)).inserted { next.append(object) } else { updated.insert(ObjectIdentifier(object)) }
                } else if present.remove(ObjectIdentifier(object)) != nil {
                    next.removeAll { $0 === object }
                }
            }
            next = try managedObjectContext.sorted(next, by: fetchRequest.sortDescriptors)
        } catch {
            return
        }
        if fetchRequest.fetchLimit > 0, next.count > fetchRequest.fetchLimit { next = Array(next.prefix(fetchRequest.fetchLimit)) }
        let nextSections = sectioned(next)
        let changes = FetchedResultsChanges(old: oldSections, new: nextSections, updated: updated)
        fetchedObjects = next
        sections = nextSections
        guard !changes.isEmpty, let delegate else { return }
        changes.report(to: delegate, from: self)
    }

    private func sectioned(_ objects: [ManagedObject]) -> [FetchedResultsSection] {
        guard let sectionNameKeyPath else { return [FetchedResultsSection(name: "", objects: objects)] }
        var result: [FetchedResultsSection] = []
        var name: String?
        var members: [ManagedObject] = []
        for object in objects {
            let current = Self.sectionName(of: object, at: sectionNameKeyPath)
            if current != name, let name {
                result.append(FetchedResultsSection(name: name, objects: members))
                members = []
            }
            name = current
            members.append(object)
        }
        if let name { result.append(FetchedResultsSection(name: name, objects: members)) }
        return result
    }

    static func sectionName(of object: ManagedObject, at keyPath: String) -> String {
        var value: Any? = object
        for key in keyPath.split(separator: ".") { value = (value as? ManagedObject)?.value(forKey: String(key)) }
        switch value {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let some?: return String(describing: some)
        }
    }
}
