import Synchronization

/// The identity of a stored (or about to be stored) object: its store, its
/// concrete entity and its primary key. Sendable: IDs are what crosses between
/// contexts and threads; objects never do.
///
/// An object inserted and not yet saved has a *temporary* ID (a negative key,
/// unique in the process); a save replaces it with the permanent one, keeping
/// the object itself.
public struct ManagedObjectID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Tells stores apart, so an ID from one coordinator never matches another's.
    let storeIdentifier: UInt32
    // 32 bits beside the store's, so an ID takes two words instead of three:
    // IDs are keys of the registry and the row cache, fields of every object
    // and elements of every to-one array.
    private let entityIndex32: Int32
    /// `Z_PK`, or a negative number for a temporary ID.
    public let primaryKey: Int64

    /// The concrete entity's index in the checked model.
    @inline(__always)
    public var entityIndex: Int { Int(entityIndex32) }

    init(storeIdentifier: UInt32, entityIndex: Int, primaryKey: Int64) {
        self.storeIdentifier = storeIdentifier
        entityIndex32 = Int32(truncatingIfNeeded: entityIndex)
        self.primaryKey = primaryKey
    }

    /// Whether the object has not been saved yet.
    public var isTemporaryID: Bool { primaryKey < 0 }

    /// The entity number the store records in `Z_ENT`.
    public var entityNumber: Int { entityIndex + 1 }

    public var description: String {
        isTemporaryID
            ? "x-faultline://\(storeIdentifier)/\(entityNumber)/t\(-primaryKey)"
            : "x-faultline://\(storeIdentifier)/\(entityNumber)/p\(primaryKey)"
    }

    /// The entity and key folded into one word. Equality still compares every
    /// field. The store is left out: a registry or row cache holds one
    /// store's IDs, and its identifier is random per open, so hashing it made
    /// probe sequences (and the gate's instruction counts) differ from run to
    /// run.
    @inline(__always)
    private var hashWord: UInt64 {
        UInt64(bitPattern: primaryKey) ^ (UInt64(truncatingIfNeeded: entityIndex) << 44)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hashWord) }

    /// What `Dictionary` and `Set` call for a key. IDs are hashed on every
    /// registry, row-cache and change-set operation, several times per object
    /// fetched or saved, and `Hasher`'s SipHash costs ~100 instructions per
    /// word; splitmix64's finaliser (~10) spreads the keys as evenly. Keys are
    /// the store's own row numbers, not attacker-chosen strings, so SipHash's
    /// flooding resistance buys nothing here.
    ///
    /// Eight consecutive keys share one mixed group and take consecutive
    /// buckets: a fetch or prefetch reads rows in key order, and neighbouring
    /// buckets share cache lines (measurably faster full fetches and
    /// prefetches than scattered buckets). Keys that all share
    /// their low three bits still spread over every group, with linear probing
    /// filling the group's free neighbours.
    ///
    /// The price: a table of dense key ranges near Swift's maximum load (0.75)
    /// probes whole groups, so a lookup that misses, in random order, costs
    /// ~100 ns against ~36 ns for an ungrouped hash; hits and lower loads cost
    /// the same or less (a standalone -O loop over 95,000 dense keys). Groups
    /// of four cost less there and kept most of the fetch and prefetch gain.
    ///
    /// Temporary IDs are not grouped: they fill the registry's table of
    /// unsaved objects and a save's temporary-to-permanent map to full load
    /// in insertion order, where grouped runs cluster and a lookup probed
    /// ~20 buckets (per-object inserts of 10,000 rows: 463.3M -> 456.2M
    /// instructions with them spread).
    @inline(__always)
    public func _rawHashValue(seed: Int) -> Int {
        let word = hashWord
        let seed = UInt64(bitPattern: Int64(seed))
        if isTemporaryID { return Int(truncatingIfNeeded: SplitMix64.finalize(word ^ seed)) }
        let group = SplitMix64.finalize((word >> 3) ^ seed)
        return Int(truncatingIfNeeded: (group << 3) | (word & 7))
    }

    private static let nextTemporaryKey = Atomic<Int64>(0)

    static func temporary(store: UInt32, entityIndex: Int) -> ManagedObjectID {
        let key = nextTemporaryKey.wrappingSubtract(1, ordering: .relaxed).newValue
        return ManagedObjectID(storeIdentifier: store, entityIndex: entityIndex, primaryKey: key)
    }
}

/// What each open coordinator's IDs need from it, by store identifier: an ID
/// holds only its entity's index, and a predicate argument or a URI names the
/// entity and the store's UUID. Coordinators register when they open and
/// leave when they go.
enum OpenStores {
    struct Entry {
        var entityNames: [String]
        /// `Z_METADATA.Z_UUID`, upper-case as Core Data writes it.
        var storeUUID: String
        /// The store file's canonical path (`PersistentStoreCoordinator.canonicalPath`);
        /// nil for an in-memory store.
        var path: String?
    }

    private static let entries = Locked<[UInt32: Entry]>([:])

    /// A store identifier no open coordinator has: random, so IDs of two runs
    /// differ too, and never one in use, so two stores' IDs never compare equal.
    static func newIdentifier() -> UInt32 {
        entries.withLock { table in
            while true {
                let candidate = UInt32.random(in: 1...UInt32.max)
                if table[candidate] == nil {
                    table[candidate] = Entry(entityNames: [], storeUUID: "", path: nil)
                    return candidate
                }
            }
        }
    }

    static func register(_ identifier: UInt32, entityNames names: [String], storeUUID: String, path: String?) {
        entries.withLock { $0[identifier] = Entry(entityNames: names, storeUUID: storeUUID, path: path) }
    }

    /// Whether a live coordinator of this process has the store file at the
    /// canonical `path` open.
    static func isOpen(path: String) -> Bool {
        entries.withLock { table in table.values.contains { $0.path == path } }
    }

    static func unregister(_ identifier: UInt32) {
        entries.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    static func entry(_ identifier: UInt32) -> Entry? {
        entries.withLock { $0[identifier] }
    }

    static func entityName(of id: ManagedObjectID) -> String? {
        guard let names = entry(id.storeIdentifier)?.entityNames, names.indices.contains(id.entityIndex) else { return nil }
        return names[id.entityIndex]
    }

    /// The open coordinators' identifiers over the store with `uuid`.
    static func identifiers(ofStoreUUID uuid: String) -> [UInt32] {
        entries.withLock { table in
            table.filter { $0.value.storeUUID.caseInsensitiveCompare(uuid) == .orderedSame }.map(\.key).sorted()
        }
    }
}

/// `self == %@` and `self IN %@` with object IDs, as Core Data accepts them.
extension ManagedObjectID: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        guard let name = OpenStores.entityName(of: self) else {
            throw .unsupportedArgumentType(index: 0, type: "object ID \(self) of a store that is not open")
        }
        return .objectID(PredicateObjectID(entityName: name, primaryKey: primaryKey))
    }
}
