import FaultlineModel

extension DerivationExpression {
    /// A derivation that copies the value a key path reaches, and the store
    /// function folding it (nil for a plain copy); nil for `now()` and
    /// aggregates. One mapping for the triggers and for the statements that
    /// compute a row's own derivations.
    var copiedKeyPath: (path: [String], function: String?)? {
        switch self {
        case .keyPath(let path): (path, nil)
        case .canonical(let path): (path, StoreFunctions.canonical)
        case .lowercase(let path): (path, StoreFunctions.lowercase)
        case .uppercase(let path): (path, StoreFunctions.uppercase)
        case .now, .aggregate: nil
        }
    }
}
