import FaultlineSchema
import FaultlineSQLite

/// Parents' aggregates over a run of inserted children, added up by the
/// writer (InsertedChildrenTally): one pass over the children in key order
/// into a table of totals per parent, then one UPDATE per parent. SQLite's
/// GROUP BY would sort every child first.
///
/// Every total is what SQLite's aggregate gives for the group. A value that
/// cannot be added up exactly as SQLite would (a sum past Int64, text where a
/// number belongs, a real beside an integer in a minimum) stops the pass
/// before anything is written, and the caller runs the statement.
enum InsertedChildTotals {
    /// One function's running value for one parent.
    private enum Total {
        case none
        case integer(Int64)
        case real(Double)
    }

    /// Updates the parents of the children inserted with keys `keys`; false,
    /// with nothing written, when a value is not one to add up here.
    static func apply(_ tally: InsertedChildrenTally, over keys: ClosedRange<Int64>, on connection: Connection) throws -> Bool {
        let parts = tally.parts
        let start = parts.map { part -> Total in
            switch part.aggregate {
            case .count, .sum, .countOf: .integer(0)
            case .min, .max: .none
            }
        }
        var parents = ParentSlots()
        var totals: [Total] = []
        let addedUp = try connection.visitRows(tally.read, bindings: [.integer(keys.lowerBound), .integer(keys.upperBound)]) { row in
            guard row.type(at: 0) == .integer else { return false }
            let (slot, isNew) = parents.slot(for: row.int64(at: 0))
            if isNew { totals.append(contentsOf: start) }
            let base = slot * parts.count
            for (offset, part) in parts.enumerated() {
                guard add(part.aggregate, row, argument: Int(part.column), to: &totals[base + offset]) else { return false }
            }
            return true
        }
        guard addedUp else { return false }
        guard parents.count > 0 else { return true }
        // Parents in key order, as the GROUP BY hands them to its UPDATE.
        let update = try connection.cachedStatement(tally.update)
        for (parent, slot) in parents.pairs.sorted(by: { $0.key < $1.key }) {
            try update.bind(parent, at: 1)
            for offset in parts.indices {
                let parameter = Int32(offset + 2)
                switch totals[slot * parts.count + offset] {
                case .none: try update.bindNull(at: parameter)
                case .integer(let value): try update.bind(value, at: parameter)
                case .real(let value): try update.bind(value, at: parameter)
                }
            }
            try update.execute()
        }
        return true
    }

    /// Adds the row's value of `argument` to `total` as `aggregate` would;
    /// false for a value it would not add up the same way.
    @inline(__always)
    private static func add(
        _ aggregate: InsertedChildrenTally.Aggregate, _ row: FunctionArguments, argument column: Int, to total: inout Total
    ) -> Bool {
        switch aggregate {
        case .count:
            return increment(&total, by: 1)
        case .countOf:
            return row.type(at: column) == .null || increment(&total, by: 1)
        case .sum:
            switch row.type(at: column) {
            case .null: return true
            case .integer: return increment(&total, by: row.int64(at: column))
            case .real, .text, .blob: return false
            }
        case .min, .max:
            let isMin = aggregate == .min
            switch (row.type(at: column), total) {
            case (.null, _):
                return true
            case (.integer, .none):
                total = .integer(row.int64(at: column))
            case (.integer, .integer(let best)):
                let value = row.int64(at: column)
                if isMin ? value < best : value > best { total = .integer(value) }
            case (.real, .none):
                total = .real(row.double(at: column))
            case (.real, .real(let best)):
                let value = row.double(at: column)
                if isMin ? value < best : value > best { total = .real(value) }
            default:
                // Mixed integers and reals compare by SQLite's rules; text
                // and blobs rank above numbers.
                return false
            }
            return true
        }
    }

    @inline(__always)
    private static func increment(_ total: inout Total, by amount: Int64) -> Bool {
        guard case .integer(let value) = total else { return false }
        let (sum, overflow) = value.addingReportingOverflow(amount)
        if overflow { return false }
        total = .integer(sum)
        return true
    }
}
