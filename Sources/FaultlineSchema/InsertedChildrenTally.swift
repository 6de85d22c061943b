/// The aggregates an INSERT trigger keeps in the parents of the rows it
/// inserts, summed up by Faultline's writer instead of by SQLite's GROUP BY
/// (InsertedChildrenAggregates): the writer reads the inserted children's
/// link and values in key order (`read`, `?1` and `?2` the first and last
/// key, its rows handed over by `Connection.visitRows`), adds them up per
/// parent, then runs `update` once per parent, bound with the parent's key
/// (`?1`) and each function's total in order (`?2` on).
///
/// The GROUP BY sorts every inserted row before it adds anything up; a few
/// parents for many children are added up in a small table of totals
/// instead. The totals must be SQLite's: `Function` says how each adds up,
/// and a value it cannot add exactly (an integer sum that overflows, a real
/// beside an integer in a minimum) sends the writer back to the statement.
public struct InsertedChildrenTally: Sendable, Hashable {
    /// One aggregate of a group of children, as SQLite computes it.
    public enum Function: Sendable, Hashable {
        /// `COUNT(*)`.
        case count
        /// `SUM(COALESCE(c.column, 0))` of an integer column.
        case sum(String)
        /// `COUNT(c.column)`: the rows whose value is not NULL.
        case countOf(String)
        /// `MIN(c.column)`, `MAX(c.column)` of a numeric column.
        case min(String)
        case max(String)

        var aggregate: Aggregate {
            switch self {
            case .count: .count
            case .sum: .sum
            case .countOf: .countOf
            case .min: .min
            case .max: .max
            }
        }

        /// The child column it reads, nil for a count of rows.
        public var column: String? {
            switch self {
            case .count: nil
            case .sum(let column), .countOf(let column), .min(let column), .max(let column): column
            }
        }

        var sql: String {
            switch self {
            case .count: "COUNT(*)"
            case .sum(let column): "SUM(COALESCE(c.\(column), 0))"
            case .countOf(let column): "COUNT(c.\(column))"
            case .min(let column): "MIN(c.\(column))"
            case .max(let column): "MAX(c.\(column))"
            }
        }
    }

    /// What a function does with a value, without its column's name.
    public enum Aggregate: Sendable, Hashable {
        case count, sum, countOf, min, max
    }

    /// One function as the writer runs it: the argument of `read`'s visitor
    /// holding its value (0, the link, for a count of rows).
    public struct Part: Sendable, Hashable {
        public let aggregate: Aggregate
        public let column: Int32
    }

    /// The functions in the order of `update`'s parameters.
    public let functions: [Function]
    public let parts: [Part]
    /// The inserted children's link, then each column a function reads.
    public let read: String
    /// One parent's aggregates.
    public let update: String
}
