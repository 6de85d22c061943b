import Foundation
import Testing
@testable import Faultline

/// A to-many's `minCount` and `maxCount` are checked at save, as Core Data's
/// validation checks them: an optional to-many may be empty whatever its
/// minimum ("optional relationships may have zero objects in the
/// relationship, which might be less than the minimum count",
/// NSRelationshipDescription); one that holds something holds between the two.
@Suite("A to-many's minimum and maximum counts at save")
struct ToManyCountValidationTests {
    static func model(optional: Bool) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "shelf", toMany: true, optional: optional, minCount: 2, maxCount: 3)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
    }

    /// The codes of the validation issues a save of a shelf with `books` books raises.
    static func issues(books: Int, optional: Bool = true) throws -> [ValidationCode] {
        let (container, url) = try LibraryModel.container(model(optional: optional))
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> [ValidationCode] in
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            for index in 0..<books {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("B\(index)", forKey: "title")
                try book.setValue(shelf, forKey: "shelf")
            }
            do {
                try context.save()
                return []
            } catch SaveError.validation(let issues) {
                return issues.map(\.code)
            }
        }
    }

    @Test("An optional to-many with a minimum of 2 saves empty, or with 2 or 3; 1 is too few and 4 too many")
    func optionalCounts() throws {
        #expect(try Self.issues(books: 0) == [])
        #expect(try Self.issues(books: 1) == [.relationshipLacksMinimumCount])
        #expect(try Self.issues(books: 2) == [])
        #expect(try Self.issues(books: 3) == [])
        #expect(try Self.issues(books: 4) == [.relationshipExceedsMaximumCount])
    }

    @Test("A required to-many with a minimum of 2 does not save empty")
    func requiredCounts() throws {
        #expect(try Self.issues(books: 0, optional: false) == [.relationshipLacksMinimumCount])
        #expect(try Self.issues(books: 2, optional: false) == [])
    }
}
