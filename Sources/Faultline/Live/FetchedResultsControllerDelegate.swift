import Foundation

/// Told of each change to a controller's results, in Core Data's order:
/// will change; each section and object change (deletes at their old index
/// paths, inserts at their new ones, moves from old to new, updates with
/// both); did change. The change methods do nothing by default; the index
/// title is Core Data's by default.
public protocol FetchedResultsControllerDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// A section's title in the section index; by default Core Data's, the
    /// name's first character capitalised (nil leaves the section out of it).
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    public func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        FetchedResultsController.defaultSectionIndexTitle(forSectionName: sectionName)
    }
}

/// Told of each change as one difference of the ordered object IDs, for a
/// diffable data source: Core Data's `controller(_:didChangeContentWith:)`.
/// As in Core Data, a delegate that takes the difference gets no other
/// callback (and the controller computes no index paths for it); unlike
/// Core Data, it gets it with a section key path too (the IDs in order, across
/// sections). A saved object's new permanent ID arrives this way as well.
public protocol FetchedResultsControllerDifferenceDelegate: FetchedResultsControllerDelegate {
    func controller(_ controller: FetchedResultsController,
                    didChangeContentWith difference: CollectionDifference<ManagedObjectID>)
}

/// What happened to an object or a section between two states of a controller.
public enum FetchedResultsChangeType: Sendable, Equatable {
    case insert, delete, move, update
}
