import Foundation
import Testing
@testable import Faultline

@Suite("Validation rules evaluate exactly, with Core Data's failure codes")
struct ValidationRuleTests {
    @Test("numeric bounds are inclusive")
    func inclusiveBounds() {
        let rules: [ValidationRule] = [.minimumValue(.integer(0)), .maximumValue(.integer(255))]
        #expect(rules.failures(for: .integer(0)).isEmpty)
        #expect(rules.failures(for: .integer(255)).isEmpty)
        #expect(rules.failures(for: .integer(-1)).map(\.code) == [.tooSmall])
        #expect(rules.failures(for: .integer(256)).map(\.code) == [.tooLarge])
        #expect(ValidationFailure.Code.tooLarge.rawValue == 1610)
    }

    @Test("Int64 extremes compare exactly, also against Double bounds")
    func int64Extremes() {
        #expect(ValidationRule.minimumValue(.integer(.min)).check(.integer(.min)) == nil)
        #expect(ValidationRule.maximumValue(.integer(.max)).check(.integer(.max)) == nil)
        #expect(ValidationRule.maximumValue(.integer(.max - 1)).check(.integer(.max))?.code == .tooLarge)
        // 2^53 + 1 is not representable as Double; it must still exceed 2^53.
        let twoTo53 = 9_007_199_254_740_992.0
        #expect(ValidationRule.maximumValue(.double(twoTo53)).check(.integer(9_007_199_254_740_993))?.code == .tooLarge)
        #expect(ValidationRule.maximumValue(.double(twoTo53)).check(.integer(9_007_199_254_740_992)) == nil)
        #expect(ValidationRule.maximumValue(.double(9.3e18)).check(.integer(.max)) == nil)
        #expect(ValidationRule.minimumValue(.integer(.min)).check(.double(-9.3e18))?.code == .tooSmall)
        #expect(ValidationRule.minimumValue(.integer(3)).check(.double(2.999999)) != nil)
        #expect(ValidationRule.minimumValue(.integer(3)).check(.double(3.0)) == nil)
    }

    @Test("Decimal bounds do not go through Double: 0.1 + 0.2 is exactly 0.3")
    func decimalPrecision() throws {
        let tenth = try #require(Decimal(string: "0.1")), fifth = try #require(Decimal(string: "0.2"))
        let threeTenths = try #require(Decimal(string: "0.3"))
        let rule = ValidationRule.maximumValue(.decimal(threeTenths))
        #expect(rule.check(.decimal(tenth + fifth)) == nil)
        #expect(rule.check(.double(0.1 + 0.2))?.code == .tooLarge)
        #expect(rule.check(.double(0.3)) == nil)
        let huge = try #require(Decimal(string: "12345678901234567890.0000000001"))
        #expect(ValidationRule.minimumValue(.decimal(huge)).check(.decimal(try #require(Decimal(string: "12345678901234567890"))))?.code == .tooSmall)
        #expect(ValidationRule.maximumValue(.decimal(huge)).check(.integer(.max)) == nil)
    }

    @Test("NaN never satisfies a numeric bound")
    func nan() {
        #expect(ValidationRule.minimumValue(.integer(0)).check(.double(.nan))?.code == .tooSmall)
        #expect(ValidationRule.maximumValue(.double(1)).check(.double(.nan))?.code == .tooLarge)
        #expect(ValidationRule.maximumValue(.integer(1)).check(.double(.infinity))?.code == .tooLarge)
    }

    @Test("string length counts UTF-16 code units, as NSString does")
    func utf16Length() {
        let rule = ValidationRule.maximumLength(2)
        #expect(rule.check(.string("ab")) == nil)
        #expect(rule.check(.string("abc"))?.code == .tooLong)
        #expect(rule.check(.string("😀")) == nil)              // 1 character, 2 UTF-16 units
        #expect(rule.check(.string("😀a"))?.code == .tooLong)   // 2 characters, 3 units
        #expect(rule.check(.string("e\u{301}e"))?.code == .tooLong) // 2 characters, 3 units
        #expect(ValidationRule.minimumLength(1).check(.string(""))?.code == .tooShort)
        #expect(ValidationRule.minimumLength(0).check(.string("")) == nil)
    }

    @Test("patterns match the whole string with ICU syntax")
    func patterns() {
        let rule = ValidationRule.pattern("[a-z]+")
        #expect(rule.check(.string("abc")) == nil)
        #expect(rule.check(.string("abc1"))?.code == .patternMismatch)
        #expect(rule.check(.string("1abc"))?.code == .patternMismatch)
        #expect(ValidationRule.pattern("a|ab").check(.string("ab")) == nil)
        #expect(ValidationRule.pattern(#".*\S.*"#).check(.string("   ")) != nil)
        #expect(ValidationRule.pattern(#".*\S.*"#).check(.string(" x ")) == nil)
        #expect(ValidationRule.pattern("([a-z").check(.string("a"))?.code == .patternMismatch)
        #expect(ValidationRule.pattern("\\p{Lu}\\w*").check(.string("Émile")) == nil)
    }

    @Test("date bounds are inclusive")
    func dates() {
        let start = Date(timeIntervalSince1970: 0), end = Date(timeIntervalSince1970: 2_000_000_000)
        let rules: [ValidationRule] = [.earliestDate(start), .latestDate(end)]
        #expect(rules.failures(for: .date(start)).isEmpty)
        #expect(rules.failures(for: .date(end)).isEmpty)
        #expect(rules.failures(for: .date(start.addingTimeInterval(-0.001))).map(\.code) == [.dateTooSoon])
        #expect(rules.failures(for: .date(end.addingTimeInterval(1))).map(\.code) == [.dateTooLate])
    }

    @Test("rules ignore nil and values of another kind")
    func otherKinds() {
        #expect(ValidationRule.minimumLength(3).check(.null) == nil)
        #expect(ValidationRule.minimumValue(.integer(3)).check(.string("1")) == nil)
        #expect(ValidationRule.earliestDate(.distantFuture).check(.integer(0)) == nil)
    }
}
