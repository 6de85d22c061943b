import FixtureSupport
import Foundation
import Testing
@testable import FaultlineTools

/// `faultline predicate parse` prints the tree or the error with its
/// offset, compiles against a real model file, and exits only 0 or 2, on any input.
@Suite("Predicate command exits 0 or 2 and explains the SQL")
struct PredicateCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = PredicateCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    /// The Recipes model of the shared Core Data fixtures.
    private func recipesModel() throws -> String {
        try CoreDataFixtures.path("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld")
    }

    @Test("A valid predicate prints its canonical form and tree: exit 0")
    func valid() {
        let result = run(["parse", "name ==[cd] %@ AND ANY ingredients.amount > %@", "'cafe'", "3"])
        #expect(result.status == 0)
        #expect(result.output.contains(#"predicate: name ==[cd] "cafe" AND ANY ingredients.amount > 3"#))
        #expect(result.output.contains("\n  AND\n    ==[cd]\n      key path name\n      string \"cafe\"\n"))
        #expect(result.output.contains("integer 3"))
    }

    @Test("Arguments: integers, doubles, booleans, nil, quoted and bare strings")
    func argumentKinds() {
        #expect(PredicateArgument.value("42") == .int(42))
        #expect(PredicateArgument.value("-4.2") == .double(-4.2))
        #expect(PredicateArgument.value("true") == .bool(true))
        #expect(PredicateArgument.value("nil") == .null)
        #expect(PredicateArgument.value("'42'") == .string("42"))
        #expect(PredicateArgument.value("inf") == .string("inf"))
        #expect(PredicateArgument.value("Café") == .string("Café"))
    }

    @Test("Arguments: arrays in braces (nested, quoted commas kept) and @dates")
    func arrayAndDateArguments() {
        #expect(PredicateArgument.value("{1, 2.5, 'a, b', {nil}}") == .array([.int(1), .double(2.5), .string("a, b"), .array([.null])]))
        #expect(PredicateArgument.value("{}") == .array([]))
        #expect(PredicateArgument.value("@2024-01-31") == .date(Date(timeIntervalSince1970: 1_706_659_200)))
        #expect(PredicateArgument.value("@2024-01-31T12:00:00Z") == .date(Date(timeIntervalSince1970: 1_706_702_400)))
        #expect(PredicateArgument.value("@tomorrow") == .string("@tomorrow"))
        let result = run(["parse", "date BETWEEN %@", "{@2024-01-31, @2024-02-01}"])
        #expect(result.status == 0)
        #expect(result.output.contains(#"predicate: date BETWEEN {CAST(728352000.0, "NSDate"), CAST(728438400.0, "NSDate")}"#))
    }

    @Test("--var substitutes a variable")
    func variables() {
        let result = run(["parse", "prepTime < $LIMIT", "--var", "LIMIT='30'"])
        #expect(result.status == 0)
        #expect(result.output.contains(#"predicate: prepTime < "30""#))
    }

    @Test("A parse error prints its offset and exits 2")
    func parseError() {
        let result = run(["parse", "name == "])
        #expect(result.status == 2)
        #expect(result.output.contains("at offset 8"))
        let missing = run(["parse", "name == %@"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("offset 8"))
    }

    @Test("Bad usage exits 2")
    func usage() {
        #expect(run([]).status == 2)
        #expect(run(["parse"]).status == 2)
        #expect(run(["parse", "a == 1", "--model"]).status == 2)
        #expect(run(["parse", "a == 1", "--entity", "Recipe"]).status == 2)
        #expect(run(["parse", "a == 1", "--bogus"]).status == 2)
    }

    @Test("With --model and --entity: the SQL, its bindings and the plan")
    func sql() throws {
        let model = try recipesModel()
        let result = run(["parse", "name BEGINSWITH %@ AND type.name == %@ AND ANY ingredients.displayOrder > %@",
                          "Choc", "Dessert", "10", "--model", model, "--entity", "Recipe"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("entity: Recipe (table ZRECIPE)"))
        #expect(result.output.contains("sql: SELECT t0.Z_PK FROM ZRECIPE t0 LEFT OUTER JOIN ZRECIPETYPE t1"))
        #expect(result.output.contains("t0.ZNAME >= ? AND t0.ZNAME < ?"))
        #expect(result.output.contains("?1 = 'Choc'"))
        #expect(result.output.contains("?2 = 'Chod'"))
        #expect(result.output.contains("?3 = 'Dessert'"))
        #expect(result.output.contains("EXISTS (SELECT 1 FROM ZINGREDIENT"))
        #expect(result.output.contains("?4 = 10"))
        #expect(result.output.contains("plan:\n  "))
    }

    @Test("An unknown entity exits 2")
    func unknownEntity() throws {
        let result = run(["parse", "name == 'x'", "--model", try recipesModel(), "--entity", "Nope"])
        #expect(result.status == 2)
        #expect(result.output.contains("no entity 'Nope'"))
    }

    @Test("An unknown key exits 2")
    func unknownKey() throws {
        let result = run(["parse", "colour == 'red'", "--model", try recipesModel(), "--entity", "Recipe"])
        #expect(result.status == 2)
        #expect(result.output.contains("error: predicate does not compile for Recipe: entity Recipe has no key 'colour'"))
    }

    @Test("An unreadable model exits 2")
    func missingModel() {
        #expect(run(["parse", "a == 1", "--model", "/nonexistent/X.xcdatamodeld", "--entity", "X"]).status == 2)
    }

    @Test("2,000 random strings: no crash, exit 0 or 2")
    func fuzz() throws {
        let model = try recipesModel()
        let pieces = ["name", "ingredients", ".", "@count", "@sum", "==", "!=", "<", ">=", "BETWEEN", "IN",
                      "CONTAINS", "BEGINSWITH", "LIKE", "MATCHES", "[cd]", "[x]", "ANY", "ALL", "NONE",
                      "AND", "OR", "NOT", "(", ")", "{", "}", ",", "%@", "%K", "%d", "$v", "SUBQUERY",
                      "'", "\"", "\\", "1", "-2.5", "0x", "nil", "TRUE", "#", "é", "\u{0}", " ", "type.name",
                      "prepTime", "CAST", "SELF", "=", "*", "?"]
        var generator = SplitMix64(seed: 0xFA17)
        for index in 0..<2_000 {
            let count = Int(generator.next() % 12)
            let format: String
            if index.isMultiple(of: 2) {
                format = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                    .joined(separator: generator.next() % 3 == 0 ? "" : " ")
            } else {
                // Raw characters: printable ASCII mostly, some control and non-ASCII scalars.
                let scalars = (0..<count * 3).compactMap { _ in
                    Unicode.Scalar(UInt32(generator.next() % 4 == 0 ? generator.next() % 0x3000 : 32 + generator.next() % 95))
                }
                format = String(String.UnicodeScalarView(scalars))
            }
            var arguments = ["parse", format]
            for _ in 0..<Int(generator.next() % 3) { arguments.append(["42", "name", "'x'", "nil", "4.5"][Int(generator.next() % 5)]) }
            if index % 10 == 0 { arguments += ["--model", model, "--entity", "Recipe"] }
            let status = run(arguments).status
            #expect(status == 0 || status == 2, "exit \(status) for \(arguments)")
        }
    }
}

/// A small deterministic generator, so a failing case can be reproduced.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
