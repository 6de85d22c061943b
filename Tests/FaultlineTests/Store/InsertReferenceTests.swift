import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// A save gives its inserts permanent keys and writes every reference between
/// them with those keys: to-ones, many-to-many join rows, and the IDs child
/// contexts adopt. Small saves find a temporary ID by searching the save's
/// inserts, larger ones (`PromotedIDs.searchLimit`) through a table; both
/// sides of the limit are saved here.
@Suite("References between objects inserted together")
struct InsertReferenceTests {
    /// Saves of 1, `searchLimit`, `searchLimit + 1` and 40 inserts.
    static let sizes = [1, PromotedIDs.searchLimit, PromotedIDs.searchLimit + 1, 40]
    /// The same in authors: `insertLinked` inserts four objects an author.
    static let authorCounts = [1, PromotedIDs.searchLimit / 4, PromotedIDs.searchLimit / 4 + 1, 10]

    /// `count` authors, each with a book of its own on a new shelf, and a
    /// second book by the previous author (the last author for the first);
    /// one save. Returns the authors' IDs after it, by name, and the books'
    /// IDs with their titles.
    static func insertLinked(_ count: Int, in context: ManagedObjectContext) throws -> Linked {
        try context.performAndWait {
            var authors: [ManagedObject] = []
            var books: [ManagedObject] = []
            for number in 0..<count {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(String(format: "Author %02d", number), forKey: "name")
                authors.append(author)
            }
            for (number, author) in authors.enumerated() {
                let shelf = try context.insertNewObject(forEntityName: "Shelf")
                try shelf.setValue("Shelf \(number)", forKey: "label")
                let own = try context.insertNewObject(forEntityName: "Book")
                try own.setValue("Own \(number)", forKey: "title")
                try own.setValue(author, forKey: "author")
                try own.setValue(Set([shelf]), forKey: "shelves")
                books.append(own)
                let other = try context.insertNewObject(forEntityName: "Book")
                try other.setValue("Other \(number)", forKey: "title")
                try other.setValue(authors[(number + count - 1) % count], forKey: "author")
                books.append(other)
            }
            try context.save()
            #expect(authors.allSatisfy { !$0.objectID.isTemporaryID })
            return Linked(
                authors: Dictionary(uniqueKeysWithValues: try authors.map { (try #require($0.value(forKey: "name") as? String), $0.objectID) }),
                books: try books.map { (try #require($0.value(forKey: "title") as? String), $0.objectID) })
        }
    }

    struct Linked {
        let authors: [String: ManagedObjectID]
        let books: [(title: String, id: ManagedObjectID)]
    }

    @Test("Each book's row names its author's key, and each join row its shelf's, below and above the search limit",
          arguments: authorCounts)
    func toOnesAndJoinRows(count: Int) throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let ids = try Self.insertLinked(count, in: container.newBackgroundContext()).authors
        let connection = try Connection(.file(url.path))
        let authorOfBook = try connection.rows("SELECT b.ZTITLE, b.ZAUTHOR FROM ZBOOK b ORDER BY b.Z_PK")
        #expect(authorOfBook.count == 2 * count)
        for row in authorOfBook {
            guard case .text(let title) = row[0], case .integer(let key) = row[1],
                  let number = Int(title.split(separator: " ")[1]) else {
                Issue.record("a book row without a title or an author key: \(row)")
                continue
            }
            let author = title.hasPrefix("Own") ? number : (number + count - 1) % count
            #expect(key == ids[String(format: "Author %02d", author)]?.primaryKey, "\(title)")
        }
        let shelved = try connection.rows("""
            SELECT b.ZTITLE, s.ZLABEL FROM Z_\(try Self.joinTableSuffix(connection)) j
            JOIN ZBOOK b ON b.Z_PK = j.\(try Self.joinColumn(connection, "BOOKS")) JOIN ZSHELF s ON s.Z_PK = j.\(try Self.joinColumn(connection, "SHELVES"))
            """)
        #expect(shelved.count == count)
        for row in shelved {
            guard case .text(let title) = row[0], case .text(let label) = row[1] else {
                Issue.record("a join row naming no book or shelf: \(row)")
                continue
            }
            #expect(title.dropFirst("Own ".count) == label.dropFirst("Shelf ".count), "\(title) on \(label)")
        }
    }

    @Test("Another context reads each book's author from the rows the save cached: permanent IDs, no statement",
          arguments: authorCounts)
    func cachedRowsHoldPermanentKeys(count: Int) throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let linked = try Self.insertLinked(count, in: container.newBackgroundContext())
        let reader = container.newBackgroundContext()
        let before = container.coordinator.sqlCounters.statementsExecuted
        try reader.performAndWait {
            for (title, id) in linked.books {
                let author = try #require(try reader.existingObject(with: id).value(forKey: "author") as? ManagedObject)
                guard let number = Int(title.split(separator: " ")[1]) else { continue }
                let expected = title.hasPrefix("Own") ? number : (number + count - 1) % count
                #expect(author.objectID == linked.authors[String(format: "Author %02d", expected)], "\(title)")
            }
        }
        #expect(container.coordinator.sqlCounters.statementsExecuted == before, "every row came from the row cache")
    }

    @Test("A child's inserts take the permanent IDs of the parent's save, below and above the search limit", arguments: sizes)
    func childAdoptsPermanentIDs(count: Int) throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        let child = parent.newChildContext()
        let inserted = try child.performAndWait {
            let authors = try (0..<count).map { number in
                let author = try child.insertNewObject(forEntityName: "Author")
                try author.setValue("Child \(number)", forKey: "name")
                return author
            }
            try child.save()
            return authors
        }
        let saved = try parent.performAndWait {
            try parent.save()
            return try parent.fetch(FetchRequest(entityName: "Author")).map(\.objectID)
        }
        // The child adopts them on its own queue: a block queued after the
        // adoption runs once it is done.
        let adopted = child.performAndWait { inserted.map(\.objectID) }
        #expect(adopted.allSatisfy { !$0.isTemporaryID })
        #expect(Set(adopted) == Set(saved))
        child.performAndWait {
            for author in inserted { #expect(child.registeredObject(for: author.objectID) === author) }
        }
    }

    /// The many-to-many join table's name (`Z_<n>BOOKS` style, as Core Data
    /// numbers it) and its columns, read from the schema rather than assumed.
    static func joinTableSuffix(_ connection: Connection) throws -> String {
        let names = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%SHELVES' ESCAPE '\\'")
        guard let first = names.first, case .text(let name) = first[0] else { throw JoinTableMissing() }
        return String(name.dropFirst(2))
    }

    static func joinColumn(_ connection: Connection, _ suffix: String) throws -> String {
        let table = "Z_" + (try joinTableSuffix(connection))
        let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
        for column in columns {
            if case .text(let name) = column[0], name.hasSuffix(suffix) { return name }
        }
        throw JoinTableMissing()
    }

    struct JoinTableMissing: Error {}
}
