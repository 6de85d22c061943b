/// Core Data's `init(context:)`, the way most Core Data code makes objects:
/// `let book = try Book(context: context)`.
extension ManagedObject {
    /// A new object of the entity this class is registered for, inserted
    /// into `context` with the model's default values, after
    /// `awakeFromInsert` ran: the same as `context.insertObject(Book.self)`.
    /// Throws where Core Data raises: a class no entity of the context's
    /// model is registered with (`ObjectAccessError.unknownKey`), or an
    /// abstract entity (`ObjectAccessError.abstractEntity`).
    public convenience init(context: ManagedObjectContext) throws {
        context.checkQueue()
        let entityIndex = try context.entityIndex(of: Self.self)
        let id = try context.newObjectID(entityIndex: entityIndex)
        self.init(context.construction(id: id, entityIndex: entityIndex))
        context.noteMade(self)
        context.adoptInserted(self)
    }
}
