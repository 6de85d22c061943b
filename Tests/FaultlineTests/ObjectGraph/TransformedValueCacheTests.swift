import Foundation
import Testing
@testable import Faultline

/// A transformable value is decoded once per stored bytes, as Core Data keeps
/// the transformed value on the object: reading it again costs no decode,
/// and setting, rolling back or refreshing it is never answered from a stale
/// entry.
@Suite("Transformable values decode once")
struct TransformedValueCacheTests {
    /// JSON of `[String]`, counting its decodes.
    final class CountingTransformer: AttributeValueTransformer, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var decodes: Int { lock.withLock { count } }
        func encode(_ value: Any) throws -> Data { try JSONEncoder().encode(value as? [String] ?? []) }
        func decode(_ data: Data) throws -> Any {
            lock.withLock { count += 1 }
            return try JSONDecoder().decode([String].self, from: data)
        }
    }

    static func model(transformer name: String) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("tags", .transformable).transformer(name)
            }
        }
    }

    @Test("Reading a value a hundred times decodes it once; a new value, a rollback and a refresh decode again, right")
    func decodesOnce() throws {
        let transformer = CountingTransformer()
        let name = "FaultlineTests.CountingTags.\(UUID().uuidString)"
        ValueTransformerRegistry.register(transformer, forName: name)
        let (container, url) = try LibraryModel.container(Self.model(transformer: name))
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let id = try writer.performAndWait {
            let note = try writer.insertNewObject(forEntityName: "Note")
            try note.setValue(["a", "b"], forKey: "tags")
            try writer.save()
            return note.objectID
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = try context.existingObject(with: id)
            let before = transformer.decodes
            for _ in 0..<100 { #expect(note.value(forKey: "tags") as? [String] == ["a", "b"]) }
            #expect(transformer.decodes == before + 1)

            try note.setValue(["c"], forKey: "tags")
            #expect(note.value(forKey: "tags") as? [String] == ["c"])
            context.rollback()
            #expect(note.value(forKey: "tags") as? [String] == ["a", "b"])
            #expect(transformer.decodes == before + 3, "the set value and the rolled-back one each decode once")

            try writer.performAndWait {
                try writer.existingObject(with: id).setValue(["z"], forKey: "tags")
                try writer.save()
            }
            context.refresh(note, mergeChanges: false)
            #expect(note.value(forKey: "tags") as? [String] == ["z"], "a refreshed row's new bytes are decoded")
        }
    }

    @Test("The cache starts over past its capacity and keeps answering right")
    func bounded() throws {
        let transformer = CountingTransformer()
        let name = "FaultlineTests.CountingTags.\(UUID().uuidString)"
        ValueTransformerRegistry.register(transformer, forName: name)
        let (container, url) = try LibraryModel.container(Self.model(transformer: name))
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var notes: [ManagedObject] = []
            for number in 0..<(TransformedValueCache.capacity + 10) {
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(["\(number)"], forKey: "tags")
                notes.append(note)
            }
            for (number, note) in notes.enumerated() { #expect(note.value(forKey: "tags") as? [String] == ["\(number)"]) }
            #expect(context.transformedValues.decodes == notes.count)
        }
    }
}
