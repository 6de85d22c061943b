import Foundation
/// Every way a `ManagedObject` subclass's typed keys disagree with its entity,
/// as a validating registration (`register(_:forEntityName:validate: true)`)
/// reports them: keys the entity has no property for or of another kind or
/// type, properties without a key, an optional attribute read through a
/// non-optional key, and validation rules missing, added or changed.
public struct ClassModelDrift: Error, CustomStringConvertible, Equatable {
    public let className: String
    public let entityName: String
    /// One sentence per disagreement, keys in declaration order, then the entity's properties by name.
    public let problems: [String]

    public var description: String {
        "class \(className) does not match entity \(entityName):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }

    /// The disagreements of `type`'s keys with `entity`; empty when in step.
    static func problems(of type: ManagedObject.Type, in entity: CheckedEntity) -> [String] {
        var problems: [String] = []
        var keyed: Set<String> = []
        for key in type.typedKeys {
            let slot = key.slot
            keyed.insert(slot.name)
            switch slot.lookup(in: entity) {
            case .failure(let mismatch):
                problems.append("\(slot.name): \(mismatch)")
            case .success(let index):
                guard case .attribute = slot.kind else { continue }
                let attribute = entity.attributes[index]
                if attribute.isOptional && !slot.acceptsNil {
                    problems.append("\(slot.name): the attribute is optional, the key's value type does not hold nil")
                }
                for sentence in ValidationRule.drift(declared: slot.rules, model: attribute.validationRules) {
                    problems.append("\(slot.name): \(sentence)")
                }
            }
        }
        var unkeyed: [String] = []
        for attribute in entity.attributes where carriesTypedKey(attribute.attributeType) {
            if !keyed.contains(attribute.name) { unkeyed.append(attribute.name) }
        }
        for relationship in entity.relationships where !relationship.isTransient && !keyed.contains(relationship.name) {
            unkeyed.append(relationship.name)
        }
        return problems + unkeyed.sorted().map { "\($0): the entity's property has no key" }
    }

    /// Attribute types a typed key reads; object IDs and undefined values have
    /// no Swift type to read as. A composite's elements are leaves with keys of their own (`address.city`).
    private static func carriesTypedKey(_ type: AttributeType) -> Bool {
        ![.undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType].contains(type)
    }
}

extension ClassModelDrift: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
