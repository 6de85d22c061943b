import Foundation
import Testing
@testable import Faultline

/// SQLite's GLOB reads a text value only up to its first NUL character; the
/// evaluator reads it whole. String operators must not depend on which one
/// answers (a saved object is matched in SQL, an unsaved one in memory).
@Suite("Text holding a NUL character: string operators in SQL agree with the evaluator")
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

    /// Pairs of a text and a pattern read from another column.
    static let pairs: [(String, String)] = [
        ("Zoë \u{0}nul", "nul"), ("Zoë \u{0}nul", "Zoë \u{0}"), ("a\u{0}b", "b"), ("a\u{0}b", "a\u{0}*"),
        ("nul\u{0}", "nul"), ("nul\u{0}", "*\u{0}"), ("plain nul", "nul"), ("plain nul", "p*"), ("plain", "\u{0}"),
        ("", ""), ("\u{0}", "\u{0}"), ("ZOE\u{0}X", "zoe?x"),
    ]

    @Test("A pattern read from a column selects the same notes through SQL as through the evaluator", arguments: [
        "text ENDSWITH part", "text BEGINSWITH part", "text LIKE part", "text CONTAINS part",
        "text ENDSWITH[cd] part", "text BEGINSWITH[c] part", "text LIKE[cd] part", "%@ ENDSWITH part", "%@ BEGINSWITH part",
    ])
    func columnPatternsAgree(_ format: String) throws {
        let model = ManagedObjectModel {
            Entity("Note") {
                Attribute("text", .string)
                Attribute("part", .string)
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (text, part) in Self.pairs {
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(text, forKey: "text")
                try note.setValue(part, forKey: "part")
            }
            try context.save()
            context.reset()
            let predicate = try FetchPredicate(format: format, "a\u{0}bnul")
            let request = FetchRequest(entityName: "Note", predicate: predicate)
            let fetched = try context.fetch(request)
            let (fetch, _) = try context.compiledFetch(request)
            let sql = fetch.rowsStatement(in: container.coordinator.plans[fetch.entityIndex])
            let all = try context.fetch(FetchRequest(entityName: "Note"))
            let evaluated = try all.filter { try predicate.evaluate(with: $0) }
            #expect(all.count == Self.pairs.count)
            #expect(Set(fetched.map(\.objectID)) == Set(evaluated.map(\.objectID)),
                    "\(format): SQL \(fetched.map { $0.value(forKey: "part") as? String }), evaluator \(evaluated.map { $0.value(forKey: "part") as? String })")
            if !format.contains("CONTAINS") {
                #expect(sql.contains(", char(0)) > 0 THEN FAULTLINE_TEXT_TEST("), "\(sql)")
            }
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
