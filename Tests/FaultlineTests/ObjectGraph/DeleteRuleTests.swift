import Foundation
import Testing
@testable import Faultline

/// Delete rules: cascade removes the subtree, nullify clears the inverse, deny
/// blocks the save.
@Suite("Delete rules")
struct DeleteRuleTests {
    @Test("Cascade deletes the subtree; nullify clears the inverse")
    func cascadeAndNullify() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            for index in 0..<2 {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(index)", forKey: "title")
                try book.setValue(author, forKey: "author")
                try book.addObject(shelf, toRelationship: "shelves")
                for number in 0..<3 {
                    let chapter = try context.insertNewObject(forEntityName: "Chapter")
                    try chapter.setValue(number, forKey: "number")
                    try chapter.setValue(book, forKey: "book")
                }
            }
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Chapter")) == 6)
            #expect((shelf.value(forKey: "books") as? [ManagedObject])?.count == 2)

            context.delete(author)
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Author")) == 0)
            #expect(try context.count(for: FetchRequest(entityName: "Book")) == 0)
            #expect(try context.count(for: FetchRequest(entityName: "Chapter")) == 0)
            // Nullify: the shelf survives and no longer lists the books.
            #expect(try context.count(for: FetchRequest(entityName: "Shelf")) == 1)
            #expect((shelf.value(forKey: "books") as? [ManagedObject])?.isEmpty == true)
            let joinRows = try container.coordinator.withReader { try $0.scalar("SELECT count(*) FROM Z_2SHELVES") }
            #expect(joinRows == .integer(0))
        }
    }

    @Test("Deny blocks the save while the relationship is not empty")
    func deny() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try author.setValue(publisher, forKey: "publisher")
            try context.save()
            context.delete(publisher)
            do {
                try context.save()
                Issue.record("deny should block the save")
            } catch let error as SaveError {
                #expect(error.validationIssues.map(\.code) == [.relationshipDeniedDelete])
            }
            context.rollback()
            try author.setValue(nil, forKey: "publisher")
            try context.save()
            context.delete(publisher)
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Publisher")) == 0)
        }
    }

    @Test("Inverses stay right in memory: moving a book updates both authors at once")
    func inverses() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Author")
            try first.setValue("First", forKey: "name")
            let second = try context.insertNewObject(forEntityName: "Author")
            try second.setValue("Second", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Moved", forKey: "title")
            try first.addObject(book, toRelationship: "books")
            #expect(book.value(forKey: "author") as? ManagedObject === first)
            try book.setValue(second, forKey: "author")
            #expect((first.value(forKey: "books") as? [ManagedObject])?.isEmpty == true)
            #expect((second.value(forKey: "books") as? [ManagedObject])?.count == 1)
            try context.save()
            context.reset()
            let authors = try context.fetch(FetchRequest(entityName: "Author"))
            let counts = authors.map { (($0.value(forKey: "name") as? String) ?? "", ($0.value(forKey: "books") as? [ManagedObject])?.count ?? -1) }
            #expect(Dictionary(uniqueKeysWithValues: counts) == ["First": 0, "Second": 1])
        }
    }
}
