import Foundation
import Testing

/// Paths of the shared Core Data fixtures, found from this file: up to the
/// package root, then `../shared/coredata-stores`.
enum InspectFixtures {
    static func root() throws -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            let parent = directory.deletingLastPathComponent()
            try #require(parent.path != directory.path, "no Package.swift above \(#filePath)")
            directory = parent
        }
        let fixtures = directory.deletingLastPathComponent().appendingPathComponent("shared/coredata-stores")
        try #require(FileManager.default.fileExists(atPath: fixtures.path), "fixtures missing at \(fixtures.path)")
        return fixtures
    }

    static func path(_ relative: String) throws -> String {
        let path = try root().appendingPathComponent(relative).path
        try #require(FileManager.default.fileExists(atPath: path), "fixture missing at \(path)")
        return path
    }

    static let easyLifeModel = "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"

    /// Every `.sqlite` file under the fixtures.
    static func stores() throws -> [String] {
        let root = try root()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".sqlite") }.sorted()
    }

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

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A writable copy of the fixture store at `relative`, in its own temporary
    /// folder (the shared fixtures are read-only).
    static func writableCopy(_ relative: String) throws -> (directory: URL, path: String) {
        let directory = try temporaryDirectory()
        let copy = directory.appendingPathComponent(URL(fileURLWithPath: relative).lastPathComponent).path
        try FileManager.default.copyItem(atPath: try path(relative), toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        return (directory, copy)
    }
}
