import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Saves recorded in Core Data's history tables and read back: which objects
/// each transaction changed, only the changed properties in an update's mask,
/// deleted objects' preserved values, who saved; fetching after a token and
/// deleting before one, as Core Data's `NSPersistentHistoryChangeRequest`.
@Suite("Persistent history: saves recorded in Core Data's tables, fetched after a token, deleted before one")
struct HistoryRoundTripTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string).preservesValueInHistoryOnDeletion()
                Attribute("born", .date)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string).preservesValueInHistoryOnDeletion()
                Attribute("pages", .integer64)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
    }

    static func container(tracking: Bool? = true) throws -> (PersistentContainer, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString).sqlite")
        return (try PersistentContainer(model: model(), location: .file(url), persistentHistoryTracking: tracking), url)
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    static func raw(_ url: URL) throws -> Connection {
        try Connection(.file(url.path), configuration: .inspecting(url.path))
    }

    @Test("Inserts, an update of one attribute, a move between authors and a delete read back as Core Data records them")
    func roundTrip() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        let start = try #require(try container.coordinator.currentPersistentHistoryToken())
        #expect(start.transactionNumber == 0)
        let context = container.newBackgroundContext()
        context.transactionAuthor = "importer"
        context.name = "editor"
        let (ada, grace, first, second) = try context.performAndWait {
            let ada = try context.insertNewObject(forEntityName: "Author")
            try ada.setValue("Ada", forKey: "name")
            let first = try context.insertNewObject(forEntityName: "Book")
            try first.setValue("Notes", forKey: "title")
            try first.setValue(ada, forKey: "author")
            let second = try context.insertNewObject(forEntityName: "Book")
            try second.setValue("Sketch", forKey: "title")
            try second.setValue(ada, forKey: "author")
            try context.save()

            try first.setValue(Int64(120), forKey: "pages")
            try context.save()

            let grace = try context.insertNewObject(forEntityName: "Author")
            try grace.setValue("Grace", forKey: "name")
            try second.setValue(grace, forKey: "author")
            try context.save()

            context.delete(first)
            try context.save()
            return (ada.objectID, grace.objectID, first.objectID, second.objectID)
        }

        let transactions = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: start)).transactions
        #expect(transactions.count == 4)
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3, 4])
        #expect(transactions.allSatisfy { $0.author == "importer" && $0.contextName == "editor" })
        #expect(transactions.allSatisfy { $0.processID == ProcessInfo.processInfo.processName })
        func changes(_ number: Int) -> [ManagedObjectID: PersistentHistoryChange] {
            Dictionary(transactions[number].changes.map { ($0.changedObjectID, $0) }, uniquingKeysWith: { first, _ in first })
        }
        #expect(Set(transactions[0].changes.map(\.changedObjectID)) == [ada, first, second])
        #expect(transactions[0].changes.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil })

        #expect(transactions[1].changes.count == 1)
        #expect(changes(1)[first]?.changeType == .update)
        #expect(changes(1)[first]?.updatedProperties == ["pages"], "only the changed column, not every column")

        #expect(changes(2)[grace]?.changeType == .insert)
        #expect(changes(2)[second]?.updatedProperties == ["author"])
        #expect(changes(2)[ada]?.updatedProperties == ["books"], "the inverse to-many changed too")

        #expect(changes(3)[first]?.changeType == .delete)
        #expect(changes(3)[first]?.tombstone == ["title": .string("Notes")])
        #expect(changes(3)[ada]?.updatedProperties == ["books"])

        // The bytes as Core Data writes them: Book's slots are author (0), pages (1), title (2); pages is 0x40.
        let raw = try Self.raw(url)
        #expect(try raw.scalar("SELECT hex(ZCOLUMNS) FROM ACHANGE WHERE ZTRANSACTIONID = 2") == .text("40"))
        #expect(try raw.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
            == [[.integer(16001), .integer(9)], [.integer(16002), .integer(4)], [.integer(16003), .integer(3)]])
        // Interned in the order author, bundle ID (none for a Linux process), context name, process.
        #expect(try raw.rows("SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK")
            == [[.text("importer")], [.text("editor")], [.text(ProcessInfo.processInfo.processName)]]
            || Bundle.main.bundleIdentifier != nil)
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))

        let later = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: transactions[1])).transactions
        #expect(later.map(\.transactionNumber) == [3, 4])
        #expect(try container.coordinator.currentPersistentHistoryToken() == transactions[3].token)
    }

    @Test("History statements per save do not grow with the save: one insert of 50 objects costs what one object costs")
    func statementsPerSave() throws {
        let (tracked, trackedURL) = try Self.container(tracking: true)
        let (plain, plainURL) = try Self.container(tracking: false)
        defer {
            Self.remove(trackedURL)
            Self.remove(plainURL)
        }
        func save(_ count: Int, in container: PersistentContainer) throws -> Int {
            let context = container.newBackgroundContext()
            context.transactionAuthor = "bench"
            let before = container.coordinator.writer.counters.statementsExecuted
            try context.performAndWait {
                for number in 0..<count {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(number)", forKey: "title")
                }
                try context.save()
            }
            return container.coordinator.writer.counters.statementsExecuted - before
        }
        // The first save interns the names, the second finds and caches them;
        // from then on each save pays the same.
        for _ in 0..<2 {
            _ = try save(1, in: tracked)
            _ = try save(1, in: plain)
        }
        let one = try save(1, in: tracked) - save(1, in: plain)
        let fifty = try save(50, in: tracked) - save(50, in: plain)
        #expect(one == 4, "transaction and change keys, the transaction row, the change rows")
        #expect(fifty == one)
    }

    @Test("A save of more changes than one VALUES statement takes records them all through one JSON list, masks and order intact")
    func manyChangesInOneSave() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        let context = container.newBackgroundContext()
        let count = HistoryStatements.valuesRowLimit * 2 + 3
        let ids = try context.performAndWait {
            let books = try (0..<count).map { number in
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(number)", forKey: "title")
                return book
            }
            try context.save()
            for (number, book) in books.enumerated() { try book.setValue(Int64(number), forKey: "pages") }
            try context.save()
            for book in books.prefix(count / 2) { context.delete(book) }
            try context.save()
            return books.map(\.objectID)
        }
        let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.map(\.changes.count) == [count, count, count / 2])
        #expect(Set(transactions[1].changes.map(\.changedObjectID)) == Set(ids))
        #expect(transactions[1].changes.allSatisfy { $0.changeType == .update && $0.updatedProperties == ["pages"] })
        #expect(transactions[2].changes.allSatisfy { $0.changeType == .delete && $0.tombstone?["title"] != nil })
        let keys = transactions.flatMap(\.changes).map(\.changeID)
        #expect(keys == Array(1...Int64(keys.count)), "change keys follow Z_MAX with no gap")
    }

    @Test("A fetch after a token returns exactly the later transactions; a delete before one removes exactly the earlier ones, and keys keep growing after it")
    func fetchAndDelete() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        let context = container.newBackgroundContext()
        for number in 1...5 {
            try context.performAndWait {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(number)", forKey: "title")
                try context.save()
            }
        }
        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(all.map(\.transactionNumber) == [1, 2, 3, 4, 5])
        #expect(try context.execute(.fetchHistory(after: all[2].token)).transactions.map(\.transactionNumber) == [4, 5])
        #expect(try context.execute(.fetchHistory(after: all[1].timestamp)).transactions.first?.transactionNumber ?? 0 >= 2)

        let deleted = try context.execute(.deleteHistory(before: all[2].token))
        #expect(deleted.deletedTransactionCount == 3)
        #expect(try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.map(\.transactionNumber) == [4, 5])
        // A token older than what was deleted would skip transaction 2 and 3 unseen.
        #expect(throws: PersistentHistoryError.expiredToken(transactionNumber: 1)) {
            try context.execute(.fetchHistory(after: all[0].token))
        }
        let raw = try Self.raw(url)
        #expect(try raw.scalar("SELECT count(*) FROM ACHANGE") == .integer(2))

        _ = try context.execute(.deleteHistory(before: all[4].token))
        #expect(try raw.scalar("SELECT count(*) FROM ATRANSACTION") == .integer(0))
        #expect(throws: PersistentHistoryError.expiredToken(transactionNumber: 4)) {
            try context.execute(.fetchHistory(after: all[3].token))
        }
        #expect(try context.execute(.fetchHistory(after: all[4].token)).transactions.isEmpty)
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("After", forKey: "title")
            try context.save()
        }
        let after = try context.execute(.fetchHistory(after: all[4].token)).transactions
        #expect(after.map(\.transactionNumber) == [6], "a token saved before the delete still sees the new transaction")
    }

    @Test("Batch insert, update and delete are recorded like saves: one change per row, the updated properties, tombstones; one statement for a whole batch insert's changes")
    func batchRequests() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        let context = container.newBackgroundContext()
        context.transactionAuthor = "sync"
        let rows: [[String: Any]] = (0..<100).map { ["title": "Book \($0)", "pages": Int64($0)] }
        let (plain, plainURL) = try Self.container(tracking: false)
        defer { Self.remove(plainURL) }
        /// Statements of a batch insert of `rows` into `store` after two
        /// one-row batches (the first interns the names, the second finds and
        /// caches them; both teach the writer the key counters).
        func statements(_ store: PersistentContainer, _ rows: [[String: Any]]) throws -> Int {
            let context = store.newBackgroundContext()
            context.transactionAuthor = "sync"
            return try context.performAndWait {
                for _ in 0..<2 {
                    _ = try context.execute(BatchInsertRequest(entityName: "Book", in: store.model, objects: [["title": "Warm"]]))
                }
                let before = store.coordinator.writer.counters.statementsExecuted
                let inserted = try context.execute(BatchInsertRequest(entityName: "Book", in: store.model, objects: rows))
                #expect(inserted.changes.insertedCount == rows.count)
                return store.coordinator.writer.counters.statementsExecuted - before
            }
        }
        // The transaction's key and row, the change keys, the change rows: no statement per change.
        #expect(try statements(container, rows) - statements(plain, rows) == 4)
        _ = try context.execute(.deleteHistory(before: try #require(try container.coordinator.currentPersistentHistoryToken())))
        try context.performAndWait {
            _ = try context.execute(BatchDeleteRequest(entityName: "Book"))
            _ = try context.execute(.deleteHistory(before: try #require(try container.coordinator.currentPersistentHistoryToken())))
            _ = try context.execute(BatchInsertRequest(entityName: "Book", in: container.model, objects: rows))
            _ = try context.execute(BatchUpdateRequest(
                entityName: "Book", predicate: try FetchPredicate(format: "pages < 10"),
                propertiesToUpdate: ["pages": .value(.integer(0))]))
            _ = try context.execute(BatchDeleteRequest(entityName: "Book", predicate: try FetchPredicate(format: "pages >= 98")))
            // A batch that changes nothing records nothing.
            _ = try context.execute(BatchDeleteRequest(entityName: "Book", predicate: try FetchPredicate(format: "pages > 1000")))
        }
        let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 3)
        #expect(transactions.allSatisfy { $0.author == "sync" })
        #expect(transactions[0].changes.count == 100)
        #expect(transactions[0].changes.allSatisfy { $0.changeType == .insert })
        let keys = transactions[0].changes.map(\.changedObjectID.primaryKey)
        #expect(keys == Array(keys[0]..<keys[0] + 100))
        #expect(transactions[1].changes.count == 10)
        #expect(transactions[1].changes.allSatisfy { $0.changeType == .update && $0.updatedProperties == ["pages"] })
        #expect(transactions[2].changes.map(\.changeType) == [.delete, .delete])
        #expect(Set(transactions[2].changes.compactMap { $0.tombstone?["title"] }) == [.string("Book 98"), .string("Book 99")])
        #expect(try Self.raw(url).scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("An update names the derived attributes its changes make the triggers recompute, on the object and on the others whose derivations read it: a canonical title, a count and a sum over a to-many, a key path through a to-one")
    func derivedAttributes() throws {
        let model = ManagedObjectModel {
            Entity("Shelf") {
                Attribute("label", .string)
                Derived("bookCount", .integer64, "books.@count")
                Derived("totalPages", .integer64, "books.@sum.pages")
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Derived("searchTitle", .string, "canonical:(title)")
                Derived("shelfLabel", .string, "shelf.label")
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString).sqlite")
        defer { Self.remove(url) }
        let container = try PersistentContainer(model: model, location: .file(url), persistentHistoryTracking: true)
        let context = container.newBackgroundContext()
        let (shelf, book, other) = try context.performAndWait {
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Émile", forKey: "title")
            let other = try context.insertNewObject(forEntityName: "Book")
            try other.setValue("Sophie", forKey: "title")
            try other.setValue(shelf, forKey: "shelf")
            try context.save()                                  // 1: inserts only
            try book.setValue(shelf, forKey: "shelf")
            try book.setValue("Emil", forKey: "title")
            try context.save()                                  // 2: a move onto the shelf
            try book.setValue(Int64(3), forKey: "pages")
            try context.save()                                  // 3: a member's summed attribute
            try shelf.setValue("Top", forKey: "label")
            try context.save()                                  // 4: the label its books copy
            return (shelf.objectID, book.objectID, other.objectID)
        }
        let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 4)
        func changes(_ number: Int) -> [ManagedObjectID: Set<String>] {
            Dictionary(transactions[number].changes.map { ($0.changedObjectID, $0.updatedProperties ?? []) }, uniquingKeysWith: { $1 })
        }
        #expect(transactions[0].changes.allSatisfy { $0.changeType == .insert }, "the inserted shelf gets no update row")
        #expect(changes(1)[book] == ["shelf", "title", "searchTitle", "shelfLabel"])
        #expect(changes(1)[shelf] == ["books", "bookCount", "totalPages"])
        #expect(changes(2)[book] == ["pages"])
        #expect(changes(2)[shelf] == ["totalPages"], "the shelf no save touched: its sum over the books changed")
        #expect(changes(3)[shelf] == ["label"])
        #expect(changes(3)[book] == ["shelfLabel"])
        #expect(changes(3)[other] == ["shelfLabel"])
        #expect(transactions[3].changes.count == 3)
    }

    @Test("A batch insert of members and a batch delete record their owners' recomputed counts")
    func derivedByBatches() throws {
        let model = ManagedObjectModel {
            Entity("Shelf") {
                Attribute("label", .string)
                Derived("bookCount", .integer64, "books.@count")
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString).sqlite")
        defer { Self.remove(url) }
        let container = try PersistentContainer(model: model, location: .file(url), persistentHistoryTracking: true)
        let context = container.newBackgroundContext()
        let shelf = try context.performAndWait {
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            try shelf.setValue("Low", forKey: "label")
            try context.save()
            return shelf.objectID
        }
        let rows: [[String: Any]] = (0..<5).map { ["title": "Book \($0)", "shelf": shelf] }
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Book", in: container.model, objects: rows))
            _ = try context.execute(BatchDeleteRequest(entityName: "Book", predicate: try FetchPredicate(format: "title == 'Book 0'")))
        }
        let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 3)
        let inserted = transactions[1].changes
        #expect(inserted.filter { $0.changeType == .insert }.count == 5)
        #expect(inserted.first { $0.changedObjectID == shelf }?.updatedProperties == ["bookCount"])
        #expect(transactions[2].changes.first { $0.changedObjectID == shelf }?.updatedProperties?.contains("bookCount") == true)
        #expect(try Self.raw(url).scalar("SELECT ZBOOKCOUNT FROM ZSHELF") == .integer(4))
    }

    @Test("Tokens survive JSON encoding, compare by transaction, and a token of another store is refused")
    func tokens() throws {
        let (container, url) = try Self.container()
        let (other, otherURL) = try Self.container()
        defer {
            Self.remove(url)
            Self.remove(otherURL)
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.insertNewObject(forEntityName: "Book").setValue("One", forKey: "title")
            try context.save()
        }
        let token = try #require(try container.coordinator.currentPersistentHistoryToken())
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: JSONEncoder().encode(token))
        #expect(decoded == token)
        #expect(PersistentHistoryToken(storeUUID: token.storeUUID, transactionNumber: 0) < token)
        #expect(token.storeUUID == container.coordinator.storeUUID)
        let foreign = try #require(try other.coordinator.currentPersistentHistoryToken())
        #expect(throws: PersistentHistoryError.foreignToken(tokenStore: foreign.storeUUID, store: token.storeUUID)) {
            try context.execute(.fetchHistory(after: foreign))
        }
    }

    @Test("A predicate on the transaction's author keeps only that author's transactions, as a history reader filters out its own")
    func predicate() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        for author in ["app", "widget", "app"] {
            let context = container.newBackgroundContext()
            context.transactionAuthor = author
            try context.performAndWait {
                _ = try context.insertNewObject(forEntityName: "Book").setValue(author, forKey: "title")
                try context.save()
            }
        }
        var request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        request.predicate = try FetchPredicate(format: "author != %@", "app")
        let found = try container.coordinator.execute(request).transactions
        #expect(found.map(\.transactionNumber) == [2])
        #expect(found.first?.changes.count == 1)
        request.predicate = try FetchPredicate(format: "colour == %@", "red")
        #expect(throws: FetchPredicateError.self) { try container.coordinator.execute(request) }
    }

    @Test("A change predicate keeps the changes it matches (type, entity, object, the transaction's author) and the transactions left with one")
    func changePredicate() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        let context = container.newBackgroundContext()
        let (ann, book) = try context.performAndWait { () throws -> (ManagedObjectID, ManagedObjectID) in
            context.transactionAuthor = "importer"
            let ann = try context.insertNewObject(forEntityName: "Author")
            try ann.setValue("Ann", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("First", forKey: "title")
            try book.setValue(ann, forKey: "author")
            try context.save()
            context.transactionAuthor = "app"
            try book.setValue(Int64(10), forKey: "pages")
            try context.save()
            context.delete(book)
            try context.save()
            return (ann.objectID, book.objectID)
        }
        func changes(_ format: String, _ arguments: [Any] = []) throws -> [[String]] {
            var request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.changePredicate = try FetchPredicate(format: format, argumentArray: arguments)
            return try container.coordinator.execute(request).transactions.map { transaction in
                transaction.changes.map { "\(transaction.transactionNumber) \($0.changedEntityName) \($0.changeType)" }
            }
        }
        #expect(try changes("changedEntity.name == 'Book'") == [["1 Book insert"], ["2 Book update"], ["3 Book delete"]])
        #expect(try changes("changeType == 2") == [["3 Book delete"]])
        #expect(try changes("changedEntityName == 'Author' AND changeType == 0") == [["1 Author insert"]])
        // The delete also changed Ann's books: an Author update in transaction 3.
        #expect(try changes("transaction.author == 'app'") == [["2 Book update"], ["3 Book delete", "3 Author update"]])
        #expect(try changes("changedObjectID == %@", [ann]) == [["1 Author insert"], ["3 Author update"]])
        #expect(try changes("changedObjectID == %@ AND changeType != 0", [book]) == [["2 Book update"], ["3 Book delete"]])
        #expect(try changes("changeType == 1 AND changedEntity.name == 'Author'") == [["3 Author update"]])
        #expect(try changes("changedEntity.name == 'Publisher'") == [])
        var request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        request.changePredicate = try FetchPredicate(format: "changedColour == 'red'")
        #expect(throws: FetchPredicateError.self) { try container.coordinator.execute(request) }
    }

    @Test("A store with history opened with tracking off refuses writes and changes nothing; a store without history has no tables and no token")
    func trackingOff() throws {
        let (container, url) = try Self.container()
        defer { Self.remove(url) }
        try container.newBackgroundContext().performAndWait { () throws in }
        let refused = try PersistentContainer(model: Self.model(), location: .file(url), persistentHistoryTracking: false)
        let context = refused.newBackgroundContext()
        #expect(throws: StoreError.persistentHistoryTrackingOff(path: url.path)) {
            try context.performAndWait {
                _ = try context.insertNewObject(forEntityName: "Book").setValue("Lost", forKey: "title")
                try context.save()
            }
        }
        #expect(try Self.raw(url).scalar("SELECT count(*) FROM ZBOOK") == .integer(0))

        let (plain, plainURL) = try Self.container(tracking: nil)
        defer { Self.remove(plainURL) }
        #expect(try plain.coordinator.currentPersistentHistoryToken() == nil)
        #expect(try !Self.raw(plainURL).hasTable(named: "ATRANSACTION"))
        #expect(throws: StoreError.noPersistentHistory(path: plainURL.path)) {
            try plain.coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?))
        }
        // Reopened with the default, a store that has the tables records.
        let reopened = try PersistentContainer(model: Self.model(), location: .file(url))
        #expect(reopened.coordinator.history != nil)
    }
}
