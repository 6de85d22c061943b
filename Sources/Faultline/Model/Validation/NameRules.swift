// Rules for entity, property and index names. Names become SQL identifiers
// (`Z` + the name upper-cased), so they are restricted to ASCII identifiers and
// kept out of the store's own namespace (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z_FOK_…`,
// `Z_PRIMARYKEY`, `Z_METADATA`, …: any column or table that would start `Z_`)
// and away from `ManagedObject`'s own members (`objectID`, `entity`, …), which a
// property of the same name would shadow.

enum NameRules {
    enum Subject {
        case entity, property, index
    }

    /// Names of ManagedObject members a property must not shadow.
    static let reservedPropertyNames: Set<String> = [
        "objectID", "entity", "managedObjectContext", "isFault", "isInserted", "isUpdated",
        "isDeleted", "hasChanges", "hasPersistentChangedValues", "faultingState",
        "changedValues", "committedValues", "description", "debugDescription", "hash",
        "hashValue", "self", "class", "superclass", "zone", "isEqual", "value", "setValue",
    ]

    /// The store's own bookkeeping names, compared case-insensitively.
    static let storeNames: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// The problem with `name`, or `nil` when it is acceptable.
    static func problem(with name: String?, kind: Subject) -> ModelIssue.Kind? {
        guard let name, !name.isEmpty else { return .missingName }
        guard isIdentifier(name) else { return .invalidIdentifier(name) }
        let upper = name.uppercased()
        if storeNames.contains(upper) || ("Z" + upper).hasPrefix("Z_") {
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
