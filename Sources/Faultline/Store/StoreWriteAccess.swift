import Foundation
import FaultlineSQLite

/// What a request that writes rows directly — a batch insert, update or
/// delete — may use of an open store, and nothing more: the model, the
/// compiled schema and per-entity plans, the store's identifier and key
/// floors, and its writer (one IMMEDIATE transaction, published after commit).
/// The coordinator hands it out (`writeAccess`); Batch/ reaches no other part
/// of the coordinator.
struct StoreWriteAccess: Sendable {
    let model: CheckedModel
    let schema: StoreSchema
    let plans: [EntityStorePlan]
    /// The store's identifier in every `ManagedObjectID` it hands out.
    let identifier: UInt32
    /// Keys of these root entity numbers start above the value (StoreConfiguration.keyFloors).
    let keyFloors: [Int: Int64]
    let writer: StoreWriter
    private let valueAdapter: (any StoreValueAdapter)?
    /// The source a commit is published with: the coordinator's identity.
    let source: ObjectIdentifier
    /// The store's history recording; nil when it records none.
    let history: HistoryRecorder?

    init(_ coordinator: PersistentStoreCoordinator) {
        model = coordinator.model
        schema = coordinator.schema
        plans = coordinator.plans
        identifier = coordinator.identifier
        keyFloors = coordinator.keyFloors
        writer = coordinator.writer
        valueAdapter = coordinator.valueAdapter
        source = ObjectIdentifier(coordinator)
        history = coordinator.history
    }

    /// Records a batch request's changes in the store's persistent history,
    /// inside its transaction; does nothing for a store that records none.
    /// `commit` is built only when there is history to record.
    /// Returns the transaction's key.
    func recordHistory(on connection: Connection, _ commit: (HistoryRecorder) -> HistoryCommit) throws -> Int64? {
        guard let history else { return nil }
        let changes = commit(history)
        // A request that changed nothing leaves no transaction, as a save without changes does.
        if changes.isEmpty { return nil }
        return try history.record(changes, on: connection, known: writer.keyCounters)
    }

    /// Whether a value of `attribute` must pass through the store's value
    /// adapter (Core Data's external-storage markers and files). A direct
    /// write stores SQL values as given, so batch requests refuse such
    /// attributes rather than store bytes Core Data would misread.
    func writesThroughValueAdapter(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> Bool {
        valueAdapter?.adapts(attribute, of: entity) ?? false
    }

    /// The columns a batch request's predicate sees in Core Data's external-storage form.
    var markedAttributes: MarkedDataAttributes { valueAdapter?.markedAttributes ?? .none }

    /// The files beside the store the rows of `ids` own (Core Data's external
    /// binary data) through `attributes` (nil: all), read before a batch
    /// delete removes the rows or a batch update clears the attributes.
    func files(ownedBy ids: [ManagedObjectID], attributes: Set<Int>? = nil, on connection: Connection) throws -> [URL] {
        try valueAdapter?.files(ownedBy: ids, attributes: attributes, on: connection) ?? []
    }

    /// Removes files whose rows a committed batch delete removed.
    func release(_ files: [URL]) {
        if !files.isEmpty { valueAdapter?.release(files) }
    }
}
