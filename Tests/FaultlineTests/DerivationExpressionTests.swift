import Foundation
import Testing
@testable import Faultline

@Suite("Derivation expressions parse into a typed form with clear errors")
struct DerivationExpressionTests {
    @Test("Core Data's forms and the extra aggregates", arguments: [
        ("articles.@count", DerivationExpression.aggregate(function: .count, relationship: "articles", attribute: nil)),
        ("@count.articles", .aggregate(function: .count, relationship: "articles", attribute: nil)),
        ("articles.@sum.views", .aggregate(function: .sum, relationship: "articles", attribute: "views")),
        ("@sum.articles.views", .aggregate(function: .sum, relationship: "articles", attribute: "views")),
        ("@avg.articles.views", .aggregate(function: .avg, relationship: "articles", attribute: "views")),
        ("articles.@min.createdAt", .aggregate(function: .min, relationship: "articles", attribute: "createdAt")),
        ("@max.articles.createdAt", .aggregate(function: .max, relationship: "articles", attribute: "createdAt")),
        ("category.name", .keyPath(["category", "name"])),
        ("author.address.city", .keyPath(["author", "address", "city"])),
        ("name", .keyPath(["name"])),
        ("now()", .now),
        ("canonical:(name)", .canonical(["name"])),
        ("lowercase:(category.name)", .lowercase(["category", "name"])),
        ("uppercase:(name)", .uppercase(["name"])),
        ("now", .keyPath(["now"])),
    ])
    func parses(text: String, expected: DerivationExpression) throws {
        #expect(try DerivationExpression(parsing: text) == expected)
    }

    @Test("whitespace between tokens is ignored")
    func whitespace() throws {
        #expect(try DerivationExpression(parsing: "  articles . @sum . views ") == .aggregate(function: .sum, relationship: "articles", attribute: "views"))
        #expect(try DerivationExpression(parsing: "now ( )") == .now)
        #expect(try DerivationExpression(parsing: "canonical : ( name )\n") == .canonical(["name"]))
    }

    @Test("the canonical spelling parses back to the same expression")
    func roundTrip() throws {
        for text in ["@sum.articles.views", "articles.@count", "now()", "lowercase:(a.b)", "a.b.c", "x.@avg.y"] {
            let parsed = try DerivationExpression(parsing: text)
            #expect(try DerivationExpression(parsing: parsed.description) == parsed)
        }
        #expect(try DerivationExpression(parsing: "@sum.articles.views").description == "articles.@sum.views")
    }

    @Test("malformed expressions report offset, expectation and what was found", arguments: [
        ("", 0, "end of input"),
        ("articles.", 9, "end of input"),
        ("articles.@sum", 13, "end of input"),
        ("@sum.articles", 13, "end of input"),
        ("articles.@median.x", 9, "'@median'"),
        ("now(", 4, "end of input"),
        ("canonical:name", 10, "name 'name'"),
        ("a.b.@count", 0, "key path 'a.b'"),
        ("articles.@count.views", 15, "'.'"),
        ("name + 1", 5, "'+'"),
        ("1abc", 0, "'1'"),
        ("lowercase:(name", 15, "end of input"),
    ])
    func errors(text: String, offset: Int, found: String) {
        let error = #expect(throws: DerivationParseError.self) { try DerivationExpression(parsing: text) }
        #expect(error?.offset == offset)
        #expect(error?.found == found)
        #expect(error?.expected.isEmpty == false)
    }

    @Test("parse errors say what was expected")
    func expectedText() {
        do {
            _ = try DerivationExpression(parsing: "articles.@sum")
            Issue.record("should not parse")
        } catch {
            #expect(error.expected == "'.'")
            #expect(error.description == "at offset 13: expected '.', found end of input")
        }
    }
}

