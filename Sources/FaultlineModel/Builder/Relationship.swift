// `Relationship`: the builder's relationship declaration.

/// Declares a relationship by destination and inverse *names*:
/// `Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: .cascade)`.
public struct Relationship: EntityMember {
    public let name: String
    public let destinationName: String
    public let inverseName: String?
    public let isToMany: Bool
    public let isOrdered: Bool
    public let isOptional: Bool
    public let deleteRule: DeleteRule
    public let minCount: Int
    public let maxCount: Int

    /// - Parameters:
    ///   - toMany: to-many (`maxCount` 0 unless given) or to-one (`maxCount` 1).
    ///   - maxCount: an explicit bound for a to-many relationship.
    public init(_ name: String, to destination: String, inverse: String? = nil, toMany: Bool = false,
                ordered: Bool = false, optional: Bool = true, deleteRule: DeleteRule = .nullify,
                minCount: Int = 0, maxCount: Int? = nil) {
        self.name = name
        self.destinationName = destination
        self.inverseName = inverse
        self.isToMany = toMany
        self.isOrdered = ordered
        self.isOptional = optional
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount ?? (toMany ? 0 : 1)
    }

    public func install(in entity: EntityDescription) {
        let relationship = RelationshipDescription()
        relationship.name = name
        relationship.unresolvedDestinationName = destinationName
        relationship.unresolvedInverseName = inverseName
        relationship.isOrdered = isOrdered
        relationship.isOptional = isOptional
        relationship.deleteRule = deleteRule
        relationship.minCount = minCount
        relationship.maxCount = maxCount
        entity.properties.append(relationship)
    }
}
