// Rules for entity, property and index names. Names become SQL identifiers
// (`Z` + the name upper-cased), so they are restricted to ASCII identifiers and
// kept out of the store's own namespace (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z_FOK_…`,
// `Z_PRIMARYKEY`, `Z_METADATA`, …: a table that would start `Z_`, a column that
// would be one of the bookkeeping columns)
// and away from `ManagedObject`'s own members (`objectID`, `entity`, …), which a
// property of the same name would shadow.

enum NameRules {
    enum Subject {
        case entity, property, index
    }

    /// Names a property must not take. Core Data's rule: no name of a
    /// no-parameter method of NSObject or NSManagedObject (NSPropertyDescription's
    /// documentation), so `value` (only `value(forKey:)` exists) or `isEqual`
    /// (it takes an argument) are ordinary names, as in Apple's own stores.
    /// `hashValue` is added because a Swift `ManagedObject` is `Hashable`.
    static let reservedPropertyNames: Set<String> = [
        "objectID", "entity", "managedObjectContext", "isFault", "isInserted", "isUpdated",
        "isDeleted", "hasChanges", "hasPersistentChangedValues", "faultingState",
        "changedValues", "changedValuesForCurrentEvent", "description", "debugDescription", "hash",
        "hashValue", "self", "class", "superclass", "zone",
    ]

    /// The store's own bookkeeping names, compared case-insensitively.
    static let storeNames: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// The problem with `name`, or `nil` when it is acceptable.
    static func problem(with name: String?, kind: Subject) -> ModelIssue.Kind? {
        guard let name, !name.isEmpty else { return .missingName }
        guard isIdentifier(name) else { return .invalidIdentifier(name) }
        let upper = name.uppercased()
        if storeNames.contains(upper) { return .reservedName(name) }
        // A leading `_` makes a `Z_…` column or table. Tables of that shape are
        // the store's (join tables, Z_PRIMARYKEY…), so entities keep clear of
        // them; a column only collides with Z_PK, Z_ENT, Z_OPT and the
        // ordering columns Z_FOK_…, so other property names are Core Data's
        // and ours (Apple's knowledgeC store has `_CDEntityMetadataKey__name`).
        if kind == .property ? ["Z_PK", "Z_ENT", "Z_OPT"].contains("Z" + upper) || ("Z" + upper).hasPrefix("Z_FOK_")
            : ("Z" + upper).hasPrefix("Z_") {
            return .reservedName(name)
        }
        if kind == .property, reservedPropertyNames.contains(name) {
            return .reservedName(name)
        }
        return nil
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first,
              DerivationExpressionParser.isNameStart(first) else { return false }
        return name.unicodeScalars.allSatisfy(DerivationExpressionParser.isNameContinuation)
    }
}
