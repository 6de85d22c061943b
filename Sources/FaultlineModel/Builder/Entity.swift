// `Entity`: the builder's entity declaration.

/// Declares an entity for `ManagedObjectModel { … }`.
public struct Entity {
    public let name: String
    /// The superentity's name, resolved when the model is built.
    public let parentName: String?
    public let isAbstract: Bool
    public let className: String?
    let members: [any EntityMember]

    /// - Parameters:
    ///   - parent: the superentity's name.
    ///   - abstract: whether the entity has no instances of its own.
    ///   - className: the managed object class name (defaults to Core Data's default).
    public init(_ name: String, parent: String? = nil, abstract: Bool = false, className: String? = nil,
                @EntityBuilder _ members: () -> [any EntityMember] = { [] }) {
        self.name = name
        self.parentName = parent
        self.isAbstract = abstract
        self.className = className
        self.members = members()
    }

    func makeDescription() -> EntityDescription {
        let entity = EntityDescription()
        entity.name = name
        entity.isAbstract = isAbstract
        if let className { entity.managedObjectClassName = className }
        for member in members { member.install(in: entity) }
        return entity
    }
}

/// A uniqueness constraint over one or more properties: `Unique("firstName", "lastName")`.
public struct Unique: EntityMember {
    public let propertyNames: [String]

    public init(_ propertyNames: String...) {
        self.propertyNames = propertyNames
    }

    public func install(in entity: EntityDescription) {
        entity.uniquenessConstraints.append(propertyNames)
    }
}

/// A compound index, Core Data's older form of a multi-column index:
/// `CompoundIndex("markedForDeletionDate", "updatedAt")`.
public struct CompoundIndex: EntityMember {
    public let propertyNames: [String]

    public init(_ propertyNames: String...) {
        self.propertyNames = propertyNames
    }

    public func install(in entity: EntityDescription) {
        entity.compoundIndexes.append(propertyNames)
    }
}

/// A fetch index: `FetchIndex("byDate", .descending("date"), .ascending("title"))`.
public struct FetchIndex: EntityMember {
    /// One indexed property and its direction.
    public struct Element: Sendable {
        let propertyName: String
        let isAscending: Bool

        public static func ascending(_ propertyName: String) -> Element { Element(propertyName: propertyName, isAscending: true) }
        public static func descending(_ propertyName: String) -> Element { Element(propertyName: propertyName, isAscending: false) }
    }

    public let name: String
    public let elements: [Element]

    public init(_ name: String, _ elements: Element...) {
        self.name = name
        self.elements = elements
    }

    public func install(in entity: EntityDescription) {
        let index = FetchIndexDescription(
            name: name,
            elements: elements.map { FetchIndexElementDescription(propertyName: $0.propertyName, isAscending: $0.isAscending) })
        entity.indexes.append(index)
    }
}
