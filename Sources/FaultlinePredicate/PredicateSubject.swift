/// Something a predicate can be evaluated against in memory: a managed object,
/// a composite attribute's value, or a test double.
public protocol PredicateSubject {
    /// The value of one key: an attribute's value, a to-one's destination, a
    /// to-many's destinations, or nil. Throws for a key the subject does not
    /// have (`FetchPredicateError.unknownKey` is the conventional error).
    func predicateValue(forKey key: String) throws -> PredicateOperand

    /// The identity compared with an object ID argument (`author == %@`);
    /// nil for subjects without one (composite values).
    var predicateObjectID: PredicateObjectID? { get }
}

extension PredicateSubject {
    public var predicateObjectID: PredicateObjectID? { nil }
}

/// The value of one key of a subject.
public enum PredicateOperand {
    /// No value: a nil attribute or an empty to-one (the same as `.value(.null)`).
    case null
    /// An attribute's value.
    case value(PredicateValue)
    /// A to-one relationship's destination or a composite attribute's value.
    case object(any PredicateSubject)
    /// A to-many relationship's destinations, in any order.
    case objects([any PredicateSubject])
}

/// What an expression evaluates to: a scalar, one object, or a collection of
/// either (the result of a key path that crosses a to-many, or of SUBQUERY).
package enum PredicateResolved {
    case value(PredicateValue)
    case object(any PredicateSubject)
    case collection(PredicateCollection)

    init(_ operand: PredicateOperand) {
        switch operand {
        case .null: self = .value(.null)
        case .value(let value): self = .value(value)
        case .object(let object): self = .object(object)
        case .objects(let objects): self = .collection(PredicateCollection(objects.map(PredicateResolved.object)))
        }
    }

    /// The kind's name, for error messages.
    var kindName: String {
        switch self {
        case .value(let value): value.kindName
        case .object: "to-one object"
        case .collection: "to-many collection"
        }
    }

    var isNull: Bool {
        if case .value(.null) = self { return true }
        return false
    }

    /// The elements when this is a collection or an array constant; nil
    /// contributes no elements; anything else is not a collection.
    var elements: [PredicateResolved]? {
        counted?.elements
    }

    /// The elements as a collection, with the paths reaching each (one for
    /// an array constant's elements).
    var counted: PredicateCollection? {
        switch self {
        case .collection(let collection): collection
        case .value(.array(let values)): PredicateCollection(values.map(PredicateResolved.value))
        case .value(.null): PredicateCollection()
        case .value, .object: nil
        }
    }
}
