// A composite attribute: a named group of attributes (nested composites allowed)
// stored flattened into one column per leaf and addressed by key path
// (`colorScheme.primary`), as Core Data's `NSCompositeAttributeDescription`.

/// An attribute made of other attributes.
public final class CompositeAttributeDescription: AttributeDescription {
    /// The composite's elements: attributes or nested composites.
    ///
    /// Typed `[PropertyDescription]` (Core Data's is `[NSAttributeDescription]`, but
    /// an Objective-C array accepts anything) so that a relationship placed here is
    /// reported as a model error rather than being impossible to describe.
    /// Elements are owned strongly; an element that would make the composite contain
    /// itself is dropped when set and reported as `.compositeCycle`, so no
    /// reference cycle can form.
    public var elements: [PropertyDescription] {
        get { storedElements }
        set {
            guard !rejectsMutation("elements") else { return }
            storedElements = newValue.filter { element in
                guard element !== self, !contains(self, in: element) else {
                    rejectedCyclicElements.append(element.name)
                    return false
                }
                return true
            }
        }
    }

    private var storedElements: [PropertyDescription] = []

    /// Names of elements dropped because they would have formed a cycle.
    private(set) var rejectedCyclicElements: [String] = []

    public override init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    override func freeze(_ state: FreezeState) {
        super.freeze(state)
        for element in storedElements { element.freeze(state) }
    }

    /// True when `target` is reachable from `root` through composite elements.
    private func contains(_ target: CompositeAttributeDescription, in root: PropertyDescription) -> Bool {
        var pending: [PropertyDescription] = [root]
        var visited = Set<ObjectIdentifier>()
        while let next = pending.popLast() {
            guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
            if next === target { return true }
            if let composite = next as? CompositeAttributeDescription {
                pending.append(contentsOf: composite.storedElements)
            }
        }
        return false
    }
}
