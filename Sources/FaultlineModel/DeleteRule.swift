// What happens to the objects at the other end of a relationship when its source
// object is deleted. Names and raw values are Core Data's `NSDeleteRule`.

/// A relationship's delete rule.
public enum DeleteRule: UInt, Sendable, Hashable, CaseIterable {
    /// Leave the destination objects alone (the caller keeps the graph consistent).
    case noActionDeleteRule = 0
    /// Clear the inverse relationship of each destination object.
    case nullifyDeleteRule = 1
    /// Delete the destination objects too.
    case cascadeDeleteRule = 2
    /// Refuse to delete the source while it has destination objects.
    case denyDeleteRule = 3
}

// Short spellings for the declarative builder: `deleteRule: .cascade`.
extension DeleteRule {
    public static let noAction = DeleteRule.noActionDeleteRule
    public static let nullify = DeleteRule.nullifyDeleteRule
    public static let cascade = DeleteRule.cascadeDeleteRule
    public static let deny = DeleteRule.denyDeleteRule
}
