import Foundation
import Synchronization

/// Deterministic object-graph counters of one context.
public struct ObjectGraphCounters: Sendable, Equatable {
    /// Faults fired: objects that had only an ID and needed their values.
    public var faultsFired = 0
    /// Of those, fulfilled from the row cache (no SQL).
    public var faultsFulfilledFromCache = 0
    /// Of those, fulfilled by a SELECT (alone, or as part of a batch).
    public var faultsFulfilledBySQL = 0
    /// Objects created in memory (faults included).
    public var objectsMaterialized = 0
    /// To-many relationships loaded from the store.
    public var relationshipFaultsFired = 0
}

/// A scratch pad of managed objects on one queue: Core Data's
/// `NSManagedObjectContext`.
///
/// A context and its objects are used from one thread at a time, as in Core
/// Data: call it from its queue through `perform`/`performAndWait` (the view
/// context is bound to the main queue). Only `ManagedObjectID`s cross between
/// contexts. The type is `Sendable` so it can be handed to its own queue; the
/// contract above is what keeps it safe, as Core Data's is.
public final class ManagedObjectContext: @unchecked Sendable {
    public let coordinator: PersistentStoreCoordinator
    /// Whether a child context was made of this one: its store saves then
    /// pass the inserts' permanent IDs on (ManagedObjectContext+Parent.swift).
    let hasChildren = Atomic<Bool>(false)
    /// The queue the context's work runs on.
    public let queue: DispatchQueue
    private let isMainQueue: Bool

