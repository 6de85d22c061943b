import Foundation

// The object graph: contexts and managed objects.
//
// A managed object is a row's in-memory stand-in, owned by one context and used
// on that context's queue only. Its storage is indexed by the entity's
// attribute and relationship indexes (resolved once in the checked model), so
// an access never hashes a name: attribute values in a copy-on-write window
// (shared with the row it was read from until written), relationships in arrays.
//
// States of an object:
//   fault ──fire──▶ materialised (values from the row cache, else one SELECT;
//                   a fault fetched in a batch loads its whole batch at once)
//   inserted ──save──▶ materialised, permanent ID
//   materialised ──refresh/merge──▶ fault
//   any ──delete──▶ deleted ──save──▶ gone from the context
//
// Invariants:
// 1. `values` holds every attribute when the object is not a fault; `committed`
//    is the last row read or written, for `changedValues()` and rollback.
// 2. Relationships hold objects of the same context; an inverse is updated in
//    memory at once when either side changes (unloaded to-many sides keep the
//    change pending and apply it when they load).
// 3. Objects reference each other strongly; a context breaks the cycles when it
//    is reset or released.

/// What only a context can hand to a managed object's initializer.
public struct ObjectConstruction {
    let handle: ContextHandle
    let runtime: EntityRuntime
    let id: ManagedObjectID
}

/// A stored object: dynamic access by key, typed access from subclasses.
open class ManagedObject: Hashable, CustomStringConvertible {
    // Identity, context, entity and the state flags are final: Core Data
    // forbids overriding them (`hasChanges` joins them), and the save and
    // faulting rely on them.

    /// The object's identity; temporary until its first save.
    public internal(set) final var objectID: ManagedObjectID {
        // Inlined from the stored field: another module accessing a final
        // stored property directly pays a dynamic exclusivity check (~85
        // instructions) that `@exclusivity(unchecked)` waives only here.
        @inlinable get { objectIDStorage }
        set { objectIDStorage = newValue }
    }
    @usableFromInline @exclusivity(unchecked) final var objectIDStorage: ManagedObjectID
    /// The context the object belongs to (nil once the context is gone).
    public internal(set) final var managedObjectContext: ManagedObjectContext? {
        get { contextHandle?.context }
        set { contextHandle = newValue?.handle }
    }
    @exclusivity(unchecked) var contextHandle: ContextHandle?
    @usableFromInline let runtime: EntityRuntime
    /// The concrete entity's index (its ID's, which a save keeps).
    var entityIndex: Int { objectID.entityIndex }

    // Objects are confined to their context's queue, so the hot fields skip
    // Swift's dynamic exclusivity checks. The fields are ordered so the flags
    // fill the bytes after `rowOrBatch`'s tag.
    @usableFromInline @exclusivity(unchecked) final var values: AttributeValues = .empty
    /// The committed row, or the fetch batch of a fault (`RowOrBatch`).
    @exclusivity(unchecked) private var rowOrBatch = RowOrBatch.none
    @usableFromInline @exclusivity(unchecked) final var isFaultStorage = true
    @exclusivity(unchecked) var isInsertedStorage = false
    @exclusivity(unchecked) var isDeletedStorage = false
    /// Whether the context lists the object among its changed ones.
    @exclusivity(unchecked) var isTrackedAsChanged = false
    /// Whether the context lists the object among the changes its next
    /// objects-did-change notification reports.
    @exclusivity(unchecked) var isAwaitingAnnouncement = false
    /// Whether an objects-did-change notification reported the object
    /// inserted: one inserted and deleted before any did is reported in none.
    @exclusivity(unchecked) var wasAnnouncedInserted = false
    @exclusivity(unchecked) var toOne: [ToOneState]
    @exclusivity(unchecked) var toMany: [ToManyState?]
    /// Which attributes and relationships changed since the committed row.
    @exclusivity(unchecked) var changeMasks = ChangeMasks()

    /// The committed row: last read or saved.
    var committed: RowSnapshot? {
        @inline(__always) get {
            if case .row(let row) = rowOrBatch { return row }
            return nil
        }
        set {
            if let newValue {
                rowOrBatch = .row(newValue)
            } else if case .row = rowOrBatch {
                rowOrBatch = .none
            }
        }
    }

    /// Faults fetched together with `fetchBatchSize`; firing one loads all.
    var batch: FaultBatch? {
        @inline(__always) get {
            if case .batch(let batch) = rowOrBatch { return batch }
            return nil
        }
        set {
            if let newValue {
                assert(committed == nil, "a fault joins a fetch batch only without a committed row")
                rowOrBatch = .batch(newValue)
            } else if case .batch = rowOrBatch {
                rowOrBatch = .none
            }
        }
    }

    /// Whether an attribute or relationship changed.
    var hasChangedProperties: Bool { !changeMasks.isEmpty }

