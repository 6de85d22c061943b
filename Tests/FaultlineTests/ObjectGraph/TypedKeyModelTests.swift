import Foundation
import Testing
@testable import Faultline

/// A typed key resolves its index per model: one class and its keys used with
/// two models, where the same names sit at other indexes, read and write the
/// right column in each (a key once cached the index by entity number alone).
@Suite("Typed keys across models")
struct TypedKeyModelTests {
    final class Article: ManagedObject {
        static let title = AttributeKey<String?>("title")
        static let views = AttributeKey<Int64?>("views")
    }

    /// The same entity, its attributes in another order and with one more.
    static func model(extraFirst: Bool) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Article", className: "Article") {
                if extraFirst { Attribute("body", .string) }
                Attribute(extraFirst ? "views" : "title", extraFirst ? .integer64 : .string)
                Attribute(extraFirst ? "title" : "views", extraFirst ? .string : .integer64)
            }
        }
    }

    @Test("The same keys in two containers whose models order the attributes differently write and read each one's own columns")
    func twoModelsInOneProcess() throws {
        var containers: [(PersistentContainer, URL)] = []
        for extraFirst in [false, true, false] {
            let (container, url) = try LibraryModel.container(Self.model(extraFirst: extraFirst))
            try container.register(Article.self, forEntityName: "Article")
            containers.append((container, url))
        }
        defer { for (_, url) in containers { LibraryModel.remove(url) } }
        for (round, (container, _)) in containers.enumerated() {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let article = try context.insertObject(Article.self)
                article[Article.title] = "Article \(round)"
                article[Article.views] = Int64(round * 10)
                #expect(article.value(forKey: "title") as? String == "Article \(round)")
                #expect(article.value(forKey: "views") as? Int64 == Int64(round * 10))
                try context.save()
            }
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                let stored = try #require(try reader.fetch(FetchRequest(entityName: "Article")).first)
                #expect(stored.value(forKey: "title") as? String == "Article \(round)")
                #expect(stored.value(forKey: "views") as? Int64 == Int64(round * 10))
                #expect(stored[Article.title] == "Article \(round)")
            }
        }
    }
}
