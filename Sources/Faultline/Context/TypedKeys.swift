import Foundation
import Synchronization

/// A Swift type an attribute's value converts to and from. The conversions are
/// inlinable so a typed access specialises in the caller's module: otherwise
/// `Optional<Wrapped>` is reached through its generic witness, which looks up
/// metadata at run time on every read (≈ 660 instructions per access, measured).
public protocol AttributeConvertible {
    init?(attributeValue: AttributeValue)
    var attributeValue: AttributeValue { get }
    /// The attribute types a key of this type may name; nil accepts any (the
    /// default, for conformances of the user's own types).
    static var acceptedAttributeTypes: Set<AttributeType>? { get }
}

extension AttributeConvertible {
    public static var acceptedAttributeTypes: Set<AttributeType>? { nil }
}

// A URI attribute holds a URL (`URL` keys): a `String` key read every stored
// URI as nil, and accepting both in one read cost each string read a retain.
extension String { public static var acceptedAttributeTypes: Set<AttributeType>? { [.stringAttributeType] } }
extension Int64 {
    public static var acceptedAttributeTypes: Set<AttributeType>? {
        [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType]
    }
}
extension Int { public static var acceptedAttributeTypes: Set<AttributeType>? { Int64.acceptedAttributeTypes } }
extension Double { public static var acceptedAttributeTypes: Set<AttributeType>? { [.doubleAttributeType, .floatAttributeType] } }
extension Bool { public static var acceptedAttributeTypes: Set<AttributeType>? { [.booleanAttributeType] } }
extension Date { public static var acceptedAttributeTypes: Set<AttributeType>? { [.dateAttributeType] } }
extension Data {
    public static var acceptedAttributeTypes: Set<AttributeType>? { [.binaryDataAttributeType, .transformableAttributeType] }
}
extension UUID { public static var acceptedAttributeTypes: Set<AttributeType>? { [.UUIDAttributeType] } }
extension Decimal { public static var acceptedAttributeTypes: Set<AttributeType>? { [.decimalAttributeType] } }
extension URL { public static var acceptedAttributeTypes: Set<AttributeType>? { [.URIAttributeType] } }

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

extension URL: AttributeConvertible {
    @inlinable
    public init?(attributeValue: AttributeValue) {
        guard case .uri(let value) = attributeValue else { return nil }
        self = value
    }
    @inlinable
    public var attributeValue: AttributeValue { .uri(self) }
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
    public static var acceptedAttributeTypes: Set<AttributeType>? { Wrapped.acceptedAttributeTypes }
}

/// Resolves a property name to its index once per inheritance hierarchy of one
/// coordinator: a key belongs to one class's entity, and inherited properties
/// keep their index in every sub-entity, so later accesses cost one atomic load
/// and a compare. The hierarchy is named by its runtime's `slotToken`, unique
/// in the process, so a key used with another model resolves again. A slot
/// knows what it must name, so resolving, refusing a typed access and checking
/// a class at registration are one lookup (`lookup(in:)`).
public final class PropertySlot: Sendable {
    /// What a key names: an attribute of the types its value fits (nil: any),
    /// a to-one or a to-many.
    enum Kind: Sendable, Equatable {
        case attribute(accepts: Set<AttributeType>?)
        case toOne
        case toMany
    }

    let name: String
    let kind: Kind
    /// The validation rules the declaration states; only a validating
    /// registration reads them (the model's rules are the ones applied at save).
    let rules: [ValidationRule]
    /// Whether the key's value type holds nil (`AttributeKey<String?>`).
    let acceptsNil: Bool
    /// slot token << 32 | property index; 0 when unresolved.
    @usableFromInline let cache = Atomic<Int>(0)

    init(_ name: String, kind: Kind, rules: [ValidationRule] = [], acceptsNil: Bool = true) {
        self.name = name
        self.kind = kind
        self.rules = rules
        self.acceptsNil = acceptsNil
    }

