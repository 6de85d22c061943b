import Faultline
import Foundation

/// Stands in for a model's value transformers that this process does not have
/// (`ImageToDataTransformer` in an app's model), so the model checks and its
/// schema compiles. The tool only plans statements; it never encodes a value,
/// so both directions throw.
struct PlaceholderTransformer: AttributeValueTransformer {
    struct Unavailable: Error {}

    func encode(_ value: Any) throws -> Data { throw Unavailable() }
    func decode(_ data: Data) throws -> Any { throw Unavailable() }

    /// Registers a placeholder for each transformer `model` names that has none;
    /// returns those names, sorted.
    @discardableResult
    static func registerMissing(in model: ManagedObjectModel) -> [String] {
        ValueTransformerRegistry.registerMissing(in: model, standIn: PlaceholderTransformer())
    }
}