    /// The changed attributes, as one mask (`changeMasks[attribute:]` for one bit).
    var changedAttributes: ChangeMask {
        get { changeMasks.attributeMask }
        set { changeMasks.attributeMask = newValue }
    }

    /// The changed relationships, as one mask (`changeMasks[relationship:]` for one bit).
    var changedRelationships: ChangeMask {
        get { changeMasks.relationshipMask }
        set { changeMasks.relationshipMask = newValue }
    }

    /// Objects are created by their context (`insertNewObject`, fetches, faults).
    public required init(_ construction: ObjectConstruction) {
        objectIDStorage = construction.id
        contextHandle = construction.handle
        runtime = construction.runtime
        // The entity's shared slots from the start: set after construction,
        // each replaced an empty array (a retain and a release an object).
        toOne = construction.runtime.unloadedToOne
        toMany = construction.runtime.emptyToMany
    }

    public static func == (left: ManagedObject, right: ManagedObject) -> Bool { left === right }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The entity.
    public final var entity: CheckedEntity? { runtime.entity }

    /// Whether the object holds only its ID so far.
    public final var isFault: Bool { isFaultStorage }
    public final var isInserted: Bool { isInsertedStorage }
    public final var isDeleted: Bool { isDeletedStorage }
    /// Whether a saved object has unsaved changes.
    public final var isUpdated: Bool { !isInsertedStorage && !isDeletedStorage && hasChangedProperties }
    /// Whether the object has unsaved changes of any kind — a change to a
    /// transient property too, as in Core Data, though the save writes no row
    /// for an object whose only changes are transient.
    public final var hasChanges: Bool { isInsertedStorage || isDeletedStorage || hasChangedProperties }
    /// Whether a persistent attribute or relationship changed: what
    /// `changedValues()` reports, as Core Data's `hasPersistentChangedValues`.
    /// False when only transient properties changed.
    public final var hasPersistentChangedValues: Bool {
        guard runtime.hasTransients else { return hasChangedProperties }
        return EntityRuntime.hasPersistentBits(changedAttributes, transients: runtime.transientAttributes)
            || EntityRuntime.hasPersistentBits(changedRelationships, transients: runtime.transientRelationships)
    }

    open var description: String {
        let name = entity?.name ?? "?"
        return "<\(name) \(objectID)\(isFault ? " fault" : "")>"
    }

    // MARK: Lifecycle, overridable as in Core Data

    /// Called once, when the object is inserted. Set defaults with primitives
    /// here so they do not count as changes.
    open func awakeFromInsert() {}
    /// Called when a fault is fulfilled from the store.
    open func awakeFromFetch() {}
    /// Called before the object is saved; may change the object (the save runs
    /// `willSave` again until nothing changes, a bounded number of times).
    /// The typed keys the class declares, checked against its entity when it
    /// is registered: list them here (generated classes do) and a misspelt
    /// name, a key of the wrong kind or value type fails `register` instead of
    /// the first save that uses it.
    open class var typedKeys: [any TypedPropertyKey] { [] }

    open func willSave() {}
    /// Called after the object was saved.
    open func didSave() {}
    /// Called when the object is deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Whether the class implements `validateValue(_:forKey:)`; the save only
    /// calls it, per changed key, for classes that say so (it costs a dynamic
    /// value per attribute).
    open class var validatesKeys: Bool { false }

    /// Validation before inserting; throw a `ValidationIssue.custom(…)` to refuse.
    open func validateForInsert() throws {}
    open func validateForUpdate() throws {}
    /// Throwing refuses the deletion: the object stays.
    open func validateForDelete() throws {}
    /// Per-key validation of `value` (already the attribute's value or object).
    open func validateValue(_ value: Any?, forKey key: String) throws {}
}

/// The one weak reference to a context, shared by its objects. Each object
/// holds the handle strongly: creating one costs an ordinary retain, where a
/// weak reference of its own cost a weak registration plus strong retains of
/// the context that take the slow path (a weakly referenced object keeps its
/// counts in a side table), ~250 instructions an object under callgrind.
final class ContextHandle {
    weak var context: ManagedObjectContext?
    /// Every change to the context's objects, counted so a save can tell when
    /// `willSave` settles. Here, an attribute write of an object the context
    /// already tracks counts without loading the context (a weak load and a
    /// side-table release, ~140 instructions a write).
    @exclusivity(unchecked) var mutations = 0
    /// Whether changes are recorded for the next objects-did-change
    /// notification (`ManagedObjectContext.reportsUnsavedChanges`).
    @exclusivity(unchecked) var recordsChanges = false
    /// Whether changes are taken for undo (`ManagedObjectContext.undoManager`).
    @exclusivity(unchecked) var recordsUndo = false
}

