import FaultlineSchema
import FaultlineSupport

/// The derived values of a row Faultline inserts, computed in Swift as its
/// INSERT computes them in SQL, for an entity all of whose derived attributes
/// are row derivations of text (`canonical:(title)`, `lowercase:`,
/// `uppercase:`, a copy): the save then knows the row it wrote and reads none
/// back. An entity with any other derived attribute (an aggregate, a key path
/// through a relationship, `now()`) has none, and its inserted rows are re-read.
struct InsertedDerivations: Sendable {
    private enum Transform: Sendable {
        case copy, canonical, lowercase, uppercase
    }

    private let steps: [(target: Int, source: Int, transform: Transform)]

    init?(entity: CheckedEntity, derivedAttributes: [Int], rowDerivations: [RowDerivation]) {
        guard !derivedAttributes.isEmpty,
              Set(derivedAttributes) == Set(rowDerivations.map(\.attributeIndex)) else { return nil }
        var steps: [(target: Int, source: Int, transform: Transform)] = []
        // Text to text only: another type's value as bound and as read back
        // can differ (a date's sub-microsecond part, a transformable's encoding).
        func isPlainString(_ index: Int) -> Bool {
            guard let attribute = entity.attributes.first(where: { $0.index == index }) else { return false }
            return attribute.attributeType == .string && attribute.valueTransformerName == nil
        }
        for derivation in rowDerivations {
            guard isPlainString(derivation.sourceAttributeIndex), isPlainString(derivation.attributeIndex) else { return nil }
            let transform: Transform
            switch derivation.function {
            case nil: transform = .copy
            case StoreFunctions.canonical?: transform = .canonical
            case StoreFunctions.lowercase?: transform = .lowercase
            case StoreFunctions.uppercase?: transform = .uppercase
            default: return nil
            }
            steps.append((derivation.attributeIndex, derivation.sourceAttributeIndex, transform))
        }
        self.steps = steps
    }

    /// `values` with every derived value computed from its source; nil when a
    /// source holds something the SQL function would read differently (not
    /// text), so the row is read back instead.
    func applied(to values: AttributeValues) -> AttributeValues? {
        var values = values
        for step in steps {
            let source = values[step.source]
            let derived: AttributeValue
            switch (step.transform, source) {
            case (.copy, _), (_, .null): derived = source
            case (.canonical, .string(let text)): derived = .string(CanonicalText.fold(text))
            case (.lowercase, .string(let text)): derived = .string(text.lowercased())
            case (.uppercase, .string(let text)): derived = .string(text.uppercased())
            default: return nil
            }
            values[step.target] = derived
        }
        return values
    }
}
