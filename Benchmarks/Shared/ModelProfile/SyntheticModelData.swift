import Faultline
import Foundation

/// Synthetic data of a model's shape, for profiling a model without a store:
/// `objects` objects of the tree's root entity, and along every key path
/// `fanOut` destinations per to-many and one per to-one, each with every
/// stored attribute set (its default when it has one, else a value of its
/// type derived from the object's number). An attribute under a uniqueness
/// constraint gets the object's number even when it has a default: a default
/// is the same on every object, so the second one would conflict. Inserted
/// through contexts and saved every 1,000 root objects, so validation and
/// inverses apply as in an app. A required relationship that is not on the
/// key paths cannot be made up and fails the save, summarised
/// (`SyntheticSaveFailure`).
public struct SyntheticModelData: Sendable {
    public let tree: KeyPathTree
    public let objects: Int
    public let fanOut: Int

    public init(tree: KeyPathTree, objects: Int, fanOut: Int) throws(ObjectGraphInputError) {
        guard objects > 0 else { throw ObjectGraphInputError("--objects needs a positive count; got \(objects)") }
        guard fanOut > 0 else { throw ObjectGraphInputError("--fanout needs a positive count; got \(fanOut)") }
        for node in tree.nodes where node.mapping.entityNumbers.isEmpty {
            throw ObjectGraphInputError("\(node.entity) has no stored entity to generate")
        }
        self.tree = tree
        self.objects = objects
        self.fanOut = fanOut
    }

    func fill(_ container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        let model = container.model
        try context.performAndWait {
            var serial = Serials()
            for index in 0..<objects {
                _ = try make(tree.root, model, in: context, serial: &serial)
                if index % 1_000 == 999 { try save(context, model) }
            }
            try save(context, model)
        }
    }

    /// Object numbers: of every object inserted, and of those whose entity has a
    /// uniqueness constraint — a count of its own so that a 16-bit attribute
    /// stays unique over 32,767 constrained objects however many others there
    /// are, and objects of sibling entities sharing a constraint still differ.
    private struct Serials {
        var any = 0
        var constrained = 0
    }

    private func save(_ context: ManagedObjectContext, _ model: CheckedModel) throws {
        do {
            try context.save()
        } catch let error as SaveError {
            throw SyntheticSaveFailure(error, entity: tree.root.entity, model: model)
        }
        context.reset()
    }

    private func make(_ node: KeyPathTree.Node, _ model: CheckedModel, in context: ManagedObjectContext,
                      serial: inout Serials) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: node.entity)
        serial.any += 1
        guard let entity = model.entity(named: node.entity) else {
            throw ObjectGraphInputError("the model has no entity '\(node.entity)'")
        }
        let unique = Self.uniqueAttributes(of: entity)
        if !unique.isEmpty { serial.constrained += 1 }
        for (index, attribute) in entity.attributes.enumerated()
        where attribute.isStored && !attribute.isDerived && attribute.compositeIndex == nil {
            let isUnique = unique.contains(index)
            if let value = Self.value(for: attribute, serial: isUnique ? serial.constrained : serial.any, unique: isUnique) {
                try object.setValue(value, forKey: attribute.name)
            }
        }
        for edge in node.edges {
            if edge.isToMany {
                for _ in 0..<fanOut {
                    try object.addObject(try make(edge.destination, model, in: context, serial: &serial), toRelationship: edge.relationship)
                }
            } else {
                try object.setDestination(try make(edge.destination, model, in: context, serial: &serial), forKey: edge.relationship)
            }
        }
        return object
    }

    /// The indexes in `entity.attributes` of the attributes some uniqueness
    /// constraint (own or inherited) names.
    static func uniqueAttributes(of entity: CheckedEntity) -> Set<Int> {
        Set(entity.uniquenessConstraints.joined().compactMap { reference -> Int? in
            if case .attribute(let index) = reference { return index }
            return nil
        })
    }

    /// A value of the attribute's type; nil leaves the attribute as inserted
    /// (its default, or nil for a transformable, whose type only the app knows).
    /// A `unique` attribute takes the object's number over its default.
    static func value(for attribute: CheckedAttribute, serial: Int, unique: Bool = false) -> Any? {
        if attribute.defaultValue != nil && !unique { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType: return Int64(serial % Int(Int16.max))
        case .integer32AttributeType, .integer64AttributeType: return Int64(serial)
        case .decimalAttributeType: return Decimal(serial) / 100
        case .doubleAttributeType, .floatAttributeType: return Double(serial) / 4
        case .stringAttributeType: return "\(attribute.name) \(serial)"
        case .booleanAttributeType: return serial % 2 == 0
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: Double(serial) * 60)
        case .binaryDataAttributeType: return Data((0..<32).map { UInt8(truncatingIfNeeded: serial &+ $0) })
        case .UUIDAttributeType:
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt64(serial).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        case .URIAttributeType: return URL(string: "https://example.com/\(serial)")
        case .transformableAttributeType, .objectIDAttributeType, .compositeAttributeType, .undefinedAttributeType:
            return nil
        }
    }
}
