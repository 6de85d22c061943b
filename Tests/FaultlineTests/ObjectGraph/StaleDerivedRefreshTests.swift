import Foundation
import Testing
@testable import Faultline

/// A save whose triggers rewrite other entities' derived values refreshes
/// those entities' objects in the saving context, however many it holds.
@Suite("Objects whose derived values a save's triggers rewrote are refreshed")
struct StaleDerivedRefreshTests {
    @Test("300 categories made in one context: each one's sum follows its article's views, saved one by one, without the category being saved")
    func manyTrackedObjects() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            // More than the registry's first prune threshold, made before any is registered.
            let categories = try (0..<300).map { index -> ManagedObject in
                let category = try context.insertNewObject(forEntityName: "Category")
                try category.setValue("C\(index)", forKey: "name")
                return category
            }
            try context.save()
            for category in categories { #expect(category.value(forKey: "articlesCount") as? Int64 == 0) }
            var articles: [ManagedObject] = []
            for (index, category) in categories.enumerated() {
                let article = try context.insertNewObject(forEntityName: "Article")
                try article.setValue("A\(index)", forKey: "title")
                try article.setValue(Int64(index), forKey: "views")
                try article.setValue(category, forKey: "category")
                articles.append(article)
            }
            try context.save()
            for category in categories { _ = category.value(forKey: "totalViews") }
            // Only the articles change: each category's sum is rewritten by a
            // trigger, the category itself is not saved, so only the refresh
            // of its entity's objects brings the new value into this context.
            for (index, article) in articles.enumerated() {
                try article.setValue(Int64(1_000 + index), forKey: "views")
                try context.save()
            }
            for (index, category) in categories.enumerated() {
                #expect(!category.hasChanges)
                #expect(category.value(forKey: "articlesCount") as? Int64 == 1)
                #expect(category.value(forKey: "totalViews") as? Int64 == Int64(1_000 + index))
            }
        }
    }
}