@Suite("Derived attributes are checked against the model")
struct DerivationValidationTests {
    /// Category ←→> Article model with one derived attribute on Category.
    private func kinds(_ expression: String?, type: AttributeType = .integer64AttributeType,
                       on entity: String = "Category") -> [ModelIssue.Kind] {
        let model = BlogModel.handBuilt()
        let derived = BlogModel.derived("probe", type, "")
        derived.derivationExpression = expression
        model.entitiesByName[entity]?.properties.append(derived)
        return issues(of: model).filter { $0.property == "probe" }.map(\.kind)
    }

    @Test("valid derivations check clean")
    func valid() {
        #expect(kinds("articles.@count").isEmpty)
        #expect(kinds("@avg.articles.views", type: .doubleAttributeType).isEmpty)
        #expect(kinds("articles.@min.createdAt", type: .dateAttributeType).isEmpty)
        #expect(kinds("now()", type: .dateAttributeType).isEmpty)
        #expect(kinds("uppercase:(name)", type: .stringAttributeType).isEmpty)
        #expect(kinds("category.name", type: .stringAttributeType, on: "Article").isEmpty)
        #expect(kinds("colorScheme.primary", type: .stringAttributeType, on: "Article").isEmpty)
        #expect(kinds("title", type: .stringAttributeType, on: "Article").isEmpty)
    }

    @Test("wrong kinds of property and unknown keys are reported", arguments: [
        ("name.@count", ModelIssue.Kind.derivationAggregateOverNonToMany("name"), "Category"),
        ("category.@count", .derivationAggregateOverNonToMany("category"), "Article"),
        ("ghosts.@count", .derivationUnknownKey("ghosts"), "Category"),
        ("@sum.articles.title", .derivationAggregateOverNonNumeric(function: .sum, keyPath: "articles.title"), "Category"),
        ("@avg.articles.createdAt", .derivationAggregateOverNonNumeric(function: .avg, keyPath: "articles.createdAt"), "Category"),
        ("@sum.articles.nothing", .derivationUnknownKey("articles.nothing"), "Category"),
        ("@sum.articles.category", .derivationKeyPathNotAttribute("articles.category"), "Category"),
        ("articles.views", .derivationThroughToMany("articles"), "Category"),
        ("category", .derivationKeyPathNotAttribute("category"), "Article"),
        ("views.x", .derivationThroughAttribute("views"), "Article"),
        ("category.nope", .derivationUnknownKey("category.nope"), "Article"),
        ("probe", .derivationOverItself, "Category"),
        ("canonical:(views)", .derivationStringFunctionOverNonString("views"), "Article"),
    ])
    func wrongKinds(expression: String, kind: ModelIssue.Kind, entity: String) {
        #expect(kinds(expression, on: entity).contains(kind))
    }

    @Test("result type must fit the derived attribute's type")
    func resultTypes() {
        #expect(kinds("articles.@count", type: .stringAttributeType) ==
                [.derivationResultTypeMismatch(expression: "articles.@count", resultType: .stringAttributeType)])
        #expect(kinds("now()", type: .integer64AttributeType) ==
                [.derivationResultTypeMismatch(expression: "now()", resultType: .integer64AttributeType)])
        #expect(kinds("articles.@max.createdAt", type: .integer64AttributeType) ==
                [.derivationResultTypeMismatch(expression: "articles.@max.createdAt", resultType: .integer64AttributeType)])
        #expect(kinds("category.name", type: .dateAttributeType, on: "Article") ==
                [.derivationResultTypeMismatch(expression: "category.name", resultType: .dateAttributeType)])
    }

    @Test("missing and malformed derivations")
    func missingAndMalformed() {
        #expect(kinds(nil) == [.missingDerivation])
        #expect(kinds("   ") == [.missingDerivation])
        let malformed = kinds("articles.@")
        #expect(malformed.count == 1)
        if case .derivationSyntax(let error)? = malformed.first {
            #expect(error.offset == 9)
        } else {
            Issue.record("expected a syntax issue, got \(malformed)")
        }
    }
}
