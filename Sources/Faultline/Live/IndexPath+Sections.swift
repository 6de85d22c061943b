import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
/// UIKit's table and collection index paths, which Foundation on Linux lacks:
/// a section and an item (or row) within it.
extension IndexPath {
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The section; -1 for an index path of fewer than two indexes.
    public var section: Int { count >= 2 ? self[0] : -1 }
    /// The item within the section; -1 for an index path of fewer than two indexes.
    public var item: Int { count >= 2 ? self[1] : -1 }
    public var row: Int { item }
}
#endif
