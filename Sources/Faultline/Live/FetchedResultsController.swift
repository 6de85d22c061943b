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
            "a fetched-results controller with sections needs sort descriptors (fetch of \(entity) has none)"
        case .unknownEntity(let name): "unknown entity \(name)"
        case .indexPathOutOfRange(let section, let item): "no object at section \(section), item \(item)"
        }
    }
}

/// Core Data's `NSFetchedResultsController`: the results of a sorted fetch,
/// in sections, kept current as its context changes, saves and merges other
/// saves, with a delegate told what changed.
///
/// Design note. The controller holds its results as IDs with each one's sort
/// keys and section name (`FetchedResultsState`); objects are made when read,
/// so with a `fetchBatchSize` it holds no objects and its first fetch reads
/// only keys. A change arrives as the objects inserted, updated and deleted —
/// the context's own as they happen (at each `processPendingChanges()`), its
/// saves, merges of other contexts' saves, of batch requests and of other
/// processes' history, and its refreshes (as updated objects, Core Data's
/// `NSRefreshedObjectsKey`). Each changed object is decided in memory: the
/// predicate evaluator says whether it belongs, a binary search on the kept
/// keys where; no statement runs (reading a merged object's new values fires
/// its fault, from the row cache the other save filled). Only what memory
/// cannot decide goes to the store, and then narrowly: a predicate through a
/// to-many, a quantifier, an aggregate or a subquery is asked of the store
/// for the changed objects alone, in one statement; a change that names no
/// objects (a batch request without IDs, derived values rewritten by
/// triggers), a `fetchOffset`, or a `fetchLimit` whose window is left short
/// or gains an entry at its end (where the store's rows past the window may
/// come first) re-reads the keys of the whole result, in one statement. Confined, like its context,
/// to the context's queue: create it, fetch and read it there.
public final class FetchedResultsController: @unchecked Sendable, ContextMergeFollower {
    /// How the controller kept up: deterministic, for tests and benchmarks.
    public struct Counters: Sendable, Equatable {
        /// Changed objects decided in memory.
        public var objectsDecidedInMemory = 0
        /// Changed objects the store was asked about (a predicate memory cannot decide).
        public var objectsAskedOfStore = 0
        /// Statements asking about changed objects: one per change that had any.
        public var keyedQueries = 0
        /// Whole results read again.
        public var requeries = 0
    }

    public let fetchRequest: FetchRequest
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names an object's section; sort by it first,
    /// so each section's objects are contiguous.
    public let sectionNameKeyPath: String?
    public weak var delegate: FetchedResultsControllerDelegate?
    public private(set) var counters = Counters()

    private var state: FetchedResultsState?
    /// Entity indexes whose objects the fetch returns.
    private var hierarchy: Set<Int> = []
    private var readsCollections = false
    private var sectionPath: PredicateKeyPath?
    /// Unsaved objects among the results, by temporary ID: a save gives them
    /// permanent IDs, which the results then take.
    private var unsaved: [ManagedObjectID: ManagedObject] = [:]
    private var observers: [NSObjectProtocol] = []

    /// The name Core Data files its section cache under. Faultline keeps no
    /// cache between launches — `performFetch()` always reads the store, in
    /// one statement — so the name is only kept, for Core Data code to pass.
    public let cacheName: String?

