/// A typed transformable attribute: `static let colors = TransformableKey<[String]>("colors")`.
/// Its value is what the attribute's transformer decodes (Core Data's default
/// one for Foundation values, or the one registered under the model's
/// transformer name), read and written as `value(forKey:)` and
/// `setValue(_:forKey:)` do; a value of another type reads as nil. `Value` is
/// `Any` where the model names a class Swift on Linux does not have (an app's
/// `UIColor`) — the generated declaration says which.
public struct TransformableKey<Value>: TypedPropertyKey, Sendable {
    public let slot: PropertySlot

    public init(_ name: String, rules: [ValidationRule] = []) {
        slot = PropertySlot(name, kind: .attribute(accepts: [.transformableAttributeType]), rules: rules)
    }
}

extension ManagedObject {
    /// The transformed value; a refused assignment (a value the transformer
    /// cannot encode, an unknown key) fails the next save, as other typed setters do.
    public subscript<Value>(key: TransformableKey<Value>) -> Value? {
        get { value(forKey: key.slot.name) as? Value }
        set {
            do { try setValue(newValue, forKey: key.slot.name) } catch let error as ObjectAccessError {
                managedObjectContext?.refusedAccesses.append(error)
            } catch {}
        }
    }
}
