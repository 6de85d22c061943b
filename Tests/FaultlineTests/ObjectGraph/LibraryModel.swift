import FixtureSupport
import Foundation
@testable import Faultline

/// Authors → books → chapters, for the object-graph tests.
enum LibraryModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string).required().validated(.minimumLength(3))
                Attribute("born", .date)
                Relationship("books", to: "Book", inverse: "author", toMany: true, deleteRule: .cascade)
                Relationship("publisher", to: "Publisher", inverse: "authors")
                Unique("name")
            }
            Entity("Book") {
                Attribute("title", .string).required()
                Attribute("pages", .integer64).defaultValue(.integer(0))
                Attribute("price", .decimal)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("chapters", to: "Chapter", inverse: "book", toMany: true, deleteRule: .cascade)
                Relationship("shelves", to: "Shelf", inverse: "books", toMany: true)
            }
            Entity("Chapter") {
                Attribute("title", .string)
                Attribute("number", .integer32)
                Relationship("book", to: "Book", inverse: "chapters")
            }
            Entity("Publisher") {
                Attribute("name", .string)
                Relationship("authors", to: "Author", inverse: "publisher", toMany: true, deleteRule: .deny)
            }
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("books", to: "Book", inverse: "shelves", toMany: true)
            }
        }
    }

    /// A container on a fresh temporary file store.
    static func container(_ model: ManagedObjectModel = model()) throws -> (PersistentContainer, URL) {
        let url = ScratchStores.url()
        return (try PersistentContainer(model: model, location: .file(url)), url)
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}
