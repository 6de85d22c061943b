import Faultline
import Foundation
import Testing
@testable import FaultlineTools

/// `model validate` on validation rules and optionality: a pattern's three
/// Swift spellings (escaped, raw, Unicode escape) and a multi-line literal pass
/// because they decode to the same bytes, while `[^\s]` for `\S` and a
/// decomposed `é` fail; numbers and dates compare by exact value whatever
/// their spelling; a rule missing, added or changed is reported with file and
/// line; a rule the check cannot read (interpolation, a named constant, a regex
/// literal) or an invalid ICU pattern is reported, never skipped.
@Suite("model validate: validation rules and optionality, compared exactly")
struct ModelValidateRulesTests {
    static let name = #"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern(".*\\S.*")])"#

    /// The drift after writing Customer's `name` key as `declaration`.
    static func nameDrift(_ declaration: String) throws -> [String] {
        try ModelValidateTests.drift(ModelValidateTests.replace("Customer.swift", name, declaration))
    }

    @Test("The seed's three spellings of one pattern, and a multi-line literal, are in step")
    func spellings() throws {
        #expect(try ModelValidateTests.drift { _ in } == [])
        for pattern in [##"#".*\S.*"#"##, #"".*\u{5c}S.*""#, #"".*\\S.*""#, "\"\"\"\n        .*\\\\S.*\n        \"\"\""] {
            let declaration = #"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern("# + pattern + ")])"
            #expect(try Self.nameDrift(declaration) == [], "\(pattern)")
        }
        // Spread over lines, commented, qualified: still the same rules.
        let spread = """
            AttributeKey<String?>(
                    "name",  // the customer's name
                    rules: [Faultline.ValidationRule.minimumLength(1), ValidationRule.maximumLength(80),
                            .pattern(#".*\\S.*"#),]
                )
            """
        #expect(try Self.nameDrift(spread) == [])
    }

    @Test("Patterns compare byte for byte: [^\\s] for \\S, and a decomposed é, are drift")
    func patternsExact() throws {
        #expect(try Self.nameDrift(##"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern(#".*[^\s].*"#)])"##)
            == [#"Customer.swift:17: Customer.name: 'name': rule pattern differs: the model has ".*\\S.*", the declaration ".*[^\\s].*""#])
        let composed = #".pattern("[^\\t\u{2028}é]+")"#
        let decomposed = #".pattern("[^\\t\u{2028}e\u{301}]+")"#
        let drift = try ModelValidateTests.drift(ModelValidateTests.replace("Product.swift", composed, decomposed))
        #expect(drift.count == 1 && drift[0].hasPrefix("Product.swift:10: Product.title: 'title': rule pattern differs"), "\(drift)")
    }

    @Test("A rule missing, added or changed is drift; the same number or date spelt otherwise is not")
    func numbersAndDates() throws {
        #expect(try Self.nameDrift(#"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .pattern(".*\\S.*")])"#)
            == ["Customer.swift:17: Customer.name: 'name': rule maximumLength 80 is in the model, not in the declaration"])
        #expect(try ModelValidateTests.drift(ModelValidateTests.replace(
            "Product.swift", #"AttributeKey<Swift.String?>("default")"#, #"AttributeKey<Swift.String?>("default", rules: [.maximumLength(3)])"#))
            == ["Product.swift:8: Product.default: 'default': rule maximumLength 3 is declared, not in the model"])
        let order = "Order.swift"
        func orderDrift(_ old: String, _ new: String) throws -> [String] {
            try ModelValidateTests.drift(ModelValidateTests.replace(order, old, new))
        }
        #expect(try orderDrift(".minimumValue(.integer(1))", ".minimumValue(.integer(2))")
            == ["Order.swift:14: Order.number: 'number': rule minimumValue differs: the model has 1, the declaration 2"])
        #expect(try orderDrift(".minimumValue(.integer(1))", ".minimumValue(.double(1.0))") == [])
        #expect(try orderDrift(".maximumValue(.integer(2147483647))", ".maximumValue(.decimalLiteral(\"2147483647\"))") == [])
        #expect(try orderDrift(".maximumValue(.integer(2147483647))", ".maximumValue(.decimalLiteral(\"2_147_483_647\"))")
            == ["Order.swift:14: Order.number: cannot read the key's arguments: decimalLiteral needs a decimal number in a string literal"])
        #expect(try orderDrift(".maximumValue(.integer(2147483647))", ".maximumValue(.integer(2_147_483_647))") == [])
        #expect(try orderDrift(".minimumValue(.double(0.5))", ".minimumValue(.double(0.5000000000000001))").count == 1)
        let credit = ".minimumValue(.decimalLiteral(\"-1000.25\"))"
        let customer = { (new: String) in try ModelValidateTests.drift(ModelValidateTests.replace("Customer.swift", credit, new)) }
        #expect(try customer(".minimumValue(.decimalLiteral(\"-1000.250000000000000001\"))").count == 1)
        #expect(try customer(".minimumValue(.double(-1000.25))") == [])
        let earliest = ".earliestDate(Foundation.Date(timeIntervalSinceReferenceDate: -978307200.0))"
        #expect(try customer2(earliest, ".earliestDate(Date(timeIntervalSince1970: 0))") == [])
        #expect(try customer2(earliest, ".earliestDate(Date(timeIntervalSince1970: 0.001))").count == 1)
        #expect(try customer2(earliest, ".earliestDate(.distantPast)").count == 1)
    }

    private func customer2(_ old: String, _ new: String) throws -> [String] {
        try ModelValidateTests.drift(ModelValidateTests.replace("Customer.swift", old, new))
    }

    @Test("A rule the check cannot read, or an invalid ICU pattern, is reported")
    func unreadable() throws {
        for (pattern, reason) in [
            (#""\(suffix)""#, "an interpolated string"), ("namePattern", "a pattern must be a string literal"),
            ("/.*\\S.*/", "a regex literal"), (#"".*\q""#, "an invalid escape \\q"),
        ] {
            let drift = try Self.nameDrift(#"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern("# + pattern + ")])")
            #expect(drift.count == 1 && drift[0].hasPrefix("Customer.swift:17: Customer.name: cannot read the key's arguments: ")
                && drift[0].contains(reason), "\(pattern): \(drift)")
        }
        let invalid = try Self.nameDrift(#"AttributeKey<Swift.String?>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern("((")])"#)
        #expect(invalid == [
            #"Customer.swift:17: Customer.name: 'name': pattern "((" is not a valid ICU regular expression"#,
            #"Customer.swift:17: Customer.name: 'name': rule pattern differs: the model has ".*\\S.*", the declaration "((""#,
        ])
        let computed = ".earliestDate(Date())"
        #expect(try customer2(".earliestDate(Foundation.Date(timeIntervalSinceReferenceDate: -978307200.0))", computed).first?
            .contains("a computed date is only known when the code runs") == true)
    }

    @Test("An optional attribute read through a non-optional key is drift; a required one may be either")
    func optionality() throws {
        #expect(try ModelValidateTests.drift(ModelValidateTests.replace(
            "Product.swift", #"AttributeKey<Swift.String?>("default")"#, #"AttributeKey<Swift.String>("default")"#))
            == ["Product.swift:8: Product.default: 'default' is optional in the model, its key's type String holds no nil"])
        #expect(try Self.nameDrift(#"AttributeKey<String>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern(".*\\S.*")])"#) == [])
        #expect(try Self.nameDrift(#"AttributeKey<Optional<String>>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern(".*\\S.*")])"#) == [])
    }
}
