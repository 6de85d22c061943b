import Foundation
import Testing
@testable import Faultline

/// A save whose triggers rewrite an aggregate only in the parents of the rows
/// it inserted — parents it read back — leaves the other parents as they are:
/// materialised in the saving context and in the others, cached in the row
/// cache. A move, a delete or a change of the aggregated value still makes the
/// whole parent entity stale.
@Suite("Dependents a save read back are not stale elsewhere")
struct RereadDependentsTests {
    static func categories(_ count: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
        let categories = try (0..<count).map { index -> ManagedObject in
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.setValue("C\(index)", forKey: "name")
            return category
        }
        try context.save()
        for category in categories { _ = category.value(forKey: "articlesCount") }
        return categories
    }

    static func aggregates(_ category: ManagedObject) -> [Double] {
        ["articlesCount", "totalViews", "minViews", "maxViews"].map { Double(category.value(forKey: $0) as? Int64 ?? -1) }
            + [category.value(forKey: "averageViews") as? Double ?? -1]
    }

    @Test("Inserting articles refreshes only their categories; the others stay materialised here, in another context and in the row cache")
    func insertsLeaveOtherParents() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let observer = container.newBackgroundContext()
        observer.automaticallyMergesChangesFromParent = true
        let categories = try context.performAndWait { try Self.categories(3, in: context) }
        let watched = try observer.performAndWait {
            try categories.map { category in
                let copy = try observer.existingObject(with: category.objectID)
                _ = copy.value(forKey: "articlesCount")
                return copy
            }
        }
        try context.performAndWait {
            for views in [5, 9] as [Int64] {
                let article = try context.insertNewObject(forEntityName: "Article")
                try article.setValue("Views \(views)", forKey: "title")
                try article.setValue(views, forKey: "views")
                try article.setValue(categories[0], forKey: "category")
                try context.save()
            }
            #expect(Self.aggregates(categories[0]) == [2, 14, 5, 9, 7])
            #expect(!categories[1].isFault && !categories[2].isFault, "the categories the saves did not touch were not refreshed")
            #expect(Self.aggregates(categories[1]) == [0, 0, -1, -1, -1])
        }
        observer.performAndWait {
            #expect(Self.aggregates(watched[0]) == [2, 14, 5, 9, 7], "the other context merged the category the saves changed")
            #expect(!watched[1].isFault && !watched[2].isFault)
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in
            let untouched = try fresh.existingObject(with: categories[2].objectID)
            #expect(Self.aggregates(untouched) == [0, 0, -1, -1, -1])
            #expect(fresh.counters.faultsFulfilledBySQL == 0, "the untouched category's row stayed in the row cache")
            let changed = try fresh.existingObject(with: categories[0].objectID)
            #expect(Self.aggregates(changed) == [2, 14, 5, 9, 7])
        }
    }

    @Test("Moving an article, changing its views or deleting it leaves every category stale, and every count right")
    func otherChangesKeepEntityStaleness() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let categories = try Self.categories(3, in: context)
            let article = try context.insertNewObject(forEntityName: "Article")
            try article.setValue("Moving", forKey: "title")
            try article.setValue(Int64(4), forKey: "views")
            try article.setValue(categories[0], forKey: "category")
            try context.save()
            _ = categories[2].value(forKey: "articlesCount")

            try article.setValue(categories[1], forKey: "category")
            try context.save()
            #expect(categories[2].isFault, "a move makes the whole entity stale")
            #expect(Self.aggregates(categories[0]) == [0, 0, -1, -1, -1])
            #expect(Self.aggregates(categories[1]) == [1, 4, 4, 4, 4])

            _ = categories[2].value(forKey: "articlesCount")
            try article.setValue(Int64(10), forKey: "views")
            try context.save()
            #expect(categories[2].isFault, "so does a change of the aggregated value")
            #expect(Self.aggregates(categories[1]) == [1, 10, 10, 10, 10])

            _ = categories[2].value(forKey: "articlesCount")
            context.delete(article)
            try context.save()
            #expect(categories[2].isFault, "and a delete")
            #expect(Self.aggregates(categories[1]) == [0, 0, -1, -1, -1])
        }
    }
}
