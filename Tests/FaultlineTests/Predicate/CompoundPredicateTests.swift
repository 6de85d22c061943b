import Foundation
import Testing
@testable import Faultline

/// `NSCompoundPredicate` as apps use it, a filter built from the parts that
/// apply — none, at times (CartKit's fetchCarts with every filter off).
@Suite("Compound predicates built from parts, none included")
struct CompoundPredicateTests {
    @Test("An empty AND fetches every object and an empty OR none, in the store and in memory; both describe as Core Data's")
    func emptyCompounds() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ann", "Bob", "Cyd"] { try context.insertNewObject(forEntityName: "Author").setValue(name, forKey: "name") }
            try context.save()
            let all = FetchPredicate(andPredicateWithSubpredicates: [])
            let none = FetchPredicate(orPredicateWithSubpredicates: [])
            #expect(all.description == "TRUEPREDICATE")
            #expect(none.description == "FALSEPREDICATE")
            #expect(try context.count(for: FetchRequest(entityName: "Author", predicate: all)) == 3)
            #expect(try context.count(for: FetchRequest(entityName: "Author", predicate: none)) == 0)
            // Unsaved objects are decided by the evaluator, which agrees.
            try context.insertNewObject(forEntityName: "Author").setValue("Dee", forKey: "name")
            #expect(try context.fetch(FetchRequest(entityName: "Author", predicate: all)).count == 4)
            #expect(try context.fetch(FetchRequest(entityName: "Author", predicate: none)).isEmpty)
        }
    }

    @Test("Parts joined by AND, OR and NOT fetch what the format string would")
    func parts() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ann", "Bob", "Cyd"] { try context.insertNewObject(forEntityName: "Author").setValue(name, forKey: "name") }
            try context.save()
            let notAnn = FetchPredicate(notPredicateWithSubpredicate: try FetchPredicate(format: "name == %@", "Ann"))
            let both = FetchPredicate(andPredicateWithSubpredicates: [notAnn, try FetchPredicate(format: "name != %@", "Cyd")])
            let either = FetchPredicate(orPredicateWithSubpredicates: [try FetchPredicate(format: "name == %@", "Ann"), both])
            var request = FetchRequest(entityName: "Author", predicate: either)
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
            #expect(either.description == #"name == "Ann" OR (NOT name == "Ann" AND name != "Cyd")"#)
        }
    }
}
