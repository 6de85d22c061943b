import Foundation
import Testing
@testable import Faultline

/// `[FIRST]`, `[LAST]`, `[n]` of a to-many: in memory, the relationship's
/// elements in order; in a fetch, an ordered to-many's element by its
/// ordering column (a correlated `ORDER BY … LIMIT 1 OFFSET ?`, keyed or
/// through a join table), the same objects as in memory; an unordered
/// to-many has no positions in SQL and is refused by name.
@Suite("Index operators on a to-many: by position in memory and, for ordered to-manys, in SQL")
struct CollectionIndexTests {
    @Test("books[FIRST], books[LAST] and books[n] read the relationship's elements in order; past the end is nil")
    func inMemory() throws {
        let books = (1...3).map { DictionarySubject("Book", id: Int64($0), ["title": .value(.string("B\($0)"))]) }
        let author = DictionarySubject("Author", id: 1, ["books": .many(books)])
        func book(_ key: Int64) -> PredicateValue { .objectID(PredicateObjectID(entityName: "Book", primaryKey: key)) }
        #expect(try FetchPredicate(format: "books[FIRST] == %@", arguments: [book(1)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[LAST] == %@", arguments: [book(3)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[1] == %@", arguments: [book(2)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[3] == nil").evaluate(with: author))
        #expect(try !FetchPredicate(format: "books[FIRST] == %@", arguments: [book(2)]).evaluate(with: author))
    }

    @Test("songs[FIRST], songs[LAST], songs[n] and tags[FIRST] (many-to-many) find in SQL what the evaluator finds")
    func orderedInSQL() throws {
        let (container, url) = try LibraryModel.container(OrderedRelationshipTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait { () throws -> [String: ManagedObjectID] in
            var objects: [String: ManagedObject] = [:]
            for name in ["P1", "P2"] {
                objects[name] = try context.insertNewObject(forEntityName: "Playlist")
                try objects[name]?.setValue(name, forKey: "name")
            }
            for title in ["a", "b", "c", "x", "y"] {
                objects[title] = try context.insertNewObject(forEntityName: "Song")
                try objects[title]?.setValue(title, forKey: "title")
            }
            for label in ["t1", "t2"] {
                objects[label] = try context.insertNewObject(forEntityName: "Tag")
                try objects[label]?.setValue(label, forKey: "label")
            }
            try objects["P1"]?.setValue(["a", "b", "c"].compactMap { objects[$0] }, forKey: "songs")
            try objects["P2"]?.setValue(["x", "y"].compactMap { objects[$0] }, forKey: "songs")
            try objects["P1"]?.setValue(["t2", "t1"].compactMap { objects[$0] }, forKey: "tags")
            try objects["P2"]?.setValue(["t1"].compactMap { objects[$0] }, forKey: "tags")
            try context.save()
            return objects.mapValues(\.objectID)
        }
        let cases: [(String, String, Set<String>)] = [
            ("songs[FIRST] == %@", "a", ["P1"]), ("songs[LAST] == %@", "y", ["P2"]), ("songs[1] == %@", "b", ["P1"]),
            ("songs[LAST] == %@", "b", []), ("tags[FIRST] == %@", "t2", ["P1"]), ("tags[LAST] == %@", "t1", ["P1", "P2"]),
        ]
        let fresh = container.newBackgroundContext()
        for (format, argument, expected) in cases {
            let id = try #require(ids[argument], "no object named \(argument)")
            let predicate = try FetchPredicate(format: format, id)
            let (fetched, evaluated) = try fresh.performAndWait { () throws -> (Set<String>, Set<String>) in
                let name = { (object: ManagedObject) in object.value(forKey: "name") as? String ?? "" }
                let all = try fresh.fetch(FetchRequest(entityName: "Playlist"))
                return (Set(try fresh.fetch(FetchRequest(entityName: "Playlist", predicate: predicate)).map(name)),
                        Set(try all.filter { try predicate.evaluate(with: $0) }.map(name)))
            }
            #expect(fetched == expected, "\(format) \(argument)")
            #expect(evaluated == expected, "\(format) \(argument) in memory")
        }
        #expect(try fresh.performAndWait {
            try fresh.fetch(try FetchRequest(entityName: "Playlist", format: "songs[5] == nil")).count
        } == 2)
    }

    @Test("In a fetch, an element of an unordered to-many by position is FetchError.unsupportedPredicate naming the construct")
    func refusedInSQL() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        #expect {
            try context.performAndWait { try context.fetch(try FetchRequest(entityName: "Author", format: "books[FIRST] != nil")) }
        } throws: { error in
            guard case FetchError.unsupportedPredicate(let what) = error else { return false }
            return what.contains("not an ordered to-many relationship")
        }
    }
}
