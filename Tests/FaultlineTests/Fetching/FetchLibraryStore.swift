import Faultline
import Foundation

/// The predicate table's library (`Library` in DictionarySubject.swift) built
/// in a real store through the object graph, so SQL results can be checked
/// against the in-memory evaluator on the same data.
enum FetchLibraryStore {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Derived("searchName", .string, "canonical:(name)")
                Attribute("age", .integer64)
                Attribute("rating", .double)
                Attribute("balance", .decimal)
                Attribute("isActive", .boolean)
                Attribute("nickname", .string)
                Attribute("size", .integer64)
                Attribute("flightData", .binaryData)
                Composite("colorScheme") {
                    Attribute("primary", .string)
                    Attribute("secondary", .string)
                }
                Relationship("publisher", to: "Publisher", inverse: "authors")
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Derived("searchName", .string, "canonical:(title)")
                Attribute("views", .integer64)
                Attribute("price", .double)
                Attribute("published", .date)
                Attribute("subtitle", .string)
                Attribute("isbn", .UUIDAttributeType)
                Relationship("author", to: "Author", inverse: "books")
            }
            Entity("Publisher") {
                Attribute("name", .string)
                Attribute("country", .string)
                Relationship("authors", to: "Author", inverse: "publisher", toMany: true)
            }
        }
    }

    /// A container holding the library, saved; the caller removes `url`.
    static func make() throws -> (PersistentContainer, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-fetch-\(UUID().uuidString).sqlite")
        return (try make(at: .file(url)), url)
    }

    /// The library in a store at `location` (in memory: one connection, whose
    /// statement cache shows every statement a fetch sent).
    static func make(at location: StoreLocation) throws -> PersistentContainer {
        let container = try PersistentContainer(model: model(), location: location)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var publishers: [String: ManagedObject] = [:]
            for subject in [Library.orbit, Library.tor] {
                publishers[subject.label] = try insert(subject, into: context, links: [:])
            }
            var authors: [String: ManagedObject] = [:]
            for subject in Library.authors {
                authors[subject.label] = try insert(subject, into: context, links: publishers)
            }
            for subject in Library.books { _ = try insert(subject, into: context, links: authors) }
            try context.save()
        }
        return container
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// Inserts an object with `subject`'s fields: values as attributes, a nested
    /// subject as a composite (or, when `links` names it, a to-one).
    private static func insert(_ subject: DictionarySubject, into context: ManagedObjectContext,
                               links: [String: ManagedObject]) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: subject.entity)
        for (key, field) in subject.fields where key != "searchName" {
            switch field {
            case .value(let value):
                try object.setValue(any(value), forKey: key)
            case .one(let nested):
                if let linked = links[nested.label], nested.entity != "ColorScheme" {
                    try object.setValue(linked, forKey: key)
                } else if nested.entity == "ColorScheme" {
                    var elements: [String: Any] = [:]
                    for (element, value) in nested.fields { if case .value(let value) = value, let any = any(value) { elements[element] = any } }
                    try object.setValue(elements, forKey: key)
                }
            case .many:
                continue
            }
        }
        return object
    }

    static func any(_ value: PredicateValue) -> Any? {
        switch value {
        case .null, .array, .objectID: nil
        case .bool(let flag): flag
        case .int(let number): number
        case .double(let number): number
        case .decimal(let number): number
        case .string(let text): text
        case .date(let date): date
        case .uuid(let uuid): uuid
        case .data(let data): data
        }
    }

    /// The label the table uses: a book's title or an author's name.
    static func label(_ object: ManagedObject) -> String {
        (object.value(forKey: "title") as? String) ?? (object.value(forKey: "name") as? String) ?? "?"
    }
}
