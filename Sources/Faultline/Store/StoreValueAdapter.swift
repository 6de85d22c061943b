import FaultlineSQLite

/// Values a store written by another program keeps in its own form: decoded
/// after each row is read, encoded before each save. Core Data's external
/// binary data markers are the one case (CoreDataStore/CoreDataValueAdapter.swift);
/// Faultline's own stores have none, and pay one nil check a row.
protocol StoreValueAdapter: AnyObject, Sendable {
    /// Decodes `values` (a row of `entityIndex` just read) in place; returns a
    /// number that depends on the work done, so the optimiser keeps it.
    func decode(_ values: AttributeValues, entityIndex: Int) -> Int
    /// `request` with its values in the store's form, inside the save's
    /// transaction on `connection`; may write files beside the store, which
    /// `saveEnded(committed: false)` removes again.
    func encoded(_ request: SaveRequest, on connection: Connection) throws -> SaveRequest
    /// Called once the save's transaction has committed or rolled back.
    func saveEnded(committed: Bool)
}
