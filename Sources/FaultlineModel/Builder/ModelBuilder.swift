// The declarative builder: a result-builder front end that produces the same
// description classes as hand-written Core Data code.
//
//     let model = ManagedObjectModel {
//         Entity("Category") {
//             Attribute("name", .string).required().unique()
//             Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: .cascade)
//         }
//         Entity("Article") {
//             Attribute("title", .string)
//             Relationship("category", to: "Category", inverse: "articles")
//         }
//     }
//
// Destinations, inverses and parents are given by name and resolved once every
// entity exists; a name that does not resolve stays recorded on the description
// and `checked()` reports it (never a crash). Defaults match Core Data's
// (attributes and relationships optional, to-one, nullify).

/// Collects the entities of a model.
@resultBuilder
public enum ModelBuilder {
    public static func buildExpression(_ entity: Entity) -> [Entity] { [entity] }
    public static func buildBlock(_ parts: [Entity]...) -> [Entity] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Entity]?) -> [Entity] { part ?? [] }
    public static func buildEither(first part: [Entity]) -> [Entity] { part }
    public static func buildEither(second part: [Entity]) -> [Entity] { part }
    public static func buildArray(_ parts: [[Entity]]) -> [Entity] { parts.flatMap { $0 } }
}

/// Collects the members of an entity: attributes, composites, derived attributes,
/// relationships, uniqueness constraints and fetch indexes.
@resultBuilder
public enum EntityBuilder {
    public static func buildExpression(_ member: any EntityMember) -> [any EntityMember] { [member] }
    public static func buildBlock(_ parts: [any EntityMember]...) -> [any EntityMember] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any EntityMember]?) -> [any EntityMember] { part ?? [] }
    public static func buildEither(first part: [any EntityMember]) -> [any EntityMember] { part }
    public static func buildEither(second part: [any EntityMember]) -> [any EntityMember] { part }
    public static func buildArray(_ parts: [[any EntityMember]]) -> [any EntityMember] { parts.flatMap { $0 } }
}

/// Collects the elements of a composite: attributes and nested composites only,
/// so a relationship inside a composite does not even compile here.
@resultBuilder
public enum CompositeBuilder {
    public static func buildExpression(_ element: any CompositeElement) -> [any CompositeElement] { [element] }
    public static func buildBlock(_ parts: [any CompositeElement]...) -> [any CompositeElement] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any CompositeElement]?) -> [any CompositeElement] { part ?? [] }
    public static func buildEither(first part: [any CompositeElement]) -> [any CompositeElement] { part }
    public static func buildEither(second part: [any CompositeElement]) -> [any CompositeElement] { part }
    public static func buildArray(_ parts: [[any CompositeElement]]) -> [any CompositeElement] { parts.flatMap { $0 } }
}

/// Something that can be declared inside `Entity { … }`.
public protocol EntityMember {
    /// Adds the member's descriptions to `entity`.
    func install(in entity: EntityDescription)
}

/// Something that can be declared inside `Composite { … }`.
public protocol CompositeElement {
    /// The element's description, and key paths (relative to the composite) of
    /// elements marked unique.
    func makeElement() -> (description: AttributeDescription, uniqueKeyPaths: [[String]])
}

extension ManagedObjectModel {
    /// Builds a model declaratively; names given for destinations, inverses and
    /// parents are resolved against the declared entities.
    public convenience init(@ModelBuilder _ content: () -> [Entity]) {
        self.init()
        let declared = content()
        let built = declared.map { ($0.makeDescription(), $0.parentName) }
        entities = built.map(\.0)
        let byName = entitiesByName
        for (entity, parentName) in built {
            guard let parentName else { continue }
            if let parent = byName[parentName] {
                parent.subentities.append(entity)
            } else {
                entity.unresolvedSuperentityName = parentName
            }
        }
        let relationships = entities.flatMap(\.properties).compactMap { $0 as? RelationshipDescription }
        for relationship in relationships {
            if let name = relationship.unresolvedDestinationName, let destination = byName[name] {
                relationship.destinationEntity = destination
                relationship.unresolvedDestinationName = nil
            }
        }
        for relationship in relationships {
            if let name = relationship.unresolvedInverseName,
               let inverse = relationship.destinationEntity?.relationshipsByName[name] {
                relationship.inverseRelationship = inverse
                relationship.unresolvedInverseName = nil
            }
        }
    }
}
