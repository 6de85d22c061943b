import Foundation
import Testing
@testable import Faultline

/// The save runs every changed object's `willSave` again while any of them
/// changed something (counted on the context's handle), up to a bound that
/// ends in `SaveError.willSaveDidNotSettle`.
@Suite("The willSave loop")
struct WillSaveLoopTests {
    /// `copiesFrom` copies its partner's pages; `setsPages` sets its own.
    final class ChainedBook: ManagedObject {
        static let pages = AttributeKey<Int64?>("pages")
        var copiesFrom: ChainedBook?
        var setsPages: Int64?
        var neverSettles = false

        override func willSave() {
            if let copiesFrom, self[Self.pages] != copiesFrom[Self.pages] { self[Self.pages] = copiesFrom[Self.pages] }
            if let setsPages, self[Self.pages] != setsPages { self[Self.pages] = setsPages }
            if neverSettles { self[Self.pages] = (self[Self.pages] ?? 0) + 1 }
        }
    }

    private func insertBook(_ title: String, pages: Int64, in context: ManagedObjectContext) throws -> ChainedBook {
        let book = try #require(try context.insertNewObject(forEntityName: "Book") as? ChainedBook)
        try book.setValue(title, forKey: "title")
        book[ChainedBook.pages] = pages
        return book
    }

    @Test("A write in a later object's willSave runs the loop again, so an earlier object's willSave sees it")
    func laterWriteSeen() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(ChainedBook.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // First in change order, and equal to its partner before the save:
            // its first willSave changes nothing, only the partner's does.
            let copier = try insertBook("Copier", pages: 1, in: context)
            let setter = try insertBook("Setter", pages: 1, in: context)
            copier.copiesFrom = setter
            setter.setsPages = 42
            try context.save()
            #expect(setter[ChainedBook.pages] == 42)
            #expect(copier[ChainedBook.pages] == 42)
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            var request = FetchRequest(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let pages = try reader.fetch(request).map { $0.value(forKey: "pages") as? Int64 }
            #expect(pages == [42, 42])
        }
    }

    @Test("A willSave that never settles ends in willSaveDidNotSettle; nothing is written and the changes stay")
    func neverSettles() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(ChainedBook.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try insertBook("Restless", pages: 1, in: context)
            book.neverSettles = true
            let error = #expect(throws: SaveError.self) { try context.save() }
            guard case .willSaveDidNotSettle(let passes)? = error else {
                Issue.record("expected willSaveDidNotSettle, got \(String(describing: error))")
                return
            }
            #expect(passes == ManagedObjectContext.willSavePassLimit)
            #expect(context.hasChanges)
            #expect(book.isInserted)
            #expect(try context.count(for: FetchRequest(entityName: "Book")) == 1)
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            var request = FetchRequest(entityName: "Book")
            request.includesPendingChanges = false
            let stored = try reader.count(for: request)
            #expect(stored == 0)
        }
    }
}
