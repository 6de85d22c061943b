import Foundation
import FaultlineSQLite

/// Values a store keeps in a form other than the value: decoded after each
/// row is read, encoded before each save. Core Data's external binary data
/// markers are the one case (CoreDataValueAdapter.swift), in stores Core Data
/// wrote and in Faultline's file stores whose model has such attributes;
/// other stores have none, and pay one nil check a row.
protocol StoreValueAdapter: AnyObject, Sendable {
    /// Decodes `values` (a row of `entityIndex` just read) in place; returns a
    /// number that depends on the work done, so the optimiser keeps it.
    func decode(_ values: AttributeValues, entityIndex: Int) -> Int
    /// One stored value of an attribute in `markedAttributes`, decoded (a
    /// dictionary fetch reads single columns, not rows).
    func decode(_ stored: AttributeValue) -> AttributeValue
    /// The attributes whose columns this adapter stores in its own form.
    var markedAttributes: MarkedDataAttributes { get }
    /// `request` with its values in the store's form, inside the save's
    /// transaction on `connection`, with the files it wrote beside the store
    /// and the files it makes obsolete; `saveEnded` removes one or the other.
    func encoded(_ request: SaveRequest, on connection: Connection) throws -> AdaptedSave
    /// Called once the save's transaction has committed or rolled back.
    func saveEnded(_ save: AdaptedSave, committed: Bool)
    /// Whether the attribute's values pass through this adapter: a statement
    /// writing its column directly (a batch request) would bypass it.
    func adapts(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> Bool
    /// The files beside the store that the rows of `ids` own through the
    /// attributes at `attributes` (nil: every attribute), read inside the
    /// transaction that is about to delete the rows or clear those attributes
    /// (a batch delete or update).
    func files(ownedBy ids: [ManagedObjectID], attributes: Set<Int>?, on connection: Connection) throws -> [URL]
    /// Removes files whose rows a committed transaction deleted.
    func release(_ files: [URL])
}

/// One save in the store's form. The files belong to this save alone: two
/// saves' after-commit work can overlap once the writer is released.
struct AdaptedSave: Sendable {
    var request: SaveRequest
    /// Written for this save: removed if it rolls back.
    var written: [URL] = []
    /// Made obsolete by this save: removed once it commits.
    var released: [URL] = []
}
