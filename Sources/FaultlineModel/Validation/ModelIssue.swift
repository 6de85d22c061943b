// The problems `checked()` can find. Each issue names the entity and property it
// is about and carries a typed kind, so callers (and tests) match on the kind and
// people read the message.

/// One problem found in a model.
public struct ModelIssue: Hashable, Sendable, CustomStringConvertible {
    /// The entity concerned, when there is one (as written, possibly empty).
    public let entity: String?
    /// The property concerned, when there is one; composite elements and index or
    /// constraint entries are named by key path (`colorScheme.primary`).
    public let property: String?
    /// What is wrong.
    public let kind: Kind

    public init(entity: String?, property: String?, kind: Kind) {
        self.entity = entity
        self.property = property
        self.kind = kind
    }

    public var description: String {
        let place = [entity.map { $0.isEmpty ? "<unnamed>" : $0 }, property.map { $0.isEmpty ? "<unnamed>" : $0 }]
            .compactMap { $0 }
            .joined(separator: ".")
        return place.isEmpty ? kind.message : "\(place): \(kind.message)"
    }
}