    /// Inlined into typed accessors: a resolved slot costs a load and a compare.
    @inlinable
    func index(in object: ManagedObject) -> Int? {
        let cached = cache.load(ordering: .relaxed)
        if cached >> 32 == object.runtime.slotToken { return cached & 0xFFFF_FFFF }
        return resolve(in: object)
    }

    @usableFromInline
    func resolve(in object: ManagedObject) -> Int? {
        guard case .success(let index) = lookup(in: object.runtime.entity) else { return nil }
        cache.store(object.runtime.slotToken << 32 | index, ordering: .relaxed)
        return index
    }

    /// The index of the property this key names in `entity`, or why it names none.
    func lookup(in entity: CheckedEntity) -> Result<Int, ObjectAccessError> {
        switch (entity.propertyByName[name], kind) {
        case (.attribute(let index)?, .attribute(let accepts)):
            let type = entity.attributes[index].attributeType
            if let accepts, !accepts.contains(type) {
                return .failure(.wrongType(entity: entity.name, key: name, expected: "a key of \(type)"))
            }
            return .success(index)
        case (.relationship(let index)?, .toOne), (.relationship(let index)?, .toMany):
            let isToMany = entity.relationships[index].isToMany
            guard isToMany == (kind == .toMany) else {
                return .failure(.wrongType(entity: entity.name, key: name, expected: isToMany ? "a ToManyKey" : "a ToOneKey"))
            }
            return .success(index)
        case (nil, _):
            return .failure(.unknownKey(entity: entity.name, key: name))
        case (.composite?, _):
            return .failure(.wrongType(entity: entity.name, key: name, expected: "setValue(_:forKey:) with a dictionary (a composite)"))
        case (.relationship?, .attribute):
            return .failure(.wrongType(entity: entity.name, key: name, expected: "a relationship key"))
        case (.attribute?, _):
            return .failure(.wrongType(entity: entity.name, key: name, expected: "an AttributeKey"))
        }
    }

    /// Why this key does not fit `entity`, or nil when it does.
    func mismatch(in entity: CheckedEntity) -> ObjectAccessError? {
        if case .failure(let error) = lookup(in: entity) { return error }
        return nil
    }
}

/// A typed attribute of a `ManagedObject` subclass:
/// `static let title = AttributeKey<String>("title")`, then
/// `var title: String { get { self[Self.title] } set { self[Self.title] = newValue } }`.
/// `rules` restates the model's validation rules for the attribute so that a
/// validating registration (`register(_:forEntityName:validate: true)`) and
/// `faultline model validate` can tell when code and model drift apart; the
/// model's rules are the ones a save applies.
public struct AttributeKey<Value: AttributeConvertible>: Sendable {
    public let slot: PropertySlot
    public init(_ name: String, rules: [ValidationRule] = []) {
        slot = PropertySlot(
            name, kind: .attribute(accepts: Value.acceptedAttributeTypes), rules: rules,
            acceptsNil: Value.self is any ExpressibleByNilLiteral.Type)
    }
}

/// A typed to-one relationship.
@dynamicMemberLookup
public struct ToOneKey<Destination: ManagedObject>: Sendable {
    public let slot: PropertySlot
    public init(_ name: String) { slot = PropertySlot(name, kind: .toOne) }
}

/// A typed to-many relationship.
public struct ToManyKey<Destination: ManagedObject>: Sendable {
    public let slot: PropertySlot
    public init(_ name: String) { slot = PropertySlot(name, kind: .toMany) }
}

extension ManagedObject {
    /// Typed attribute access. Reading a value of another type (or an unknown
    /// key) gives the type's failure value through `Value(attributeValue:)`:
    /// declare optional values as `Optional`.
    @inlinable
    public subscript<Value>(key: AttributeKey<Value>) -> Value where Value: ExpressibleByNilLiteral {
        get {
            guard let index = key.slot.index(in: self) else { return nil }
            return Value(attributeValue: attributeValue(at: index)) ?? nil
        }
        set {
            guard let index = key.slot.index(in: self) else { return refuse(key.slot) }
            setAttributeValue(newValue.attributeValue, at: index)
        }
    }

