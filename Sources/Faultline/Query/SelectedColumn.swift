/// A column of a dictionary fetch, as the compiler resolved its key path: the
/// SQL expression to select and how the store reads the value back. The kind
/// travels with the expression so reading a row needs no model lookup.
struct SelectedColumn: Sendable {
    enum Kind: Sendable {
        case attribute(AttributeType)
        /// A binary attribute stored in Core Data's external-storage form
        /// (`MarkedDataAttributes`): read through the store's value adapter,
        /// which strips the marker or reads the file, as object fetches do.
        case markedData
        /// A to-one key, read as the ID of an object of this entity.
        case object(Int)
        /// A key of an entity with sub-entities, then the entity number the
        /// row records for it (`expression` selects both): read as the ID of an
        /// object of that entity — of this one when the number names none of
        /// its hierarchy.
        case objectOfEntity(Int)
    }

    /// How many result columns `expression` selects.
    var width: Int32 {
        if case .objectOfEntity = kind { 2 } else { 1 }
    }

    let keyPath: String
    let expression: String
    let kind: Kind
    /// The attribute a key path ends at (nil for computed columns and
    /// objects): a transformable's column holds bytes its coding decodes.
    var attribute: CheckedAttribute? = nil
}
