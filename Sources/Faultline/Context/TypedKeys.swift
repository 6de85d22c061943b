import Foundation
import Synchronization

/// A Swift type an attribute's value converts to and from. The conversions are
/// inlinable so a typed access specialises in the caller's module: otherwise
/// `Optional<Wrapped>` is reached through its generic witness, which looks up
/// metadata at run time on every read (≈ 660 instructions per access, measured).
public protocol AttributeConvertible {
    init?(attributeValue: AttributeValue)
    var attributeValue: AttributeValue { get }
}

extension String: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .string(self) }
}

extension Int64: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .integer(self) }
}

extension Int: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue else { return nil }
        self = Int(truncatingIfNeeded: value)
    }
    @inlinable
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Double: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    @inlinable
    public var attributeValue: AttributeValue { .double(self) }
}

extension Bool: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .bool(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .bool(self) }
}

extension Date: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .date(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .date(self) }
}

extension Data: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .data(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .data(self) }
}

extension UUID: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .uuid(self) }
}

extension Decimal: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .decimal(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .decimal(self) }
}

extension Optional: AttributeConvertible where Wrapped: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        if case .null = attributeValue {
            self = .none
        } else if let wrapped = Wrapped(attributeValue: attributeValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
    @inlinable
    public var attributeValue: AttributeValue {
        switch self {
        case .some(let wrapped): return wrapped.attributeValue
        case .none: return .null
        }
    }
}

/// Resolves a property name to its index once per inheritance hierarchy of one
/// coordinator: a key belongs to one class's entity, and inherited properties
/// keep their index in every sub-entity, so later accesses cost one atomic load
/// and a compare. The hierarchy is named by its runtime's `slotToken`, unique
/// in the process, so a key used with another model resolves again.
public final class PropertySlot: Sendable {
    let name: String
    /// slot token << 32 | property index; 0 when unresolved.
    @usableFromInline let cache = Atomic<Int>(0)

    init(_ name: String) { self.name = name }

    /// Inlined into typed accessors: a resolved slot costs a load and a compare.
    @inlinable
    func index(in object: ManagedObject, attribute: Bool) -> Int? {
        let cached = cache.load(ordering: .relaxed)
        if cached >> 32 == object.runtime.slotToken { return cached & 0xFFFF_FFFF }
        return resolve(in: object, attribute: attribute)
    }

    @usableFromInline
    func resolve(in object: ManagedObject, attribute: Bool) -> Int? {
        let root = object.runtime.slotToken
        let found: Int?
        switch object.runtime.entity.propertyByName[name] {
        case .attribute(let index)? where attribute: found = index
        case .relationship(let index)? where !attribute: found = index
        default: found = nil
        }
        if let found { cache.store(root << 32 | found, ordering: .relaxed) }
        return found
    }
}

/// A typed attribute of a `ManagedObject` subclass:
/// `static let title = AttributeKey<String>("title")`, then
/// `var title: String { get { self[Self.title] } set { self[Self.title] = newValue } }`.
public struct AttributeKey<Value: AttributeConvertible>: Sendable {
    @usableFromInline let slot: PropertySlot
    public init(_ name: String) { slot = PropertySlot(name) }
}

/// A typed to-one relationship.
public struct ToOneKey<Destination: ManagedObject>: Sendable {
    @usableFromInline let slot: PropertySlot
    public init(_ name: String) { slot = PropertySlot(name) }
}

/// A typed to-many relationship.
public struct ToManyKey<Destination: ManagedObject>: Sendable {
    @usableFromInline let slot: PropertySlot
    public init(_ name: String) { slot = PropertySlot(name) }
}

extension ManagedObject {
    /// Typed attribute access. Reading a value of another type (or an unknown
    /// key) gives the type's failure value through `Value(attributeValue:)`:
    /// declare optional values as `Optional`.
    @inlinable
    public subscript<Value>(key: AttributeKey<Value>) -> Value where Value: ExpressibleByNilLiteral {
        get {
            guard let index = key.slot.index(in: self, attribute: true) else { return nil }
            return Value(attributeValue: attributeValue(at: index)) ?? nil
        }
        set {
            guard let index = key.slot.index(in: self, attribute: true) else { return }
            setAttributeValue(newValue.attributeValue, at: index)
        }
    }

    /// Typed access to a non-optional attribute; `defaultValue` stands in for a
    /// NULL (an unsaved required attribute).
    @inlinable
    public subscript<Value>(key: AttributeKey<Value>, default defaultValue: Value) -> Value {
        get {
            guard let index = key.slot.index(in: self, attribute: true) else { return defaultValue }
            return Value(attributeValue: attributeValue(at: index)) ?? defaultValue
        }
        set {
            guard let index = key.slot.index(in: self, attribute: true) else { return }
            setAttributeValue(newValue.attributeValue, at: index)
        }
    }

    @inlinable
    public subscript<Destination>(key: ToOneKey<Destination>) -> Destination? {
        get {
            guard let index = key.slot.index(in: self, attribute: false) else { return nil }
            return destination(at: index) as? Destination
        }
        set {
            guard let index = key.slot.index(in: self, attribute: false) else { return }
            try? setDestination(newValue, at: index)
        }
    }

    @inlinable
    public subscript<Destination>(key: ToManyKey<Destination>) -> [Destination] {
        guard let index = key.slot.index(in: self, attribute: false) else { return [] }
        let members = members(at: index)
        // Untyped keys get the members as they are: no new array, no cast per
        // member (the check folds away once specialised).
        if Destination.self == ManagedObject.self { return unsafeBitCast(members, to: [Destination].self) }
        return members.compactMap { $0 as? Destination }
    }

    public func add<Destination>(_ member: Destination, to key: ToManyKey<Destination>) {
        guard let index = key.slot.index(in: self, attribute: false), let context = managedObjectContext,
              member.contextHandle === context.handle else { return }
        context.addMember(member, to: self, at: index)
    }

    public func remove<Destination>(_ member: Destination, from key: ToManyKey<Destination>) {
        guard let index = key.slot.index(in: self, attribute: false), let context = managedObjectContext else { return }
        context.removeMember(member, from: self, at: index)
    }
}
