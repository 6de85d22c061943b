import Foundation
import Testing
@testable import Faultline

/// A URI attribute through typed keys: a `URL` key (what `model generate`
/// writes) reads and writes the URL; a `String` key reads the text it is
/// stored as, also once the row comes back from the store as a URL; text
/// written through it reads back as a URL dynamically, as Core Data holds it.
@Suite("URI attributes through typed keys")
struct TypedURIKeyTests {
    final class Bookmark: ManagedObject {
        static let url = AttributeKey<URL?>("url")
        static let text = AttributeKey<String?>("url")
        override class var typedKeys: [any TypedPropertyKey] { super.typedKeys + [Bookmark.url, Bookmark.text] }
    }

    @Test("URL and String keys read a URI saved, read back from the store, and written as text")
    func readAndWrite() throws {
        let model = ManagedObjectModel { Entity("Bookmark", className: "Bookmark") { Attribute("url", .URIAttributeType) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        try container.register(Bookmark.self, forEntityName: "Bookmark", validate: true)
        let swift = try #require(URL(string: "https://swift.org/ä"))
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let bookmark = try context.insertObject(Bookmark.self)
            bookmark[Bookmark.url] = swift
            #expect(bookmark[Bookmark.text] == swift.absoluteString)
            try context.save()
            return bookmark.objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            let bookmark = try #require(try reader.existingObject(with: id) as? Bookmark)
            #expect(bookmark[Bookmark.url] == swift)
            #expect(bookmark[Bookmark.text] == swift.absoluteString)
            bookmark[Bookmark.text] = "https://example.com/x"
            #expect(bookmark.value(forKey: "url") as? URL == URL(string: "https://example.com/x"))
            #expect(bookmark[Bookmark.url] == URL(string: "https://example.com/x"))
        }
    }
}
