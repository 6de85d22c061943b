// The model validator: walks the mutable descriptions once and collects every
// problem (it never stops at the first). Split by topic:
//   ModelValidator.swift               entities, names, ownership, inheritance
//   ModelValidator+Attributes.swift    types, defaults, transformers, composites
//   ModelValidator+Rules.swift         validation-rule consistency
//   ModelValidator+Relationships.swift destinations, inverses, counts
//   ModelValidator+Constraints.swift   uniqueness constraints, fetch indexes
//   DerivationChecker.swift            derived attributes' expressions
// Nothing here traps: every lookup is optional and every walk is cycle-guarded.

struct ModelValidator {
    let model: ManagedObjectModel
    /// Identity of every entity listed by the model.
    let entityIDs: Set<ObjectIdentifier>
    private(set) var issues: [ModelIssue] = []

    init(model: ManagedObjectModel) {
        self.model = model
        self.entityIDs = Set(model.entities.map(ObjectIdentifier.init))
    }

    /// Every issue in the model, in discovery order, without repeats.
    mutating func validate() -> [ModelIssue] {
        checkEntityNames()
        var visited = Set<ObjectIdentifier>()
        for entity in model.entities where visited.insert(ObjectIdentifier(entity)).inserted {
            checkEntity(entity)
        }
        var seen = Set<ModelIssue>()
        return issues.filter { seen.insert($0).inserted }
    }

    mutating func report(_ kind: ModelIssue.Kind, entity: EntityDescription?, property: String? = nil) {
        issues.append(ModelIssue(entity: entity.map { $0.name ?? "" }, property: property, kind: kind))
    }

    func isInModel(_ entity: EntityDescription) -> Bool {
        entityIDs.contains(ObjectIdentifier(entity))
    }

    // MARK: - Entities

    private mutating func checkEntityNames() {
        var counts: [String: Int] = [:]
        // Each root entity's table is `Z` + its name in capitals.
        var tables: [String: String] = [:]
        for entity in model.entities {
            guard let name = entity.name, !name.isEmpty else { continue }
            counts[name, default: 0] += 1
            if counts[name] == 2 { report(.duplicateEntityName(name), entity: entity) }
            guard entity.superentity == nil else { continue }
            if let other = tables[name.uppercased()], other != name {
                report(.tableNameClash(other, name), entity: entity)
            } else {
                tables[name.uppercased()] = name
            }
        }
    }

    private mutating func checkEntity(_ entity: EntityDescription) {
        if let problem = NameRules.problem(with: entity.name, kind: .entity) {
            report(problem, entity: entity)
        }
        if entity.managedObjectModel !== model {
            report(.entityInAnotherModel, entity: entity)
        }
        checkInheritance(of: entity)
        checkProperties(of: entity)
        checkConstraints(of: entity)
        checkFetchIndexes(of: entity)
        checkCompoundIndexes(of: entity)
    }

    private mutating func checkInheritance(of entity: EntityDescription) {
        for rejected in entity.rejectedSubentities {
            report(.inheritanceCycle(rejected), entity: entity)
        }
        if let name = entity.unresolvedSuperentityName {
            report(.superentityNotInModel(name), entity: entity)
        }
        if let parent = entity.superentity, !isInModel(parent) {
            report(.superentityNotInModel(parent.name ?? ""), entity: entity)
        }
        for sub in entity.subentities {
            if !isInModel(sub) {
                report(.subentityNotInModel(sub.name ?? ""), entity: entity)
            }
            if sub.superentity !== entity {
                report(.subentityOfSeveralEntities(sub.name ?? ""), entity: entity)
            }
        }
    }

    private mutating func checkProperties(of entity: EntityDescription) {
        let inheritedNames = Set(entity.ancestryFromRoot.dropLast().flatMap(\.properties).map(\.name))
        var ownNames = Set<String>()
        // A property instance listed twice is a duplicate name too (its checks run
        // twice; repeated issues are dropped in `validate()`).
        for property in entity.properties {
            if property.entity !== entity {
                report(.propertyInAnotherEntity, entity: entity, property: property.name)
            }
            if let problem = NameRules.problem(with: property.name, kind: .property) {
                report(problem, entity: entity, property: property.name)
            } else if inheritedNames.contains(property.name) || !ownNames.insert(property.name).inserted {
                report(.duplicatePropertyName(property.name), entity: entity, property: property.name)
            }
            switch property {
            case let attribute as AttributeDescription:
                checkAttribute(attribute, in: entity, path: attribute.name)
            case let relationship as RelationshipDescription:
                checkRelationship(relationship, in: entity)
            default:
                break
            }
        }
    }
}
