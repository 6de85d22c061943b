/// A column of a dictionary fetch, as the compiler resolved its key path: the
/// SQL expression to select and how the store reads the value back. The kind
/// travels with the expression so reading a row needs no model lookup.
struct SelectedColumn: Sendable {
    enum Kind: Sendable {
        case attribute(AttributeType)
        /// A to-one key, read as the ID of an object of this entity.
        case object(Int)
    }

    let keyPath: String
    let expression: String
    let kind: Kind
}
