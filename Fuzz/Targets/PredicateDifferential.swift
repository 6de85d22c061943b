import Faultline
import Foundation

/// A predicate parsed from the input, compiled to SQL and run on a small
/// store, and evaluated in memory over the same objects: when both answer,
/// they must answer the same. A disagreement is a finding (a wrong fetch);
/// a parse or compile error is a fine answer.
public enum PredicateDifferential: FuzzTarget {
    public static let name = "predicate"

    /// Longer inputs only make the parser's work quadratic for the fuzzer.
    static let maximumLength = 512

    public static func run(_ input: Data) -> String? {
        guard input.count <= maximumLength, let format = String(data: input, encoding: .utf8),
              let predicate = try? FetchPredicate(format: format) else { return nil }
        let context = Library.shared.context
        return context.performAndWait {
            for entity in ["Author", "Book"] {
                guard let fetched = try? context.fetch(FetchRequest(entityName: entity, predicate: predicate)),
                      let all = try? context.fetch(FetchRequest(entityName: entity)) else { continue }
                var evaluated: [ManagedObject] = []
                do {
                    for object in all where try predicate.evaluate(with: object) { evaluated.append(object) }
                } catch {
                    continue
                }
                let sql = Set(fetched.map(\.objectID.primaryKey))
                let memory = Set(evaluated.map(\.objectID.primaryKey))
                if sql != memory {
                    return "\(entity) WHERE \(format): SQL returned keys \(sql.sorted()), the evaluator \(memory.sorted())"
                }
            }
            return nil
        }
    }

    /// Authors and books with the values predicates trip on: nil, empty and
    /// accented strings, negative and fractional numbers, dates, to-manys of
    /// zero, one and several members.
    final class Library: @unchecked Sendable {
        static let shared = Library()
        let container: PersistentContainer
        let context: ManagedObjectContext

        private init() {
            let model = ManagedObjectModel {
                Entity("Author") {
                    Attribute("name", .string)
                    Attribute("age", .integer64)
                    Attribute("rating", .double)
                    Attribute("active", .boolean)
                    Attribute("born", .date)
                    Relationship("books", to: "Book", inverse: "author", toMany: true)
                }
                Entity("Book") {
                    Attribute("title", .string)
                    Attribute("views", .integer64)
                    Attribute("price", .double)
                    Attribute("subtitle", .string)
                    Relationship("author", to: "Author", inverse: "books")
                }
            }
            do {
                container = try PersistentContainer(model: model, location: .inMemory)
                context = container.newBackgroundContext()
                try Self.populate(context)
            } catch {
                fatalError("the fuzz library could not be built: \(error)")
            }
        }

        private static func populate(_ context: ManagedObjectContext) throws {
            try context.performAndWait {
                let authors: [(String?, Int64?, Double?, Bool?, Date?)] = [
                    ("Ana", 34, 4.5, true, Date(timeIntervalSinceReferenceDate: 0)),
                    ("Zoë", -3, -0.5, false, Date(timeIntervalSinceReferenceDate: -86_400)),
                    ("", 0, 0, nil, nil),
                    (nil, nil, nil, true, Date(timeIntervalSinceReferenceDate: 1e9)),
                    ("ANA", 9_223_372_036_854_775_807, 1e300, false, nil),
                ]
                var made: [ManagedObject] = []
                for (name, age, rating, active, born) in authors {
                    let author = try context.insertNewObject(forEntityName: "Author")
                    try author.setValue(name, forKey: "name")
                    try author.setValue(age, forKey: "age")
                    try author.setValue(rating, forKey: "rating")
                    try author.setValue(active, forKey: "active")
                    try author.setValue(born, forKey: "born")
                    made.append(author)
                }
                let books: [(String?, Int64?, Double?, String?, Int?)] = [
                    ("Café", 10, 9.99, nil, 0), ("café", 0, 10, "Green", 0), ("CAFE", -1, nil, "", 1),
                    ("Résumé", 45, 10.5, "Ünïcode", 1), ("Tea", nil, 3, "a%b_c", 1), (nil, 7, 0, nil, 3), ("x'y\"z", 1, 1, "x", nil),
                    // NUL characters inside values: SQLite's GLOB and length() stop at the first one.
                    ("Zoë\u{0}nul", 2, 2, "nul\u{0}", 2),
                ]
                for (title, views, price, subtitle, author) in books {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue(title, forKey: "title")
                    try book.setValue(views, forKey: "views")
                    try book.setValue(price, forKey: "price")
                    try book.setValue(subtitle, forKey: "subtitle")
                    try book.setValue(author.map { made[$0] }, forKey: "author")
                }
                try context.save()
            }
        }
    }
}
