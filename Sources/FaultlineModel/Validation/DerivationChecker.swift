// Semantic checks for a derived attribute: the expression parses, every key it
// names exists and is the right kind of property, and the expression's result
// fits the derived attribute's type.
//
//   key path        to-one hops (or composite elements) ending at an attribute;
//                   result type = that attribute's (numeric types interchange)
//   @count          over a to-many relationship; numeric result
//   @sum, @avg      over a numeric attribute of a to-many's destination; numeric result
//   @min, @max      as @sum, dates allowed too (date result)
//   now()           date result
//   canonical: / lowercase: / uppercase:   over a string key path; string result

struct DerivationChecker {
    let entity: EntityDescription
    let attribute: DerivedAttributeDescription

    private enum Scope {
        case entity(EntityDescription)
        case composite(CompositeAttributeDescription)

        func property(named name: String) -> PropertyDescription? {
            switch self {
            case .entity(let entity): entity.propertiesByName[name]
            case .composite(let composite): composite.elements.first { $0.name == name }
            }
        }
    }

    /// The problems found (empty when the derivation is sound).
    func problems() -> [ModelIssue.Kind] {
        guard let text = attribute.derivationExpression,
              !text.allSatisfy(\.isWhitespace) else { return [.missingDerivation] }
        let expression: DerivationExpression
        do {
            expression = try DerivationExpression(parsing: text)
        } catch {
            return [.derivationSyntax(error)]
        }
        let target = attribute.attributeType
        let mismatch = ModelIssue.Kind.derivationResultTypeMismatch(expression: expression.description, resultType: target)
        switch expression {
        case .now:
            return target == .dateAttributeType ? [] : [mismatch]
        case .keyPath(let path):
            if path == [attribute.name] { return [.derivationOverItself] }
            switch resolve(path) {
            case .failure(let problem): return problem.map { [$0] } ?? []
            case .success(let source):
                let fits = source.attributeType == target || (source.attributeType.isNumeric && target.isNumeric)
                return fits ? [] : [mismatch]
            }
        case .canonical(let path), .lowercase(let path), .uppercase(let path):
            switch resolve(path) {
            case .failure(let problem): return problem.map { [$0] } ?? []
            case .success(let source):
                var problems: [ModelIssue.Kind] = []
                if source.attributeType != .stringAttributeType {
                    problems.append(.derivationStringFunctionOverNonString(path.joined(separator: ".")))
                }
                if target != .stringAttributeType { problems.append(mismatch) }
                return problems
            }
        case let .aggregate(function, relationshipName, attributeName):
            return aggregateProblems(function, relationshipName, attributeName, mismatch: mismatch)
        }
    }

    private func aggregateProblems(_ function: AggregateFunction, _ relationshipName: String, _ attributeName: String?,
                                   mismatch: ModelIssue.Kind) -> [ModelIssue.Kind] {
        let target = attribute.attributeType
        guard let property = entity.propertiesByName[relationshipName] else {
            return [.derivationUnknownKey(relationshipName)]
        }
        guard let relationship = property as? RelationshipDescription, relationship.isToMany else {
            return [.derivationAggregateOverNonToMany(relationshipName)]
        }
        guard let attributeName else {
            return target.isNumeric ? [] : [mismatch]
        }
        // A missing destination is reported by the relationship checks.
        guard let destination = relationship.destinationEntity else { return [] }
        let keyPath = "\(relationshipName).\(attributeName)"
        guard let source = destination.propertiesByName[attributeName] else {
            return [.derivationUnknownKey(keyPath)]
        }
        guard let sourceAttribute = source as? AttributeDescription, !(source is CompositeAttributeDescription) else {
            return [.derivationKeyPathNotAttribute(keyPath)]
        }
        let sourceType = sourceAttribute.attributeType
        let allowsDates = function == .min || function == .max
        if sourceType.isNumeric {
            return target.isNumeric ? [] : [mismatch]
        }
        if allowsDates, sourceType == .dateAttributeType {
            return target == .dateAttributeType ? [] : [mismatch]
        }
        return [.derivationAggregateOverNonNumeric(function: function, keyPath: keyPath)]
    }

    /// Follows a key path from the entity; `.failure(nil)` when the problem is
    /// reported elsewhere (a relationship without destination).
    private func resolve(_ path: [String]) -> Result<AttributeDescription, ResolutionProblem> {
        var scope = Scope.entity(entity)
        for (position, key) in path.enumerated() {
            let prefix = path[...position].joined(separator: ".")
            let isLast = position == path.count - 1
            guard let property = scope.property(named: key) else {
                return .failure(ResolutionProblem(.derivationUnknownKey(prefix)))
            }
            switch property {
            case let relationship as RelationshipDescription:
                if isLast { return .failure(ResolutionProblem(.derivationKeyPathNotAttribute(prefix))) }
                if relationship.isToMany { return .failure(ResolutionProblem(.derivationThroughToMany(prefix))) }
                guard let destination = relationship.destinationEntity else { return .failure(ResolutionProblem(nil)) }
                scope = .entity(destination)
            case let composite as CompositeAttributeDescription:
                if isLast { return .failure(ResolutionProblem(.derivationKeyPathNotAttribute(prefix))) }
                scope = .composite(composite)
            case let leaf as AttributeDescription:
                if !isLast { return .failure(ResolutionProblem(.derivationThroughAttribute(prefix))) }
                return .success(leaf)
            default:
                return .failure(ResolutionProblem(.derivationUnknownKey(prefix)))
            }
        }
        return .failure(ResolutionProblem(.derivationUnknownKey(path.joined(separator: "."))))
    }
}

/// A key-path resolution failure; `kind` is `nil` when already reported elsewhere.
private struct ResolutionProblem: Error {
    let kind: ModelIssue.Kind?
    init(_ kind: ModelIssue.Kind?) { self.kind = kind }

    func map<T>(_ transform: (ModelIssue.Kind) -> T) -> T? { kind.map(transform) }
}
