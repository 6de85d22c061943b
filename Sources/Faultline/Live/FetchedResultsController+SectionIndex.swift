import Foundation

/// A table view's section index over the controller's sections: Core Data's
/// `sectionIndexTitles`, `sectionIndexTitle(forSectionName:)` and
/// `section(forSectionIndexTitle:at:)`.
extension FetchedResultsController {
    /// The index title of the section named `sectionName`: the delegate's
    /// answer when the controller has a delegate (whose default is Core
    /// Data's), otherwise the name's first character, capitalised. The
    /// section of objects whose key path reads nil or "" has none.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: sectionName) }
        return Self.defaultSectionIndexTitle(forSectionName: sectionName)
    }

    /// Core Data's default: the capitalised first letter of the name.
    public static func defaultSectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).capitalized }
    }

    /// The index titles of the sections, each title once, in the order of
    /// the first section that has it (sections "Apple", "Avocado", "Banana"
    /// give "A", "B"); empty before `performFetch()` and without a section
    /// key path.
    public var sectionIndexTitles: [String] { sectionIndex().titles }

    /// The section a table view's index jumps to: the first section with the
    /// title at `sectionIndex` in `sectionIndexTitles`. When that position
    /// holds another title, the first section with `title`; `NSNotFound`
    /// when no section has it (where Core Data raises).
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let index = self.sectionIndex()
        if index.titles.indices.contains(sectionIndex), index.titles[sectionIndex] == title {
            return index.firstSections[sectionIndex]
        }
        guard let position = index.titles.firstIndex(of: title) else { return NSNotFound }
        return index.firstSections[position]
    }

    /// Each distinct title with the first section that has it.
    private func sectionIndex() -> (titles: [String], firstSections: [Int]) {
        guard sectionNameKeyPath != nil, let names = sectionNames else { return ([], []) }
        var titles: [String] = [], firstSections: [Int] = [], seen: Set<String> = []
        for (section, name) in names.enumerated() {
            guard let title = sectionIndexTitle(forSectionName: name), seen.insert(title).inserted else { continue }
            titles.append(title)
            firstSections.append(section)
        }
        return (titles, firstSections)
    }
}
