import Foundation
import Testing
@testable import Faultline

/// A URI attribute through typed keys: a `URL` key (what `model generate`
/// writes) reads and writes the URL, saved and read back from the store; a
/// `String` key on it is refused when the class registers — it read every
/// URI the store handed back as nil.
@Suite("URI attributes through typed keys")
struct TypedURIKeyTests {
    final class Bookmark: ManagedObject {
        static let url = AttributeKey<URL?>("url")
        override class var typedKeys: [any TypedPropertyKey] { super.typedKeys + [Bookmark.url] }
    }

    final class TextBookmark: ManagedObject {
        static let url = AttributeKey<String?>("url")
        override class var typedKeys: [any TypedPropertyKey] { super.typedKeys + [TextBookmark.url] }
    }

    static func model(_ className: String) -> ManagedObjectModel {
        ManagedObjectModel { Entity("Bookmark", className: className) { Attribute("url", .URIAttributeType) } }
    }

    @Test("A URL key writes a URI, and reads it back unsaved, from another context and from the store")
    func urlKey() throws {
        let (container, url) = try LibraryModel.container(Self.model("Bookmark"))
        defer { LibraryModel.remove(url) }
        try container.register(Bookmark.self, forEntityName: "Bookmark", validate: true)
        let swift = try #require(URL(string: "https://swift.org/%C3%A4"))
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let bookmark = try context.insertObject(Bookmark.self)
            bookmark[Bookmark.url] = swift
            #expect(bookmark.value(forKey: "url") as? URL == swift)
            try context.save()
            return bookmark.objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            reader.stalenessInterval = 0
            let bookmark = try #require(try reader.existingObject(with: id) as? Bookmark)
            #expect(bookmark[Bookmark.url] == swift)
            #expect(try reader.count(for: FetchRequest(entityName: "Bookmark", format: "url == %@", swift)) == 1)
        }
    }

    @Test("A String key on a URI attribute is refused when the class registers")
    func stringKeyRefused() throws {
        let (container, url) = try LibraryModel.container(Self.model("TextBookmark"))
        defer { LibraryModel.remove(url) }
        #expect(throws: (any Error).self) {
            try container.register(TextBookmark.self, forEntityName: "Bookmark", validate: true)
        }
    }
}
