import Faultline
import Foundation

/// Stands in for a model's value transformers that this process does not have
/// (`ImageToDataTransformer` in an app's model), so the model checks and its
/// schema compiles. Stored bytes cannot be decoded without the app's classes;
/// bytes given to store go as they are (the tools write none, but the
/// registry is process-wide: whoever else asks for these names gets the same).
struct PlaceholderTransformer: AttributeValueTransformer {
    struct Unavailable: Error {}

    func encode(_ value: Any) throws -> Data {
        guard let bytes = value as? Data else { throw Unavailable() }
        return bytes
    }
    func decode(_ data: Data) throws -> Any { throw Unavailable() }

    /// Registers a placeholder for each transformer `model` names that has none;
    /// returns those names, sorted.
    @discardableResult
    static func registerMissing(in model: ManagedObjectModel) -> [String] {
        ValueTransformerRegistry.registerMissing(in: model, standIn: PlaceholderTransformer())
    }
}
