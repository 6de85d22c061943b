import FaultlineSQLite

extension Statement {
    /// The entity index a `Z_ENT` column names; throws for a number no entity
    /// of the model has (a damaged or foreign store), which must not become an
    /// ID (an index past 32 bits would wrap onto a real entity).
    func entityIndex(at column: Int32, primaryKey: Int64, entityCount: Int) throws -> Int {
        let number = int64(at: column)
        guard number >= 1, number <= Int64(entityCount) else {
            throw StoreError.unknownEntityNumber(number, primaryKey: primaryKey)
        }
        return Int(number) - 1
    }
}