    /// Typed access to a non-optional attribute; `defaultValue` stands in for a
    /// NULL (an unsaved required attribute).
    @inlinable
    public subscript<Value>(key: AttributeKey<Value>, default defaultValue: Value) -> Value {
        get {
            guard let index = key.slot.index(in: self) else { return defaultValue }
            return Value(attributeValue: attributeValue(at: index)) ?? defaultValue
        }
        set {
            guard let index = key.slot.index(in: self) else { return refuse(key.slot) }
            setAttributeValue(newValue.attributeValue, at: index)
        }
    }

    @inlinable
    public subscript<Destination>(key: ToOneKey<Destination>) -> Destination? {
        get {
            guard let index = key.slot.index(in: self) else { return nil }
            return destination(at: index) as? Destination
        }
        set {
            guard let index = key.slot.index(in: self) else { return refuse(key.slot) }
            do { try setDestination(newValue, at: index) } catch let error as ObjectAccessError {
                managedObjectContext?.refusedAccesses.append(error)
            } catch {}
        }
    }

    @inlinable
    public subscript<Destination>(key: ToManyKey<Destination>) -> [Destination] {
        guard let index = key.slot.index(in: self) else { return [] }
        let members = members(at: index)
        // Untyped keys get the members as they are: no new array, no cast per
        // member (the check folds away once specialised).
        if Destination.self == ManagedObject.self { return unsafeBitCast(members, to: [Destination].self) }
        return members.compactMap { $0 as? Destination }
    }

    /// Adds `member`; as strict as `addObject(_:toRelationship:)`: a key that
    /// names no to-many, or a member of another context, throws.
    public func add<Destination>(_ member: Destination, to key: ToManyKey<Destination>) throws {
        guard let index = key.slot.index(in: self) else { throw refusal(key.slot) }
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        guard member.contextHandle === context.handle else { throw ObjectAccessError.otherContext(member.description) }
        context.addMember(member, to: self, at: index)
    }

    public func remove<Destination>(_ member: Destination, from key: ToManyKey<Destination>) throws {
        guard let index = key.slot.index(in: self) else { throw refusal(key.slot) }
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        context.removeMember(member, from: self, at: index)
    }

    /// Sets a typed attribute, throwing where the subscript records the refusal.
    public func set<Value>(_ value: Value, for key: AttributeKey<Value>) throws {
        guard let index = key.slot.index(in: self) else { throw refusal(key.slot) }
        try checkWritable()
        setAttributeValue(value.attributeValue, at: index)
    }

    /// Sets a typed to-one, throwing where the subscript records the refusal.
    public func set<Destination>(_ destination: Destination?, for key: ToOneKey<Destination>) throws {
        guard let index = key.slot.index(in: self) else { throw refusal(key.slot) }
        try setDestination(destination, at: index)
    }

    /// Why `slot` does not resolve on this object: no such property, another
    /// kind of property, or an attribute of a type the key's value type is not.
    func refusal(_ slot: PropertySlot) -> ObjectAccessError {
        slot.mismatch(in: runtime.entity) ?? .unknownKey(entity: runtime.entity.name, key: slot.name)
    }

    /// A subscript setter cannot throw: the refusal waits in the context, and
    /// its next `save()` throws `SaveError.refusedAccess` with every one, so a
    /// misspelt or mistyped key never loses a value silently.
    @usableFromInline
    func refuse(_ slot: PropertySlot) {
        managedObjectContext?.refusedAccesses.append(refusal(slot))
    }
}

/// A typed key of any kind, so a class can list its keys for checking when it
/// is registered (`ManagedObject.typedKeys`); its slot knows what it names.
public protocol TypedPropertyKey: Sendable {
    var slot: PropertySlot { get }
}

extension AttributeKey: TypedPropertyKey {}
extension ToOneKey: TypedPropertyKey {}
extension ToManyKey: TypedPropertyKey {}
