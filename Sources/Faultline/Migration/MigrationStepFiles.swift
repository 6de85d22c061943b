import Foundation
import FaultlineSQLite
import FaultlineSupport

/// External binary data (Core Data's `allowsExternalBinaryDataStorage`
/// files beside the store) written or made obsolete by a staged migration
/// step's custom handlers.
///
/// A handler's save or batch delete is a savepoint inside the step's one
/// transaction, so whether its files stay is the step's decision, not the
/// savepoint's: a save the savepoint rolls back removes the files it wrote at
/// once; a released savepoint's files wait — the files it wrote are removed if
/// the step then rolls back, the files it made obsolete only once the step has
/// committed (removing them earlier would lose the data of rows a rolled-back
/// step still refers to).
final class MigrationStepFiles: Sendable {
    private let adapters = Locked<[HandlerValueAdapter]>([])

    /// The adapter a handler's coordinator uses: the store's own `base`, its
    /// saves' ends deferred to the step's; nil when the store has none.
    func adapter(over base: (any StoreValueAdapter)?) -> (any StoreValueAdapter)? {
        guard let base else { return nil }
        let adapter = HandlerValueAdapter(base: base)
        adapters.withLock { $0.append(adapter) }
        return adapter
    }

    /// Called once the step's transaction has committed or rolled back.
    func stepEnded(committed: Bool) {
        for adapter in adapters.withLock({ $0 }) { adapter.stepEnded(committed: committed) }
    }
}

/// A store's value adapter, with the end of each save deferred to the end
/// of the step (`MigrationStepFiles`).
private final class HandlerValueAdapter: StoreValueAdapter {
    let base: any StoreValueAdapter
    private let held = Locked<(saves: [AdaptedSave], released: [URL])>(([], []))

    init(base: any StoreValueAdapter) { self.base = base }

    func decode(_ values: AttributeValues, entityIndex: Int) -> Int { base.decode(values, entityIndex: entityIndex) }

    func decode(_ stored: AttributeValue) -> AttributeValue { base.decode(stored) }

    var markedAttributes: MarkedDataAttributes { base.markedAttributes }

    func encoded(_ request: SaveRequest, on connection: Connection) throws -> AdaptedSave {
        try base.encoded(request, on: connection)
    }

    func saveEnded(_ save: AdaptedSave, committed: Bool) {
        guard committed else { return base.saveEnded(save, committed: false) }
        held.withLock { $0.saves.append(save) }
    }

    func adapts(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> Bool { base.adapts(attribute, of: entity) }

    func files(ownedBy ids: [ManagedObjectID], attributes: Set<Int>?, on connection: Connection) throws -> [URL] {
        try base.files(ownedBy: ids, attributes: attributes, on: connection)
    }

    func release(_ files: [URL]) { held.withLock { $0.released += files } }

    func stepEnded(committed: Bool) {
        let (saves, released) = held.withLock { held in
            defer { held = ([], []) }
            return held
        }
        for save in saves { base.saveEnded(save, committed: committed) }
        if committed { base.release(released) }
    }
}
