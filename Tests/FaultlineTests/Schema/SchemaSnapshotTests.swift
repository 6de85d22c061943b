import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// The generated DDL and triggers, as text: a change to the schema compiler is
/// a visible diff of `Snapshots/*.sql`. Re-record with
/// `FAULTLINE_RECORD_SNAPSHOTS=1 swift test --filter SchemaSnapshot` and review the diff.
@Suite("Generated schema snapshots")
struct SchemaSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    private func assertSnapshot(_ schema: StoreSchema, named name: String) throws {
        let text = schema.creationStatements.joined(separator: ";\n\n") + ";\n"
        let file = Self.folder.appendingPathComponent("\(name).sql")
        if ProcessInfo.processInfo.environment["FAULTLINE_RECORD_SNAPSHOTS"] == "1" {
            try text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.path); review it and run again without FAULTLINE_RECORD_SNAPSHOTS")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "the generated schema differs from \(file.path)")
    }

    @Test("The Category/Article model's tables, indexes and triggers")
    func shop() throws {
        try assertSnapshot(ShopModel.schema(), named: "ShopModel")
    }

    @Test("The snapshot is valid SQL that SQLite accepts as one script")
    func snapshotExecutes() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("ShopModel.sql"), encoding: .utf8)
        let store = try TestStore(ShopModel.schema())
        let fresh = try FaultlineSQLite.Connection(.inMemory)
        try StoreFunctions.register(on: fresh)
        try fresh.execute(text)
        let names = "SELECT type, name FROM sqlite_master ORDER BY type, name"
        #expect(try fresh.rows(names) == store.connection.rows(names))
    }
}
