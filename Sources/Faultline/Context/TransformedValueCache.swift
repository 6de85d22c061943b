import Foundation

/// Transformable values decoded once per stored bytes: Core Data keeps an
/// object's transformed value, so reading it again does not unarchive it
/// again, and list cells read the same attribute many times. Kept by the
/// object's context (confined to its queue), keyed by object and attribute,
/// and checked against the bytes it was decoded from: a value set since, a
/// refresh, a rollback or an object that reused a freed object's address
/// finds different bytes (or another entity) and decodes afresh, so an entry
/// is never wrong, only unused. Bounded: past `capacity` entries it starts
/// over, which costs decoding, never memory.
struct TransformedValueCache {
    struct Key: Hashable {
        let object: ObjectIdentifier
        let entityIndex: Int
        let attributeIndex: Int
    }

    static let capacity = 4_096
    private var entries: [Key: (bytes: Data, value: Any?)] = [:]
    /// Decodes, for the statistics tests read.
    private(set) var decodes = 0

    /// The decoded value of `bytes`, stored in `attribute` of `object`.
    mutating func value(of bytes: Data, in object: ManagedObject, attribute: CheckedAttribute) -> Any? {
        let key = Key(object: ObjectIdentifier(object), entityIndex: object.entityIndex, attributeIndex: attribute.index)
        if let entry = entries[key], entry.bytes == bytes { return entry.value }
        let value = TransformableCoding(attribute).decode(bytes)
        decodes += 1
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = (bytes, value)
        return value
    }

    mutating func removeAll() { entries.removeAll() }
}
