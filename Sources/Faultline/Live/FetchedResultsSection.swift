/// One section of a fetched-results controller: the objects whose value at
/// the section key path reads `name`, in the fetch's order (Core Data's
/// `NSFetchedResultsSectionInfo`).
public struct FetchedResultsSection {
    /// The section key path's value as text: a string as it is, nil as "",
    /// anything else as its description.
    public let name: String
    /// The name's first character, uppercased (Core Data's default index title).
    public var indexTitle: String? { name.first.map { String($0).uppercased() } }
    public let objects: [ManagedObject]
    public var numberOfObjects: Int { objects.count }
}

/// What happened to an object or a section between two states of a controller.
public enum FetchedResultsChangeType: Sendable, Equatable {
    case insert, delete, move, update
}
