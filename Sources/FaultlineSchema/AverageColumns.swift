/// The hidden columns behind an `@avg` derived attribute: the running sum and
/// count of the non-NULL values it averages, so a change to one child updates
/// the average in O(1) instead of re-reading every sibling (which made a bulk
/// insert quadratic). Both names start with `Z_`, a prefix no model property
/// can produce, so they never collide with an attribute's column.
package enum AverageColumns {
    package static func sum(of column: String) -> String { "Z_DA_\(column)_SUM" }
    package static func count(of column: String) -> String { "Z_DA_\(column)_COUNT" }
}
