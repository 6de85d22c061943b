import FaultlineModel

/// A derived attribute computed from another column of its own row —
/// `canonical:(title)`, `lowercase:(name)`, `uppercase:(code)` or a plain
/// copy — whose source is a stored, non-derived attribute.
///
/// Faultline's own INSERT and UPDATE statements compute such a value in the
/// statement (`ZSEARCHTITLE = faultline_canonical(?4)`), so the row is written
/// once: an AFTER trigger writing it would update the row a second time and
/// move its index entries again. The trigger stays, for every other writer
/// (batch updates, raw SQL), and does nothing when the value is already right.
public struct RowDerivation: Sendable, Hashable {
    /// The derived attribute's index and column.
    public let attributeIndex: Int
    public let column: String
    /// The source attribute's index and column.
    public let sourceAttributeIndex: Int
    public let sourceColumn: String
    /// The store function applied to the source, nil for a plain copy.
    public let function: String?

    /// The derived value computed from `operand` (a parameter such as `?4`,
    /// or a column such as `NEW.ZTITLE`).
    public func value(of operand: String) -> String {
        function.map { "\($0)(\(operand))" } ?? operand
    }

    /// Every row derivation of `entity` (inherited attributes included, since a
    /// sub-entity's rows carry them), in attribute order.
    static func derivations(of entity: CheckedEntity, mapping: EntityMapping) -> [RowDerivation] {
        entity.attributes.compactMap { attribute in
            guard let copied = attribute.derivation?.copiedKeyPath,
                  let column = mapping.column(forAttributeAt: attribute.index),
                  let source = entity.attribute(named: copied.path.joined(separator: ".")), !source.isDerived,
                  let sourceColumn = mapping.column(forAttributeAt: source.index) else { return nil }
            return RowDerivation(attributeIndex: attribute.index, column: column, sourceAttributeIndex: source.index,
                                 sourceColumn: sourceColumn, function: copied.function)
        }
    }
}
