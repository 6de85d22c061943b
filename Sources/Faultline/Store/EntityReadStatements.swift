/// The statements that read one entity's to-many relationships, built when
/// the coordinator opens: their text joins the destination's plan (its
/// hierarchy select) with the source's storage of the relationship, so it
/// needs both plans, and firing a relationship fault or prefetching a level
/// builds no SQL.
struct EntityReadStatements: Sendable {
    struct ToMany: Sendable {
        /// The members of one source, its key bound to parameter 1, in order
        /// for an ordered relationship.
        let members: String
        /// The members of many sources, their keys bound to parameter 1 as one
        /// JSON array, grouped by source (and in order within one).
        let prefetch: String
        /// Where a prefetched row holds its source's key.
        let ownerPosition: Int32
    }

    /// By relationship index; nil for a to-one or a transient relationship.
    let toMany: [ToMany?]

    init(entity: CheckedEntity, plans: [EntityStorePlan]) {
        let mapping = plans[entity.index].mapping
        toMany = entity.relationships.map { relationship in
            let plan = plans[relationship.destinationEntityIndex]
            let keys = "(SELECT value FROM json_each(?))"
            switch mapping.relationships[relationship.index] {
            case let .destinationKey(_, column, order, _):
                // The key is in the select list already when the inverse
                // to-one is stored there: a prefetch reads it once.
                let selected = plan.columnPositions[column]
                return ToMany(
                    members: plan.select("WHERE t0.\(column) = ?" + (order.map { " ORDER BY t0.\($0)" } ?? "")),
                    prefetch: "SELECT \(plan.selectList)\(selected == nil ? ", t0.\(column)" : "") FROM \(plan.table) t0"
                        + " WHERE t0.\(column) IN \(keys)" + (order.map { " ORDER BY t0.\(column), t0.\($0)" } ?? ""),
                    ownerPosition: selected ?? plan.selectedColumnCount)
            case let .joinTable(table, sourceColumn, destinationColumn, order):
                return ToMany(
                    members: plan.select("JOIN \(table) j ON t0.Z_PK = j.\(destinationColumn) WHERE j.\(sourceColumn) = ?"
                        + (order.map { " ORDER BY j.\($0)" } ?? "")),
                    prefetch: "SELECT \(plan.selectList), j.\(sourceColumn) FROM \(plan.table) t0 JOIN \(table) j"
                        + " ON t0.Z_PK = j.\(destinationColumn) WHERE j.\(sourceColumn) IN \(keys)"
                        + (order.map { " ORDER BY j.\(sourceColumn), j.\($0)" } ?? ""),
                    ownerPosition: plan.selectedColumnCount)
            case .foreignKey, .transient:
                return nil
            }
        }
    }

    /// `SELECT columns FROM table WHERE Z_PK = ?`: some columns of one row by
    /// its key (the external-data file names a save replaces or deletes).
    static func columns(_ columns: [String], ofRowIn table: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE Z_PK = ?"
    }
}
