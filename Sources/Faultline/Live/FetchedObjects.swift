/// A controller's objects, or a section's, in order: IDs the controller
/// holds, each turned into its context's object when read. With a
/// `fetchBatchSize`, reading an object not in memory yet makes the faults of
/// its whole batch, so firing one fulfils them all in one statement — what
/// Core Data's batched arrays do.
public struct FetchedObjects: RandomAccessCollection {
    /// Every ID of the controller's results; this collection is `range` of them.
    private let all: [ManagedObjectID]
    private let range: Range<Int>
    private let context: ManagedObjectContext
    private let batchSize: Int
    private let prefetching: [String]

    init(_ all: [ManagedObjectID], range: Range<Int>, context: ManagedObjectContext, batchSize: Int, prefetching: [String]) {
        self.all = all
        self.range = range
        self.context = context
        self.batchSize = batchSize
        self.prefetching = prefetching
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    /// The IDs, in order, without making any object.
    public var objectIDs: ArraySlice<ManagedObjectID> { all[range] }

    public subscript(position: Int) -> ManagedObject {
        let index = range.lowerBound + position
        let id = all[index]
        if let object = context.registeredObject(for: id) { return object }
        guard batchSize > 0 else { return context.object(owned: id) }
        let start = index - index % batchSize
        let window = all[start ..< Swift.min(start + batchSize, all.count)]
        let members = window.map { context.object(owned: $0) }
        context.attach(members.filter { $0.isFaultStorage && $0.batch == nil }, prefetching: prefetching)
        return members[index - start]
    }
}
