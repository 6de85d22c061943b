import FixtureSupport
import Foundation
import Testing

/// Paths of the shared Core Data fixtures (`FixtureSupport`), and small model
/// files written for a test.
enum InspectFixtures {
    static func root() throws -> URL { try CoreDataFixtures.root() }

    static func path(_ relative: String) throws -> String { try CoreDataFixtures.path(relative) }

    static let easyLifeModel = "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"

    /// Every SQLite file under the fixtures, relative to their folder.
    static func stores() throws -> [String] { try CoreDataFixtures.sqliteFiles() }

    /// A model `contents` file with one entity `Item` whose attribute `amount` has `type`.
    static func contents(valueType type: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("contents-\(type.replacingOccurrences(of: " ", with: ""))")
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="amount" optional="YES" attributeType="\(type)" syncable="YES"/>
                </entity>
            </model>
            """
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func temporaryDirectory() throws -> URL { try CoreDataFixtures.temporaryDirectory(prefix: "inspect") }

    /// A writable copy of the fixture store at `relative` (with its `-wal` and
    /// `-shm`), in its own temporary folder (the shared fixtures are read-only).
    static func writableCopy(_ relative: String) throws -> (directory: URL, path: String) {
        let directory = try temporaryDirectory()
        return (directory, try CoreDataFixtures.copyStore(relative, into: directory))
    }
}
