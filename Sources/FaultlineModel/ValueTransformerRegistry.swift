// Transformers for transformable attributes. Core Data looks transformers up by
// name in `ValueTransformer`'s process-wide registry; Faultline does the same with
// its own registry (Foundation's `ValueTransformer` is not available on Linux).
// A Codable type is registered under its fully qualified type name with a JSON
// transformer, so both paths end as "a transformer name" in the model.

import Foundation
import FaultlineSupport

/// Encodes attribute values to bytes for storage and back.
public protocol AttributeValueTransformer: Sendable {
    /// Encodes `value` for storage.
    func encode(_ value: Any) throws -> Data
    /// Decodes stored bytes.
    func decode(_ data: Data) throws -> Any
}

/// Transforms a `Codable` type to and from JSON.
public struct CodableValueTransformer<Value: Codable & Sendable>: AttributeValueTransformer {
    /// Thrown when asked to encode a value of another type.
    public struct WrongValueType: Error {}

    public init() {}

    public func encode(_ value: Any) throws -> Data {
        guard let typed = value as? Value else { throw WrongValueType() }
        return try JSONEncoder().encode(typed)
    }

    public func decode(_ data: Data) throws -> Any {
        try JSONDecoder().decode(Value.self, from: data)
    }
}

/// The process-wide registry of named transformers. Thread-safe.
public enum ValueTransformerRegistry {
    /// Core Data's own keyed-archive transformers: valid in a model without
    /// registering anything (the store reads and writes their keyed archives),
    /// as is a transformable with no transformer name.
    public static let coreDataArchiveTransformerNames: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData",
    ]

    /// Whether a transformable naming `transformerName` stores Core Data's
    /// keyed archive: no name, or one of Core Data's own. Any other name is
    /// the app's transformer, which must be registered.
    public static func storesCoreDataArchive(transformerName: String?) -> Bool {
        guard let transformerName, !transformerName.isEmpty else { return true }
        return coreDataArchiveTransformerNames.contains(transformerName)
    }

    private static let transformers = Locked<[String: any AttributeValueTransformer]>([:])

    /// Registers (or replaces) the transformer for `name`.
    public static func register(_ transformer: any AttributeValueTransformer, forName name: String) {
        transformers.withLock { $0[name] = transformer }
    }

    /// Registers a JSON transformer for `type` under its qualified name, returned.
    @discardableResult
    public static func registerCodable<T: Codable & Sendable>(_ type: T.Type) -> String {
        let name = String(reflecting: type)
        register(CodableValueTransformer<T>(), forName: name)
        return name
    }

    /// The transformer registered for `name`, if any.
    public static func transformer(forName name: String) -> (any AttributeValueTransformer)? {
        transformers.withLock { $0[name] }
    }

    /// Registers `standIn` for each transformer `model` names that has none
    /// (a model file read without the app that defines them); returns those
    /// names, sorted.
    @discardableResult
    public static func registerMissing(in model: ManagedObjectModel,
                                       standIn: any AttributeValueTransformer) -> [String] {
        var missing: Set<String> = []
        for entity in model.entities {
            for case let attribute as AttributeDescription in entity.properties {
                guard !storesCoreDataArchive(transformerName: attribute.valueTransformerName),
                      let name = attribute.valueTransformerName, transformer(forName: name) == nil else { continue }
                register(standIn, forName: name)
                missing.insert(name)
            }
        }
        return missing.sorted()
    }
}
