import Foundation
import Testing
@testable import Faultline

/// Unsaved objects are sorted in memory, saved ones by SQLite: binary data
/// and UUIDs (blobs in the store) must come out in the same order both ways —
/// byte by byte, a prefix before what extends it.
@Suite("Sorting by binary data and UUIDs: in memory as in the store")
struct InMemoryBytesSortTests {
    static let bytes: [[UInt8]] = [[0xFF], [0x00, 0x01], [], [0x00], [0x7F, 0xFF], [0x01], [0x00, 0x00, 0x02]]

    @Test("Unsaved and saved objects come out in one order", arguments: ["bytes", "identifier"])
    func sameOrder(_ key: String) throws {
        let model = ManagedObjectModel {
            Entity("Token") {
                Attribute("label", .integer64)
                Attribute("bytes", .binaryData)
                Attribute("identifier", .uuid)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (label, bytes) in Self.bytes.enumerated() {
                let token = try context.insertNewObject(forEntityName: "Token")
                try token.setValue(label, forKey: "label")
                try token.setValue(Data(bytes), forKey: "bytes")
                // Differing in the first byte, and in the last.
                var uuid = [UInt8](repeating: 0x80, count: 16)
                uuid[label % 2 == 0 ? 0 : 15] = UInt8(label * 37 % 256)
                try token.setValue(UUID(uuid: (uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
                                               uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15])),
                                   forKey: "identifier")
            }
            var request = FetchRequest(entityName: "Token")
            request.sortDescriptors = [FetchSortDescriptor(key: key)]
            func labels() throws -> [Int64] { try context.fetch(request).compactMap { $0.value(forKey: "label") as? Int64 } }
            let inMemory = try labels()
            try context.save()
            context.reset()
            let inStore = try labels()
            #expect(inStore.count == Self.bytes.count)
            #expect(inMemory == inStore)
        }
    }
}