    public init(fetchRequest: FetchRequest, managedObjectContext: ManagedObjectContext, sectionNameKeyPath: String? = nil,
                cacheName: String? = nil) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// Core Data's `deleteCache(withName:)`: there is no cache to delete (see `cacheName`).
    public static func deleteCache(withName name: String?) {}

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        if !observers.isEmpty { managedObjectContext.follow(false) }
    }

    /// Every object, in order (nil before `performFetch()`).
    public var fetchedObjects: FetchedObjects? {
        takePermanentIDs()
        return state.map { objects(in: 0 ..< $0.count, of: $0) }
    }

    /// The sections, in order (nil before `performFetch()`); without a
    /// section key path, one section holding every object.
    public var sections: [FetchedResultsSection]? {
        takePermanentIDs()
        guard let state else { return nil }
        guard sectionNameKeyPath != nil else {
            return [FetchedResultsSection(name: "", indexTitle: nil, objects: objects(in: 0 ..< state.count, of: state))]
        }
        return state.sections.map {
            FetchedResultsSection(name: $0.name, indexTitle: sectionIndexTitle(forSectionName: $0.name),
                                  objects: objects(in: $0.start ..< $0.start + $0.count, of: state))
        }
    }

    /// The sections' names, in order (nil before `performFetch()`).
    var sectionNames: [String]? {
        takePermanentIDs()
        return state?.sections.map(\.name)
    }

    private func objects(in range: Range<Int>, of state: FetchedResultsState) -> FetchedObjects {
        FetchedObjects(state.ids, range: range, context: managedObjectContext, batchSize: fetchRequest.fetchBatchSize,
                       prefetching: fetchRequest.relationshipKeyPathsForPrefetching)
    }

    /// Runs the fetch and starts following the context's changes.
    public func performFetch() throws {
        let model = managedObjectContext.coordinator.model
        guard let entity = model.entity(named: fetchRequest.entityName) else {
            throw FetchedResultsError.unknownEntity(fetchRequest.entityName)
        }
        // Core Data takes an empty array (only nil is refused, which a
        // FetchRequest cannot tell from it): the store's order. Sections must
        // each be in one piece, which takes an order.
        guard !fetchRequest.sortDescriptors.isEmpty || sectionNameKeyPath == nil else {
            throw FetchedResultsError.missingSortDescriptors(entity: fetchRequest.entityName)
        }
        hierarchy = Set(fetchRequest.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        readsCollections = PredicateStoreReach.readsCollections(fetchRequest.predicate, from: entity, in: model)
        sectionPath = sectionNameKeyPath.map { PredicateKeyPath($0.split(separator: ".").map(String.init)) }
        unsaved = [:]
        state = try load()
        if observers.isEmpty { follow() }
    }

    public func object(at indexPath: IndexPath) throws -> ManagedObject {
        let section = indexPath.section, item = indexPath.item
        guard let sections, sections.indices.contains(section), sections[section].objects.indices.contains(item) else {
            throw FetchedResultsError.indexPathOutOfRange(section: section, item: item)
        }
        return sections[section].objects[item]
    }

    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        takePermanentIDs()
        guard let state, let index = state.position(of: object.objectID) else { return nil }
        return state.indexPath(at: index)
    }

    /// A section as a change reports it: a deleted one by name alone.
    func section(named name: String, at index: Int, type: FetchedResultsChangeType) -> FetchedResultsSection {
        if type != .delete, let sections, sections.indices.contains(index) { return sections[index] }
        let none = FetchedObjects([], range: 0 ..< 0, context: managedObjectContext, batchSize: 0, prefetching: [])
        return FetchedResultsSection(name: name, indexTitle: sectionIndexTitle(forSectionName: name), objects: none)
    }

    // MARK: Loading

    private func load() throws -> FetchedResultsState {
        let sort = InMemorySort(fetchRequest.sortDescriptors)
        guard fetchRequest.fetchBatchSize == 0 else { return try loadKeys(sort) }
        var request = fetchRequest
        request.returnsObjectsAsFaults = false
        var entries: [(id: ManagedObjectID, keys: [PredicateValue], section: String)] = []
        for object in try managedObjectContext.fetch(request) {
            entries.append((object.objectID, try sort.keys(of: object), try sectionName(of: object)))
            if object.objectID.isTemporaryID { unsaved[object.objectID] = object }
        }
        return FetchedResultsState(sort: sort, entries: entries)
    }

    /// The results from one statement reading each row's key, sort keys and
    /// section key, with the context's unsaved changes placed in memory.
    private func loadKeys(_ sort: InMemorySort) throws -> FetchedResultsState {
        var keyPaths = fetchRequest.sortDescriptors.map(\.key)
        if let sectionNameKeyPath { keyPaths.append(sectionNameKeyPath) }
        let context = managedObjectContext
        let count = sort.descriptors.count
        // With unsaved changes, the window is taken after they are laid over
        // the rows (PendingChangeWindow.swift).
        let entity = try context.fetchedEntity(fetchRequest)
        // A child's results start from its ancestors' unsaved changes, as its fetches do.
        let ancestors = context.ancestorChanges(fetchRequest, entity)
        let widened = context.widenedForPendingChanges(fetchRequest, entity, ancestors: ancestors)
        var entries: [(id: ManagedObjectID, keys: [PredicateValue], section: String)] = []
        for (id, values) in try context.fetchKeyedValues(widened ?? fetchRequest, keyPaths: keyPaths)
        where context.registeredObject(for: id)?.isDeletedStorage != true && ancestors?.deleted.contains(id) != true {
            entries.append((id, Array(values[..<count]), sectionNameKeyPath == nil ? "" : Self.sectionText(values[count])))
        }
        var state = FetchedResultsState(sort: sort, entries: entries)
        unsaved = [:]
        if let ancestors, !ancestors.changed.isEmpty {
            execute(try decide(changed: context.objectsShowingAncestors(ancestors.changed), deleted: [], in: state), on: &state)
        }
        if fetchRequest.includesPendingChanges {
            let pending = context.changedInOrder.filter { hierarchy.contains($0.entityIndex) }
            execute(try decide(changed: pending, deleted: [], in: state), on: &state)
        }
        if widened != nil {
            let kept = Set(ManagedObjectContext.window(state.ids, of: fetchRequest))
            for id in state.ids where !kept.contains(id) {
                _ = state.remove(id)
                unsaved[id] = nil
            }
        }
        return state
    }

    // MARK: Following changes

    private func follow() {
        let context = managedObjectContext
        context.follow(true)
        let center = NotificationCenter.default
        observers.append(center.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) {
            [weak self] note in
            guard let self, let saved = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave else { return }
            self.takePermanentIDs()
            // A save that wrote no row (nothing to save, or only transient
            // values) moves nothing: a controller with an offset would re-read.
            guard !saved.changes.isEmpty else { return }
            // The changes were reported as they happened; a save can still
            // move objects (derived values the store rewrote), not update them.
            let changed = saved.insertedObjectIDs.union(saved.updatedObjectIDs).compactMap { context.registeredObject(for: $0) }
            self.apply(changed: changed, deletedIDs: saved.deletedObjectIDs, reportsUpdates: false)
        })
        // The context's own changes and refreshes. A merge comes in full
        // from the context (`contextDidMerge`; its public notification
        // leaves out what the context does not hold); a reset changes no
        // row.
        observers.append(center.addObserver(forName: .managedObjectContextObjectsDidChange, object: context, queue: nil) {
            [weak self] note in
            guard let self, let change = note.userInfo?[ContextObjectsDidChange.userInfoKey] as? ContextObjectsDidChange,
                  !change.isMerge, !change.invalidatedAllObjects else { return }
            self.take(updated: change.updatedObjects, inserted: change.ownInsertedObjects, deleted: change.deletedObjects,
                      refreshed: change.refreshedObjects)
        })
        context.mergeFollowers.append(WeakMergeFollower(follower: self))
    }

    func contextDidMerge(_ merge: ContextMerge) {
        take(updated: merge.updatedObjects, insertedIDs: merge.insertedObjectIDs, updatedIDs: merge.updatedObjectIDs,
             deleted: merge.deletedObjects, deletedIDs: merge.deletedObjectIDs, invalidatedEntities: merge.invalidatedEntities)
    }

    /// Applies a change of the context: its own, or a merge of other saves.
    private func take(updated: Set<ManagedObject>, inserted: Set<ManagedObject> = [],
                      insertedIDs: Set<ManagedObjectID> = [], updatedIDs: Set<ManagedObjectID> = [],
                      deleted: Set<ManagedObject>, deletedIDs: Set<ManagedObjectID> = [],
                      refreshed: Set<ManagedObject> = [], invalidatedEntities: Set<Int> = []) {
        let context = managedObjectContext
        // IDs obtained since (`obtainPermanentIDs`) are taken first.
        takePermanentIDs()
        var changed = Array(updated) + Array(inserted)
        // Another save's objects this context never registered: faults,
        // filled from the row cache that save wrote.
        for id in insertedIDs.union(updatedIDs) where hierarchy.contains(id.entityIndex) {
            changed.append(context.object(owned: id))
        }
        let refreshed = readRefreshed(refreshed)
        changed += refreshed.changed
        let deletedIDs = refreshed.gone.isEmpty ? deletedIDs : deletedIDs.union(refreshed.gone)
        apply(changed: changed, deleted: Array(deleted), deletedIDs: deletedIDs,
              invalidated: refreshed.rereads || !invalidatedEntities.isDisjoint(with: hierarchy))
    }

    /// Refreshed objects of the fetch's entities, to be decided as changed
    /// ones: a refresh may have moved an object (its values, or a related
    /// object's, read again) or brought back one whose deletion it discarded.
    /// Those it turned into faults are filled together, one statement for
    /// the rows the row cache lacks; `gone`, those whose row no longer
    /// exists. When they outnumber the results (`refreshAllObjects()` over a
    /// large context), reading the results' keys again is cheaper than
    /// filling them all: `rereads`.
    private func readRefreshed(_ objects: Set<ManagedObject>) -> (changed: [ManagedObject], gone: Set<ManagedObjectID>, rereads: Bool) {
        guard !objects.isEmpty else { return ([], [], false) }
        let changed = objects.filter { hierarchy.contains($0.entityIndex) }
        let faults = Array(changed.filter(\.isFaultStorage))
        if faults.count > (state?.count ?? 0) { return (Array(changed), [], true) }
        let context = managedObjectContext
        context.attach(faults, prefetching: [])
        let gone = Set(faults.filter { !context.fulfill($0) }.map(\.objectID))
        return (Array(changed.filter { !gone.contains($0.objectID) }), gone, false)
    }

    /// Unsaved objects' entries take the permanent IDs a save or
    /// `obtainPermanentIDs` gave them. Nothing moved, so
    /// only a difference delegate hears of it: each as a removal of the old
    /// ID and an insertion of the new one at the same offset.
    private func takePermanentIDs() {
        guard unsaved.values.contains(where: { !$0.objectID.isTemporaryID }), var next = state else { return }
        state = nil
        var steps: [CollectionDifference<ManagedObjectID>.Change] = []
        for (temporary, object) in unsaved where !object.objectID.isTemporaryID {
            guard let index = next.rename(temporary, to: object.objectID) else { continue }
            steps.append(.remove(offset: index, element: temporary, associatedWith: nil))
            steps.append(.insert(offset: index, element: object.objectID, associatedWith: nil))
        }
        unsaved = unsaved.filter { $0.value.objectID.isTemporaryID }
        state = next
        guard !steps.isEmpty, let delegate = delegate as? FetchedResultsControllerDifferenceDelegate,
              let difference = CollectionDifference(steps) else { return }
        delegate.controller(self, didChangeContentWith: difference)
    }

    /// The results after `changed` objects (inserted or updated), the
    /// deletion of `deleted` objects and `deletedIDs`; the delegate is told
    /// the difference. `invalidated`: rows changed that the change does not
    /// list, so the results are read again.
    func apply(changed: [ManagedObject], deleted: [ManagedObject] = [], deletedIDs: Set<ManagedObjectID> = [],
               invalidated: Bool = false, reportsUpdates: Bool = true) {
        guard var next = state else { return }
        var known: [ManagedObjectID: ManagedObject] = [:]
        for object in changed + deleted { known[object.objectID] = object }
        let deletedIDs = deletedIDs.union(deleted.map(\.objectID))
        guard !invalidated, fetchRequest.fetchOffset == 0 else {
            return requery(known: known, reportsUpdates: reportsUpdates)
        }
        let decisions: Decisions
        do {
            decisions = try decide(changed: changed, deleted: deletedIDs, in: next)
        } catch {
            return requery(known: known, reportsUpdates: reportsUpdates)
        }
        guard !decisions.isEmpty else { return }
        let changes: FetchedResultsChanges
        if fetchRequest.fetchLimit > 0 {
            let old = next
            execute(decisions, on: &next)
            while next.count > fetchRequest.fetchLimit, let last = next.ids.last { unsaved[last] = nil; next.remove(last) }
            // Rows past a full old window may now belong: only the store knows.
            if old.count >= fetchRequest.fetchLimit,
               next.count < fetchRequest.fetchLimit || placesAtWindowEnd(decisions, old: old, new: next) {
                return requery(known: known, reportsUpdates: reportsUpdates)
            }
            changes = FetchedResultsChanges(old: old, new: next, updated: decisions.changedInPlace)
        } else {
            state = nil
            changes = execute(decisions, on: &next)
        }
        state = next
        report(changes, known: known, reportsUpdates: reportsUpdates)
    }

    /// Whether an entry the change placed stays in the window with keys not
    /// below those of the old window's last entry. The store's rows past the
    /// old window, which memory does not hold, sort at or after that entry:
    /// one of them may come before the placed entry, or tie with it in an
    /// order only the store knows. An entry placed before it, or pushed out,
    /// leaves them where they were.
    private func placesAtWindowEnd(_ decisions: Decisions, old: FetchedResultsState, new: FetchedResultsState) -> Bool {
        guard let last = old.ids.last, let end = old.placement(of: last)?.keys else { return false }
        func reachesEnd(_ id: ManagedObjectID, _ keys: [PredicateValue]) -> Bool {
            new.contains(id) && old.sort.compare(keys[...], end) != .orderedAscending
        }
        return decisions.insertions.contains { reachesEnd($0.object.objectID, $0.keys) }
            || decisions.replacements.contains { reachesEnd($0.id, $0.keys) }
    }

    /// Reads the whole result again (keys only) and reports the difference;
    /// the `known` changed objects present before and after are updates.
    private func requery(known: [ManagedObjectID: ManagedObject], reportsUpdates: Bool) {
        guard let old = state else { return }
        counters.requeries += 1
        guard let new = try? loadKeys(old.sort) else { return }
        state = new
        let updated = Set(known.keys.filter { old.contains($0) && new.contains($0) })
        report(FetchedResultsChanges(old: old, new: new, updated: updated), known: known, reportsUpdates: reportsUpdates)
    }

    private func report(_ changes: FetchedResultsChanges, known: [ManagedObjectID: ManagedObject], reportsUpdates: Bool) {
        var changes = reportsUpdates ? changes : changes.withoutUpdates()
        if sectionNameKeyPath == nil { changes = changes.withoutSectionChanges() }
        guard !changes.isEmpty, let delegate else { return }
        let context = managedObjectContext
        changes.report(to: delegate, from: self) { id in
            known[id] ?? context.registeredObject(for: id) ?? context.object(owned: id)
        }
    }

    // MARK: Deciding

    /// What a change does to the results, entry by entry.
    private struct Decisions {
        var removals: [ManagedObjectID] = []
        var insertions: [(object: ManagedObject, keys: [PredicateValue], section: String)] = []
        var replacements: [(id: ManagedObjectID, keys: [PredicateValue], section: String, sectionChanged: Bool)] = []
        var kept: [ManagedObjectID] = []

        var isEmpty: Bool { removals.isEmpty && insertions.isEmpty && replacements.isEmpty && kept.isEmpty }
        var changedInPlace: Set<ManagedObjectID> { Set(kept + replacements.map(\.id)) }
    }

    private func decide(changed: [ManagedObject], deleted: Set<ManagedObjectID>, in state: FetchedResultsState) throws -> Decisions {
        var decisions = Decisions()
        var seen = Set<ManagedObjectID>()
        for id in deleted where state.contains(id) && seen.insert(id).inserted { decisions.removals.append(id) }
        var askStore: [ManagedObject] = []
        for object in changed where hierarchy.contains(object.entityIndex) {
            let id = object.objectID
            guard seen.insert(id).inserted else { continue }
            if object.isDeletedStorage || object.managedObjectContext == nil {
                if state.contains(id) { decisions.removals.append(id) }
                continue
            }
            if readsCollections, !object.hasChanges, !id.isTemporaryID {
                askStore.append(object)
                continue
            }
            counters.objectsDecidedInMemory += 1
            try decide(object, matches: try fetchRequest.predicate?.evaluate(with: object) ?? true, in: state, &decisions)
        }
        if !askStore.isEmpty {
            let matching = try matchingInStore(askStore)
            counters.keyedQueries += 1
            counters.objectsAskedOfStore += askStore.count
            for object in askStore { try decide(object, matches: matching.contains(object.objectID), in: state, &decisions) }
        }
        return decisions
    }

    private func decide(_ object: ManagedObject, matches: Bool, in state: FetchedResultsState, _ decisions: inout Decisions) throws {
        let id = object.objectID
        guard matches else {
            if state.contains(id) { decisions.removals.append(id) }
            return
        }
        let keys = try state.sort.keys(of: object)
        let section = try sectionName(of: object)
        guard let placed = state.placement(of: id) else {
            decisions.insertions.append((object, keys, section))
            return
        }
        if placed.section == section, state.sort.compare(placed.keys, keys[...]) == .orderedSame {
            decisions.kept.append(id)
        } else {
            decisions.replacements.append((id, keys, section, placed.section != section))
        }
    }

    /// Which of `objects` match the predicate in the store: one statement,
    /// `… WHERE (predicate) AND Z_PK IN (…)`.
    private func matchingInStore(_ objects: [ManagedObject]) throws -> Set<ManagedObjectID> {
        guard let predicate = fetchRequest.predicate else { return Set(objects.map(\.objectID)) }
        var request = FetchRequest(entityName: fetchRequest.entityName)
        request.includesSubentities = fetchRequest.includesSubentities
        request.includesPendingChanges = false
        let keys = try FetchPredicate(format: "self IN %@", objects.map(\.objectID))
        request.predicate = FetchPredicate(.and([predicate.root, keys.root]))
        return Set(try managedObjectContext.fetchObjectIDs(request))
    }

    /// Carries out `decisions` on `state`; returns the changes, each entry's
    /// old place read before and its new place after.
    @discardableResult
    private func execute(_ decisions: Decisions, on state: inout FetchedResultsState) -> FetchedResultsChanges {
        func place(_ id: ManagedObjectID, in state: FetchedResultsState) -> FetchedResultsChanges.Place? {
            state.position(of: id).map { FetchedResultsChanges.Place(index: $0, path: state.indexPath(at: $0)) }
        }
        let oldSections = state.sections
        let removedBefore = decisions.removals.compactMap { id in place(id, in: state).map { (id, $0) } }
        let replacedBefore = decisions.replacements.compactMap { entry in place(entry.id, in: state).map { (entry, $0) } }
        let keptBefore = decisions.kept.compactMap { id in place(id, in: state).map { (id, $0) } }
        for id in decisions.removals {
            state.remove(id)
            unsaved[id] = nil
        }
        for entry in decisions.replacements { state.remove(entry.id) }
        for entry in decisions.replacements { state.insert(entry.id, keys: entry.keys, section: entry.section) }
        for entry in decisions.insertions {
            let id = entry.object.objectID
            state.insert(id, keys: entry.keys, section: entry.section)
            if id.isTemporaryID { unsaved[id] = entry.object }
        }
        let inserted = decisions.insertions.compactMap { entry in place(entry.object.objectID, in: state).map { (entry.object.objectID, $0) } }
        let replaced = replacedBefore.compactMap { entry, old in
            place(entry.id, in: state).map { (id: entry.id, old: old, new: $0, sectionChanged: entry.sectionChanged) }
        }
        let kept = keptBefore.compactMap { id, old in place(id, in: state).map { (id, old, $0) } }
        return FetchedResultsChanges(removed: removedBefore, inserted: inserted, replaced: replaced, kept: kept,
                                     oldSections: oldSections, newSections: state.sections)
    }

    // MARK: Sections

    private func sectionName(of object: ManagedObject) throws -> String {
        guard let sectionPath else { return "" }
        return Self.sectionText(try InMemorySort.value(at: sectionPath, with: PredicateEvaluator(subject: object)))
    }

    /// A section key's value as a section's name, as Core Data writes it
    /// (`description` of the value): nil as "", a boolean as 1 or 0, a whole
    /// double without its fraction.
    static func sectionText(_ value: PredicateValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "1" : "0"
        case .int(let number): String(number)
        case .double(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .decimal(let number): number.description
        case .date(let date): String(describing: date)
        case .uuid(let uuid): uuid.uuidString
        case .data(let data): String(describing: data)
        case .array(let values): values.map(sectionText).joined(separator: ", ")
        case .objectID(let id): String(describing: id)
        }
    }
}

extension FetchedResultsError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