    /// How conflicts found at save are resolved; `.error` reports them.
    public var mergePolicy: MergePolicy = .error
    /// Whether saves of other contexts on the same store are merged in: their
    /// updated objects turn back into faults (or keep local changes), their
    /// deleted objects leave this context. The merge runs on this context's
    /// queue soon after the other save, unasked (as Core Data's does), and
    /// posts `managedObjectContextObjectsDidChange`. Saves made while it is
    /// off are not kept for later: turning it on merges the ones after.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesAutomatically.load(ordering: .relaxed) }
        set { mergesAutomatically.store(newValue, ordering: .relaxed) }
    }
    /// Read by other contexts' saves, on their queues.
    let mergesAutomatically = Atomic<Bool>(false)
    /// The oldest row-cache snapshot (in seconds) a fault may use; negative
    /// means any age, as in Core Data. Read by every fault that fires, so
    /// unchecked like the hot fields below.
    @exclusivity(unchecked) public var stalenessInterval: TimeInterval = -1
    /// A name for debugging, recorded as the context name of its saves'
    /// persistent-history transactions.
    public var name: String?
    /// Who saves, recorded with each save's persistent-history transaction
    /// (Core Data's `transactionAuthor`); with `name`, what history readers
    /// filter their own changes out by.
    public var transactionAuthor: String?
    /// The app's own values kept with the context (Core Data's `userInfo`),
    /// used on the context's queue like the rest of it; Faultline never reads them.
    public var userInfo: [AnyHashable: Any] = [:]

    // The context is confined to its queue: the hot fields skip Swift's
    // dynamic exclusivity checks (≈ 4 % of a per-object insert, measured).
    @exclusivity(unchecked) public internal(set) var counters = ObjectGraphCounters()

    @exclusivity(unchecked) var registered = ObjectRegistry()
    /// Objects with unsaved changes (each flagged `isTrackedAsChanged`), in the
    /// order they first changed; entries whose flag was cleared are dropped lazily.
    @exclusivity(unchecked) var changeOrder: [ManagedObject] = []
    /// How many objects are flagged `isTrackedAsChanged`.
    @exclusivity(unchecked) var trackedCount = 0
    /// Join rows and hidden keys the next save writes.
    @exclusivity(unchecked) var links = PendingLinks()
    /// Transformable values already decoded (TransformedValueCache.swift).
    var transformedValues = TransformedValueCache()
    /// Deletions whose delete rules have not run yet.
    @exclusivity(unchecked) var pendingDeletes: [ManagedObject] = []
    let inbox = Locked<[StoreChanges]>([])
    /// Objects changed since the last objects-did-change notification, while
    /// `reportsUnsavedChanges` is on (ManagedObjectContext+UnsavedChanges.swift).
    @exclusivity(unchecked) var unannounced: [ManagedObject] = []
    /// Objects refreshed since then, by `refresh(_:mergeChanges:)` or
    /// `refreshAllObjects()`, while `reportsUnsavedChanges` is on.
    @exclusivity(unchecked) var unannouncedRefreshes = Set<ManagedObject>()
    /// Fetched-results controllers following this context.
    var followers = 0
    /// Those told each merge in full; one that went is skipped, and dropped
    /// at the next merge (a controller may go on any thread).
    var mergeFollowers: [WeakMergeFollower] = []
    var reportsUnsavedChangesByRequest = false
    /// The undo manager, and the states its next step restores
    /// (ManagedObjectContext+Undo.swift).
    var undoManagerStorage: UndoManager?
    var undoCapture = UndoCapture()
    /// Saves so far: undo states taken before a save restore as new changes.
    @exclusivity(unchecked) var saveCount = 0
    /// The query generation the context reads, if pinned, itself or through
    /// its parent (QueryGenerations.swift).
    let generation = ReadGeneration()
    /// A child's observations: the saves its siblings push into its parent,
    /// and its ancestors' saves (for the permanent IDs of their inserts).
    var siblingSaves: NSObjectProtocol?
    /// A child of a child: its parent's saves into the grandparent.
    var parentSaves: NSObjectProtocol?
    var ancestorSaves: [NSObjectProtocol] = []
    /// The class `insertObject(_:)` resolved last, and its entity.
    @exclusivity(unchecked) var lastInsertedClass: (type: ObjectIdentifier, entityIndex: Int)?
    let classes: ClassRegistry
    /// The coordinator's entity runtimes, shared by its contexts.
    let runtimes: [EntityRuntime]
    /// The class of each entity, read from the registry when the context makes
    /// its first object (so register subclasses before that, as the container
    /// says). Not a lazy property: its getter would retain the array per object.
    @exclusivity(unchecked) private var classByEntity: [ManagedObject.Type] = []

    /// What this context's objects reach it through.
    let handle = ContextHandle()
    /// Set while `save()` runs, so a save from `willSave` or `didSave` is refused.
    @exclusivity(unchecked) var isSaving = false
    /// The last small save's lists, emptied, for the next save to fill.
    @exclusivity(unchecked) var saveBuffers = SaveBuffers()
    /// The did-save notification's `userInfo`, emptied after each post: its
    /// table is allocated once, not on every save (an observer that keeps the
    /// notification keeps that one, and the next save copies it).
    @exclusivity(unchecked) var didSaveUserInfo = [AnyHashable: Any](minimumCapacity: 1)
    /// Typed-key assignments that could not be made (a subscript setter cannot
    /// throw); the next `save()` throws them.
    @usableFromInline @exclusivity(unchecked) var refusedAccesses: [ObjectAccessError] = []
    /// Faults the store could not fulfil since the last save (FaultFailure.swift).
    @exclusivity(unchecked) var faultFailures: [FaultFailure] = []
    /// The fault profiler, when on (FaultAdvisor.swift); nil costs one check where faults go to the store.
    var faultAdvisor: FaultAdvisor? = FaultAdvisor.isEnabledByEnvironment ? FaultAdvisor() : nil

    /// Whether the context records which fetch each object came from and the
    /// faults that went to the store afterwards, per relationship key path,
    /// for `faultAdvice`. On for every context with `FAULTLINE_FAULT_ADVICE=1`
    /// (which also prints the advice to standard error when the context goes away).
    public var recordsFaultAdvice: Bool {
        get { faultAdvisor != nil }
        set { faultAdvisor = newValue ? (faultAdvisor ?? FaultAdvisor()) : nil }
    }

    /// What the faults recorded since `recordsFaultAdvice` was set cost, per
    /// fetch and key path, and the prefetch or fetch setting that would have
    /// avoided them; only paths that sent more statements than the fix would.
    public var faultAdvice: [FaultAdvice] { faultAdvisor?.advice ?? [] }
    /// Marks the main queue. After `dispatchMain()` — a Linux service's way to
    /// wait, and Swift Testing's — the main queue's blocks, the main actor's
    /// jobs among them, run on worker threads: being off the main thread does
    /// not mean being off the main queue, and a `performAndWait` of the view
    /// context from the main actor would `sync` onto the queue it runs on.
    private static let mainQueueMark: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Marks the context's own queue, so `performAndWait` called on it runs
    /// inline (Core Data's is reentrant) instead of deadlocking in `sync`.
    private let queueMark = DispatchSpecificKey<ObjectIdentifier>()

    /// The context this one reads through and saves into (Core Data's
    /// `parent`); nil for a context of the store (ManagedObjectContext+Parent.swift).
    public let parent: ManagedObjectContext?

    init(coordinator: PersistentStoreCoordinator, classes: ClassRegistry, queue: DispatchQueue?, name: String?,
         parent: ManagedObjectContext? = nil) {
        self.parent = parent
        self.coordinator = coordinator
        self.classes = classes
        self.runtimes = EntityRuntimes.of(coordinator)
        registered.trackedEntities = coordinator.derivedTargets
        self.isMainQueue = queue == nil
        self.queue = queue ?? .main
        self.name = name
        handle.context = self
        if !isMainQueue { self.queue.setSpecific(key: queueMark, value: ObjectIdentifier(self)) }
        coordinator.changes.subscribe(self)
        if parent != nil { followAncestors() }
    }

    /// Whether the caller runs on this context's queue now.
    /// On a queue this thread holds further out (`HeldQueues`) too: a block of
    /// another context's, run by `performAndWait` inside one of this context's.
    var isOnOwnQueue: Bool {
        if isMainQueue { return Self.isOnMainQueue }
        let identity = ObjectIdentifier(self)
        return DispatchQueue.getSpecific(key: queueMark) == identity || HeldQueues.contains(identity)
    }

    /// Whether the caller runs on the main queue: on the main thread, in a
    /// main-queue block, or in a block another context's `performAndWait` ran
    /// from one.
    static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMark) == true || HeldQueues.contains(HeldQueues.mainQueue)
    }

    deinit {
        if FaultAdvisor.isEnabledByEnvironment, let advice = faultAdvisor?.advice, !advice.isEmpty {
            let context = name.map { " (context \($0))" } ?? ""
            FileHandle.standardError.write(Data(advice.map { "faultline advice\(context): \($0)\n" }.joined().utf8))
        }
        for object in registered.values { object.releaseStorage() }
        // The main queue outlives its context: it must not keep the generation.
        if generation.isPinned.load(ordering: .relaxed) { queue.setSpecific(key: PinnedReader.key, value: nil) }
        if let siblingSaves { NotificationCenter.default.removeObserver(siblingSaves) }
        if let parentSaves { NotificationCenter.default.removeObserver(parentSaves) }
        for observer in ancestorSaves { NotificationCenter.default.removeObserver(observer) }
    }

    /// Runs `body` on the context's queue and waits for it.
    /// Reentrant, as Core Data's: called from the context's own queue (a
    /// nested `performAndWait`, inside `perform`, or inside another context's
    /// block run from one of this context's, as a child's save is), `body`
    /// runs inline.
    ///
    /// Other contexts' saves queued for an automatic merge are applied as a
    /// block starts, as Core Data runs its merge blocks between the blocks on
    /// the queue — never inside one, not even in a nested `performAndWait`: a
    /// merge in the middle of a block would lay a newer row under the block's
    /// unsaved change, and its save would overwrite the other save unreported
    /// where Core Data reports the conflict. Code on the main thread or the
    /// main actor, outside any block, starts one.
    public func performAndWait<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isOnOwnQueue {
            // On its own queue a private context is always inside one of its
            // blocks; the view context is too unless this thread holds none.
            let identity = ObjectIdentifier(self)
            guard isMainQueue, !HeldQueues.contains(identity) else { return try body() }
            // The outermost block of main-thread code: it ends an event as
            // every other block does (announcements, delete rules, undo step).
            return try HeldQueues.holding(identity) {
                mergeInbox()
                defer { endEvent() }
                return try body()
            }
        }
        // The caller's main queue stays held in the block: a parent or
        // another context on the main queue is then used inline from it.
        let holdsMainQueue = !isMainQueue && Self.isOnMainQueue
        return try queue.sync {
            try HeldQueues.holding(ObjectIdentifier(self), withMainQueue: holdsMainQueue) {
                mergeInbox()
                defer { endEvent() }
                return try body()
            }
        }
    }

    /// Runs `block` on the context's queue later and returns at once: Core
    /// Data's `perform(_:)`, the form synchronous code calls (`await` the
    /// other `perform` from async code).
    public func perform(_ block: @escaping () -> Void) {
        let block = UncheckedBlock(block)
        enqueue({ block.run() }, then: { _ in })
    }

    /// Runs `body` as a block of its own on the context's queue, after the
    /// blocks already there, and hands its result to `then` on that queue.
    func enqueue<Result>(_ body: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void) {
        queue.async {
            let result = HeldQueues.holding(ObjectIdentifier(self)) {
                self.mergeInbox()
                defer { self.endEvent() }
                return body()
            }
            then(result)
        }
    }

    // MARK: Objects

    /// Whether the context has unsaved changes.
    /// Whether `insertedObjects`, `updatedObjects` or `deletedObjects` lists
    /// anything: an object whose values were set back to its committed ones,
    /// or inserted and then deleted, has no unsaved change.
    public var hasChanges: Bool {
        checkQueue()
        guard trackedCount > 0 else { return false }
        return changeOrder.contains { object in
            object.isTrackedAsChanged && (object.isInsertedStorage != object.isDeletedStorage || object.isUpdated)
        }
    }

    public var insertedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(changedInOrder.filter { $0.isInsertedStorage && !$0.isDeletedStorage })
    }
    public var updatedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(changedInOrder.filter(\.isUpdated))
    }
    public var deletedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(changedInOrder.filter { $0.isDeletedStorage && !$0.isInsertedStorage })
    }
    public var registeredObjects: Set<ManagedObject> {
        checkQueue()
        return Set(registered.values)
    }

    /// The object for `id`: the registered one, or a new fault (no SQL).
    /// An ID of another store (another container, or an entity this model
    /// lacks) is refused with `StoreError.foreignObjectID`: where Core Data
    /// raises an exception, this throws, and it never hands back this store's
    /// unrelated row that happens to have the same key. A temporary ID a
    /// context on the store does not hold names no row, ever: it throws
    /// `StoreError.objectNotFound` where Core Data's fault raises when fired.
    public func object(with id: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        try checkOwnership(of: id)
        if id.isTemporaryID, parent == nil, registered[id] == nil { throw StoreError.objectNotFound(id.description) }
        return object(owned: id)
    }

    /// Refuses an ID that does not belong to this context's store.
    func checkOwnership(of id: ManagedObjectID) throws {
        guard id.storeIdentifier == coordinator.identifier, coordinator.model.entities.indices.contains(id.entityIndex) else {
            throw StoreError.foreignObjectID(id.description)
        }
    }

    /// `object(with:)` for an ID known to be this store's.
    func object(owned id: ManagedObjectID) -> ManagedObject {
        guard !id.isTemporaryID else {
            if let object = registered[id] { return object }
            let object = makeObject(id: id, entityIndex: id.entityIndex)
            registered[id] = object
            return object
        }
        // `makeObject` runs a subclass's initializer, which may ask this
        // context for other objects: the table re-probes when it did.
        return registered.storedObjects.value(for: id) { makeObject(id: id, entityIndex: id.entityIndex) }
    }

    /// The object for `id`, materialised; throws when no such row exists.
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        try checkOwnership(of: id)
        let object = self.object(owned: id)
        if object.isFaultStorage, !fulfill(object) {
            registered[id] = nil
            throw StoreError.objectNotFound(id.description)
        }
        return object
    }

    /// The registered object for `id`, without creating a fault.
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? {
        checkQueue()
        return registered[id]
    }

    func makeObject(id: ManagedObjectID, entityIndex: Int) -> ManagedObject {
        if classByEntity.isEmpty {
            classByEntity = coordinator.model.entities.indices.map { classes.type(forEntityIndex: $0) }
        }
        let object = classByEntity[entityIndex].init(construction(id: id, entityIndex: entityIndex))
        noteMade(object)
        return object
    }

    func construction(id: ManagedObjectID, entityIndex: Int) -> ObjectConstruction {
        ObjectConstruction(handle: handle, runtime: runtimes[entityIndex], id: id)
    }

    /// Counts an object just made, and lets the registry know.
    func noteMade(_ object: ManagedObject) {
        counters.objectsMaterialized += 1
        registered.noteMade(object)
    }

    /// Counts every change, so the save can tell when `willSave` settles.
    var mutations: Int { handle.mutations }

    /// Marks `object` as having unsaved changes.
    @inline(__always)
    func noteChange(_ object: ManagedObject) {
        handle.mutations &+= 1
        track(object)
        if handle.recordsChanges, !object.isAwaitingAnnouncement { recordChange(of: object) }
    }

    /// Lists `object` among the changed ones, once.
    @inline(__always)
    func track(_ object: ManagedObject) {
        guard !object.isTrackedAsChanged else { return }
        checkQueue("a change to an object")
        object.isTrackedAsChanged = true
        trackedCount += 1
        changeOrder.append(object)
    }

    /// Forgets every change-tracking entry of `object`.
    func forgetChanges(of object: ManagedObject) {
        if object.isTrackedAsChanged {
            object.isTrackedAsChanged = false
            trackedCount -= 1
        }
    }

    /// Forgets every change-tracking entry.
    func forgetAllChanges() {
        for object in changeOrder { object.isTrackedAsChanged = false }
        trackedCount = 0
        changeOrder.removeAll(keepingCapacity: Self.keepsForNextSave(changeOrder.count))
    }

    /// Whether a save's bookkeeping of `count` entries (its change order, the
    /// table of unsaved inserts, the lists it builds) is kept, emptied, for the
    /// next save: one save per user action would otherwise allocate it again
    /// every time; a large one is given back.
    static func keepsForNextSave(_ count: Int) -> Bool { count <= 64 }

    /// Changed objects in the order they first changed. An object whose
    /// changes were forgotten (refresh, rollback) and that changed again has an
    /// entry from each time: the first one left counts.
    var changedInOrder: [ManagedObject] {
        if changeOrder.count != trackedCount {
            var seen = Set<ObjectIdentifier>()
            changeOrder = changeOrder.filter { $0.isTrackedAsChanged && seen.insert(ObjectIdentifier($0)).inserted }
        }
        return changeOrder
    }

    // MARK: Faults

    /// Fills a fault's values: its batch in one statement, else the row cache,
    /// else one SELECT. Returns false when the row no longer exists.
    @discardableResult
    func fulfill(_ object: ManagedObject) -> Bool {
        guard object.isFaultStorage else { return true }
        checkQueue("firing a fault")
        counters.faultsFired += 1
        if parent != nil, let fromParent = fulfillFromParent(object) { return fromParent }
        if object.objectID.isTemporaryID { return false }
        let maximumAge = stalenessInterval >= 0 ? stalenessInterval : nil
        // A fault's batch has not fired: firing and materialising clear it.
        if let batch = object.batch {
            // Members whose rows are cached cost nothing; the rest come in one statement.
            var missing: [ManagedObject] = []
            let members = batch.objects
            defer { batch.afterFiring?(self, members) }
            for member in batch.objects where member.isFaultStorage {
                member.batch = nil
                if !generation.isPinned.load(ordering: .relaxed),
                   let snapshot = coordinator.rowCache.snapshot(for: member.objectID, maximumAge: maximumAge) {
                    materialize(member, from: snapshot)
                } else {
                    missing.append(member)
                }
            }
            batch.objects = []
            guard !missing.isEmpty else {
                counters.faultsFulfilledFromCache += 1
                return !object.isFaultStorage
            }
            let rows: [(ManagedObjectID, RowSnapshot)]
            do {
                rows = try coordinator.rows(for: missing.map(\.objectID))
            } catch {
                // Back in the batch, so the next access tries them again.
                for member in missing { member.batch = batch }
                batch.objects = missing
                recordFaultFailure(error, of: object)
                return false
            }
            var byID: [ManagedObjectID: RowSnapshot] = [:]
            for (id, snapshot) in rows { byID[id] = snapshot }
            counters.faultsFulfilledBySQL += 1
            faultAdvisor?.firedBySQL(object)
            for member in missing {
                if let snapshot = byID[member.objectID] { materialize(member, from: snapshot) }
            }
            return !object.isFaultStorage
        }
        if !generation.isPinned.load(ordering: .relaxed),
           let snapshot = coordinator.rowCache.snapshot(for: object.objectID, maximumAge: maximumAge) {
            counters.faultsFulfilledFromCache += 1
            materialize(object, from: snapshot)
            return true
        }
        var found: RowSnapshot?
        do {
            found = try coordinator.row(for: object.objectID)
        } catch {
            recordFaultFailure(error, of: object)
            return false
        }
        // Moved out, not copied: the object keeps the only reference.
        guard let row = found.take() else { return false }
        counters.faultsFulfilledBySQL += 1
        faultAdvisor?.firedBySQL(object)
        materialize(object, from: row)
        return true
    }

    /// Turns a fault into a materialised object with `snapshot`'s values.
    func materialize(_ object: ManagedObject, from snapshot: consuming RowSnapshot) {
        object.values = snapshot.values
        object.committed = consume snapshot
        // Materialised by any path, the object leaves its fetch batch: refreshed
        // into a fault later, it fires on its own, not through a spent batch.
        object.batch = nil
        // Every to-one reads the snapshot. A fault made or refreshed into one
        // holds the entity's shared `unloadedToOne` already; anything else (its
        // storage released, a write while it could not fire) is replaced. Not
        // reassigning the shared slots saves a retain and a release a row.
        if !object.toOne.sharesStorage(with: object.runtime.unloadedToOne) {
            object.toOne = object.runtime.unloadedToOne
        }
        object.isFaultStorage = false
        object.awakeFromFetch()
    }
}

extension ManagedObject {
    /// Drops every reference this object holds (breaking object cycles).
    func releaseStorage() {
        toOne = []
        toMany = []
        values = .empty
        batch = nil
    }
}

/// A block handed to the context's queue, which runs it there alone: what it
/// captures is the context's, as in Core Data, whose `perform(_:)` takes a
/// plain block.
private struct UncheckedBlock: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
