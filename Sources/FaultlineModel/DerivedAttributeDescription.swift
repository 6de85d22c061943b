// A derived attribute: a read-only column the store keeps up to date from an
// expression over other properties (Core Data's `NSDerivedAttributeDescription`).

/// An attribute whose value the store computes from `derivationExpression`.
///
/// Core Data takes an `NSExpression`; Faultline takes the same expression as a
/// string (`"articles.@count"`, `"@sum.articles.views"`, `"category.name"`,
/// `"now()"`, `"canonical:(name)"`) and parses it into `DerivationExpression`
/// when the model is checked.
public final class DerivedAttributeDescription: AttributeDescription {
    /// The derivation, in Core Data's expression syntax.
    public var derivationExpression: String? {
        didSet { if rejectsMutation("derivationExpression") { derivationExpression = oldValue } }
    }

    /// Derived attributes cannot be set by the application.
    public override var isReadOnly: Bool { true }

    public override init() {
        super.init()
    }

    /// The parsed derivation, or the parse error; `nil` when no expression is set.
    public var parsedDerivation: Result<DerivationExpression, DerivationParseError>? {
        guard let derivationExpression else { return nil }
        do {
            return .success(try DerivationExpression(parsing: derivationExpression))
        } catch {
            return .failure(error)
        }
    }
}
