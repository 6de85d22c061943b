// Name lookups on an entity, including inherited properties as Core Data's
// `propertiesByName` does. Every walk up the superentity chain is guarded against
// cycles, so odd graphs built by hand cannot hang a lookup.

extension EntityDescription {
    /// The entity and its ancestors, root first. Stops at a repeated entity.
    package var ancestryFromRoot: [EntityDescription] {
        var chain: [EntityDescription] = []
        var visited = Set<ObjectIdentifier>()
        var current: EntityDescription? = self
        while let entity = current, visited.insert(ObjectIdentifier(entity)).inserted {
            chain.append(entity)
            current = entity.superentity
        }
        return chain.reversed()
    }

    /// Own and inherited properties, inherited first, each level in declaration order.
    var allProperties: [PropertyDescription] {
        ancestryFromRoot.flatMap(\.properties)
    }

    /// Own and inherited properties by name. When names collide (a model error),
    /// the one declared closest to the root wins.
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Own and inherited attributes (including derived and composite) by name.
    public var attributesByName: [String: AttributeDescription] {
        propertiesByName.compactMapValues { $0 as? AttributeDescription }
    }

    /// Own and inherited relationships by name.
    public var relationshipsByName: [String: RelationshipDescription] {
        propertiesByName.compactMapValues { $0 as? RelationshipDescription }
    }

    /// Direct sub-entities by name.
    public var subentitiesByName: [String: EntityDescription] {
        Dictionary(subentities.map { ($0.name ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether this entity is `entity` or one of its descendants.
    public func isKindOf(entity: EntityDescription) -> Bool {
        ancestryFromRoot.contains { $0 === entity }
    }
}

extension EntityDescription {
    /// The property named by `keyPath`: a property name, or a dotted path into
    /// composite attributes (`colorScheme.primary`). Inherited properties count.
    package func property(forKeyPath keyPath: String) -> PropertyDescription? {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = components.first, var current = propertiesByName[first] else { return nil }
        for component in components.dropFirst() {
            guard let composite = current as? CompositeAttributeDescription,
                  let next = composite.elements.first(where: { $0.name == component }) else { return nil }
            current = next
        }
        return current
    }
}
