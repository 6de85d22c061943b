import Foundation
/// A key or value that does not fit an object's entity.
public enum ObjectAccessError: Error, Equatable, CustomStringConvertible {
    case unknownKey(entity: String, key: String)
    case readOnly(entity: String, key: String)
    case wrongType(entity: String, key: String, expected: String)
    case wrongDestination(entity: String, key: String, expected: String)
    /// The object belongs to no context, or to another one.
    case otherContext(String)
    /// The object was deleted from the store.
    case deleted(String)
    /// An insert of an abstract entity: only its sub-entities have instances.
    case abstractEntity(String)
    /// A position outside an ordered to-many's members (`count` of them).
    case indexOutOfRange(entity: String, key: String, index: Int, count: Int)

    public var description: String {
        switch self {
        case .unknownKey(let entity, let key): return "\(entity) has no property '\(key)'"
        case .readOnly(let entity, let key): return "\(entity).\(key) is derived and read-only"
        case .wrongType(let entity, let key, let expected): return "\(entity).\(key) needs \(expected)"
        case .wrongDestination(let entity, let key, let expected):
            return "\(entity).\(key) needs \(expected) objects of the same context"
        case .otherContext(let object): return "\(object) belongs to another context"
        case .deleted(let object): return "\(object) was deleted from the store"
        case .abstractEntity(let name): return "\(name) is abstract: insert one of its sub-entities"
        case .indexOutOfRange(let entity, let key, let index, let count):
            return "\(entity).\(key) has \(count) members: position \(index) is out of range"
        }
    }
}

extension ObjectAccessError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
