import Foundation
import Testing
@testable import Faultline

/// SQLite's GLOB reads a text value only up to its first NUL character; the
/// evaluator reads it whole. ENDSWITH and LIKE must not depend on which one
/// answers (a saved object is matched in SQL, an unsaved one in memory).
@Suite("Text holding a NUL character: ENDSWITH and LIKE in SQL agree with the evaluator")
struct NULTextPredicateTests {
    static let texts = ["Zoë \u{0}nul", "a\u{0}b", "plain nul", "\u{0}", "", "nul\u{0}"]

    @Test("Each predicate selects the same notes through SQL as through the evaluator", arguments: [
        "text ENDSWITH 'nul'", "text ENDSWITH[cd] 'NUL'", "text ENDSWITH 'b'", "text LIKE '*nul'",
        "text LIKE[c] 'ZOË*'", "text LIKE '*b'", "text LIKE[cd] 'zoe ?nul'", "text LIKE 'nul?'", "text ENDSWITH ''",
    ])
    func agree(_ format: String) throws {
        let model = ManagedObjectModel { Entity("Note") { Attribute("text", .string) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for text in Self.texts {
                try context.insertNewObject(forEntityName: "Note").setValue(text, forKey: "text")
            }
            try context.save()
            context.reset()
            let predicate = try FetchPredicate(format: format)
            let request = FetchRequest(entityName: "Note", predicate: predicate)
            let fetched = try context.fetch(request)
            let (fetch, _) = try context.compiledFetch(request)
            let sql = fetch.rowsStatement(in: container.coordinator.plans[fetch.entityIndex])
            let all = try context.fetch(FetchRequest(entityName: "Note"))
            let evaluated = try all.filter { try predicate.evaluate(with: $0) }
            func texts(_ objects: [ManagedObject]) -> Set<String> { Set(objects.compactMap { $0.value(forKey: "text") as? String }) }
            #expect(texts(fetched) == texts(evaluated), "\(format): SQL \(texts(fetched)), evaluator \(texts(evaluated))")
            #expect(sql.contains("(CASE WHEN instr(") && sql.contains(", char(0)) > 0 THEN FAULTLINE_MATCHES("), "\(sql)")
        }
    }

    @Test("A value with a NUL still ends with what follows it")
    func endsAfterNUL() throws {
        let model = ManagedObjectModel { Entity("Note") { Attribute("text", .string) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let count = try context.performAndWait { () throws -> Int in
            for text in Self.texts { try context.insertNewObject(forEntityName: "Note").setValue(text, forKey: "text") }
            try context.save()
            return try context.count(for: FetchRequest(entityName: "Note", format: "text ENDSWITH 'nul'"))
        }
        #expect(count == 2)
    }
}