/// A to-one relationship's state: a destination ID read from the store (not
/// yet resolved to an object) or a resolved object.
enum ToOneState {
    /// The destination in the committed snapshot, not resolved yet. Every
    /// to-one of a fetched object starts here, sharing the entity's array, so
    /// materialising one allocates nothing for its to-ones.
    case committed
    case id(ManagedObjectID?)
    case object(ManagedObject?)
}

/// A to-many relationship's state: loaded members (in order for an ordered
/// relationship), or changes waiting for the relationship to load.
final class ToManyState {
    // Confined to the owning context's queue, like the objects.
    @exclusivity(unchecked) var members: [ManagedObject]?
    /// `members` as identities, built on the first membership question once
    /// there are more than `scannedMembers`: a prefetch loads thousands of
    /// to-manys that are only ever iterated.
    @exclusivity(unchecked) private var memberSetStorage: Set<ObjectKey>?
    @exclusivity(unchecked) var pendingAdds: [ManagedObject] = []
    /// `pendingAdds` as identities, the same way.
    @exclusivity(unchecked) private var pendingAddSet: Set<ObjectKey>?
    @exclusivity(unchecked) var pendingRemoves = Set<ObjectKey>()
    /// The members the store listed when the relationship loaded: what this
    /// context's own additions and removals are told apart by when another
    /// save changes the relationship underneath them (`rebased()`).
    @exclusivity(unchecked) private var storedMembers: [ManagedObject] = []

    var isLoaded: Bool { members != nil }

    func contains(_ object: ManagedObject) -> Bool {
        guard let members else { return false }
        return Self.list(members, indexedBy: &memberSetStorage, contains: object)
    }

    /// Whether `object` waits to be added when the relationship loads.
    func isPendingAdd(_ object: ManagedObject) -> Bool {
        Self.list(pendingAdds, indexedBy: &pendingAddSet, contains: object)
    }

    func load(_ stored: [ManagedObject]) {
        var list = pendingRemoves.isEmpty ? stored : stored.filter { !pendingRemoves.contains(ObjectKey($0)) }
        memberSetStorage = nil
        for object in pendingAdds { Self.insert(object, into: &list, indexedBy: &memberSetStorage) }
        members = list
        storedMembers = stored
        pendingAdds = []
        pendingAddSet = nil
        pendingRemoves = []
    }

    /// This context's additions and removals since the relationship loaded,
    /// waiting to be laid over what the store lists when it loads again; nil
    /// when it is not loaded (its changes are pending already).
    func rebased() -> ToManyState? {
        guard let members else { return nil }
        let rebased = ToManyState()
        let before = Set(storedMembers.map(ObjectKey.init))
        let now = memberSetStorage ?? Set(members.map(ObjectKey.init))
        for object in members where !before.contains(ObjectKey(object)) { rebased.add(object) }
        for object in storedMembers where !now.contains(ObjectKey(object)) { rebased.remove(object) }
        return rebased
    }

    /// `current` in the order `preferred` gives its members, followed by those
    /// `preferred` lacks in their order in `current`: a context's order for
    /// an ordered to-many, kept over members another context changed.
    static func order(_ current: [ManagedObject], preferring preferred: [ManagedObject]) -> [ManagedObject] {
        let present = Set(current.map(ObjectKey.init))
        var placed = Set<ObjectKey>()
        var order: [ManagedObject] = []
        for member in preferred where present.contains(ObjectKey(member)) {
            if placed.insert(ObjectKey(member)).inserted { order.append(member) }
        }
        return order + current.filter { !placed.contains(ObjectKey($0)) }
    }

    /// Puts the loaded members in `order`, which holds exactly the same
    /// objects (an ordered to-many reordered); false when nothing moved.
    @discardableResult
    func reorder(_ order: [ManagedObject]) -> Bool {
        guard let current = members, current.count == order.count,
              !zip(current, order).allSatisfy({ $0 === $1 }) else { return false }
        members = order
        return true
    }

    /// Adds `object`; false when it was already there.
    @discardableResult
    func add(_ object: ManagedObject) -> Bool {
        guard var list = members else {
            // A pending removal stays: the stored member is dropped at load and
            // this one appended, so an ordered relationship puts a member
            // removed and added again last, as when it was loaded.
            Self.insert(object, into: &pendingAdds, indexedBy: &pendingAddSet)
            return true
        }
        members = nil  // `list` is then the only reference: appended in place
        defer { members = list }
        return Self.insert(object, into: &list, indexedBy: &memberSetStorage)
    }

