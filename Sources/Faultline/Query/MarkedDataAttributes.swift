/// The binary attributes whose columns hold Core Data's external-storage
/// form (`allowsExternalBinaryDataStorage` in a store whose value adapter
/// writes markers): a marker byte, then the bytes (1) or a file's name (2).
///
/// The predicate compiler needs them because SQL sees the stored form, not
/// the value: `==` must compare with the marker-prefixed value, and what SQL
/// cannot answer (a value that would be in a file) must be refused rather
/// than answered wrongly. Dictionary fetches need them to read the column
/// through the adapter, as object fetches do.
struct MarkedDataAttributes: Sendable, Hashable {
    /// Per entity index, the attribute indexes stored with markers.
    let byEntity: [[Int]]
    /// Whether values of every size are written inline (Faultline's own
    /// stores): `==` may then compare with a value over the threshold. A
    /// value a Core Data process later put in a file does not match it.
    var writesInline = false

    static let none = MarkedDataAttributes(byEntity: [])

    /// The first byte of a value stored inline (CoreDataValueAdapter's format,
    /// declared here so the compiler, below the adapter, can bind it).
    static let inlineMarker: UInt8 = 1
    /// Core Data keeps values larger than this many bytes in files (the
    /// 100 KB Apple's engineers give): SQL cannot compare with them.
    static let externalThreshold = 100 * 1024

    func contains(entityIndex: Int, attributeIndex: Int) -> Bool {
        entityIndex < byEntity.count && byEntity[entityIndex].contains(attributeIndex)
    }
}
