/// One section of a fetched-results controller: the objects whose value at
/// the section key path reads `name`, in the fetch's order (Core Data's
/// `NSFetchedResultsSectionInfo`).
public struct FetchedResultsSection {
    /// The section key path's value as text: a string as it is, nil as "",
    /// a number as its digits (a boolean as 1 or 0, as `NSNumber` writes it),
    /// anything else as its description.
    public let name: String
    /// The section's title in a section index: the controller's
    /// `sectionIndexTitle(forSectionName:)` (by default the name's first
    /// character, capitalised).
    public let indexTitle: String?
    /// The section's objects, made on access (a deleted section reports none).
    public let objects: FetchedObjects
    public var numberOfObjects: Int { objects.count }
}