    /// `add(_:)` for an object the caller knows is not a member, without
    /// asking: a set of identities is kept in step if one was built, but none
    /// is built for it, so a loop pointing new objects at one owner hashes
    /// nothing.
    func addAbsent(_ object: ManagedObject) {
        guard var list = members else {
            Self.append(object, to: &pendingAdds, indexedBy: &pendingAddSet)
            return
        }
        members = nil
        defer { members = list }
        Self.append(object, to: &list, indexedBy: &memberSetStorage)
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    func remove(_ object: ManagedObject) -> Bool {
        guard var list = members else {
            Self.remove(object, from: &pendingAdds, indexedBy: &pendingAddSet)
            pendingRemoves.insert(ObjectKey(object))
            return true
        }
        members = nil
        defer { members = list }
        return Self.remove(object, from: &list, indexedBy: &memberSetStorage)
    }

    // Membership of a list of distinct objects: a scan while the list is
    // short, else a set of identities kept beside it (`index`, built on the
    // first question past the bound and kept in step from then on). Most
    // to-manys hold a few members; a set for each cost an allocation, and
    // one more at every doubling, for each handful of members added.
    private static let scannedMembers = 16
    /// The longest list a debug build scans to check `addAbsent`'s caller.
    private static let checkedScan = 1_024

    /// Whether `list`'s membership is a scan: no set yet, and at most
    /// `scannedMembers` objects once `growing` more are in.
    private static func scans(_ list: [ManagedObject], _ index: Set<ObjectKey>?, growing: Int = 0) -> Bool {
        index == nil && list.count + growing <= scannedMembers
    }

    private static func list(_ list: [ManagedObject], indexedBy index: inout Set<ObjectKey>?, contains object: ManagedObject) -> Bool {
        guard !scans(list, index) else { return list.contains { $0 === object } }
        return withIndex(of: list, &index) { $0.contains(ObjectKey(object)) }
    }

    /// Appends `object` unless `list` holds it already; false when it did.
    @discardableResult
    private static func insert(_ object: ManagedObject, into list: inout [ManagedObject], indexedBy index: inout Set<ObjectKey>?) -> Bool {
        if scans(list, index, growing: 1) {
            guard !list.contains(where: { $0 === object }) else { return false }
        } else {
            guard withIndex(of: list, &index, { $0.insert(ObjectKey(object)).inserted }) else { return false }
        }
        list.append(object)
        return true
    }

    private static func append(_ object: ManagedObject, to list: inout [ManagedObject], indexedBy index: inout Set<ObjectKey>?) {
        // Checked in debug builds, so every test that takes this path proves
        // the caller's claim: by the identity set when there is one, else by a
        // scan, bounded so that a debug build importing many objects into one
        // owner stays linear.
        assert(index.map { !$0.contains(ObjectKey(object)) }
               ?? (list.count > Self.checkedScan || !list.contains { $0 === object }),
               "a to-many member listed twice")
        index?.insert(ObjectKey(object))
        list.append(object)
    }

    /// Takes `object` out of `list`; false when it was not there. Every
    /// occurrence goes: a damaged store's join table can list a member twice.
    @discardableResult
    private static func remove(_ object: ManagedObject, from list: inout [ManagedObject], indexedBy index: inout Set<ObjectKey>?) -> Bool {
        if !scans(list, index) {
            guard withIndex(of: list, &index, { $0.remove(ObjectKey(object)) != nil }) else { return false }
        }
        let count = list.count
        list.removeAll { $0 === object }
        return list.count < count
    }

    private static func withIndex<Result>(
        of list: [ManagedObject], _ index: inout Set<ObjectKey>?, _ body: (inout Set<ObjectKey>) -> Result
    ) -> Result {
        var set = index ?? Set(list.map(ObjectKey.init))
        index = nil  // `set` is then the only reference: mutated in place
        defer { index = set }
        return body(&set)
    }
}

/// An object's committed row or, while it is a fault fetched with
/// `fetchBatchSize`, its batch: never both (a fault joins a batch without a
/// row, and materialising ends the batch), so one field holds either. With
/// the shared change masks and the read time kept by the row cache, that
/// takes an object from 182 bytes to 160, an allocator's 160-byte size class
/// rather than the 192-byte one.
enum RowOrBatch {
    case none
    case row(RowSnapshot)
    case batch(FaultBatch)
}

/// Faults fetched in one batch: firing any loads all that are still faults.
final class FaultBatch {
    var objects: [ManagedObject]
    /// Run with the batch's members once it has fired: the fetch's prefetch of
    /// `relationshipKeyPathsForPrefetching`, batch by batch as Core Data does.
    /// Handed in by the fetch, so firing a fault needs no knowledge of fetching.
    let afterFiring: ((ManagedObjectContext, [ManagedObject]) -> Void)?
    init(_ objects: [ManagedObject], afterFiring: ((ManagedObjectContext, [ManagedObject]) -> Void)? = nil) {
        self.objects = objects
        self.afterFiring = afterFiring
    }
}

extension ManagedObject {
    func resetChangeFlags() {
        changeMasks.clearAll()
    }
}
