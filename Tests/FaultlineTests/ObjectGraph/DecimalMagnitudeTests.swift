import FaultlineSupport
import Foundation
import Testing
@testable import Faultline

/// A decimal attribute's column keeps a large value as a REAL, read back
/// through its shortest text: `Decimal(string:)` refuses `1.5e+129` (its
/// exponent as written is one past a decimal's), so such values read back as
/// nil. They read back as the decimal they are, up to a decimal's magnitude.
@Suite("Decimal values of large and small magnitude")
struct DecimalMagnitudeTests {
    @Test("A double's shortest text as a decimal, past Decimal(string:)'s exponents", arguments: [
        (1.5e129, "1.5e129"), (-2.5e140, "-2.5e140"), (3.40282366920938e165, "3.40282366920938e165"),
        (1.2345678901234567e150, "1.2345678901234567e150"), (1.5e-127, "1.5e-127"), (12345.678, "12345.678"), (0.1, "0.1"),
    ])
    func shortest(_ double: Double, _ text: String) throws {
        let expected = try #require(Decimal(string: Self.expanded(text), locale: Locale(identifier: "en_US_POSIX")))
        #expect(Decimal(shortestOf: double) == expected)
    }

    @Test("Past a decimal's range: nil above, zero below")
    func outOfRange() {
        #expect(Decimal(shortestOf: 3.5e165) == nil)
        #expect(Decimal(shortestOf: .greatestFiniteMagnitude) == nil)
        #expect(Decimal(shortestOf: .infinity) == nil)
        #expect(Decimal(shortestOf: .nan) == nil)
        #expect(Decimal(shortestOf: 1e-130) == 0)
        #expect(Decimal(shortestOf: -0.0) == 0)
    }

    @Test("Stored and read back: the values a decimal attribute holds come back")
    func roundTrip() throws {
        let model = ManagedObjectModel { Entity("Amount") { Attribute("value", .decimal) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let values: [Decimal] = [
            try #require(Decimal(string: "15" + String(repeating: "0", count: 128))), .greatestFiniteMagnitude,
            -(try #require(Decimal(string: "25" + String(repeating: "0", count: 139)))), Decimal(5) / 10,
        ]
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait {
            let objects = try values.map { value in
                let amount = try context.insertNewObject(forEntityName: "Amount")
                try amount.setValue(value, forKey: "value")
                return amount
            }
            try context.save()
            return objects.map(\.objectID)
        }
        let reader = container.newBackgroundContext()
        let read = try reader.performAndWait { try ids.map { try reader.existingObject(with: $0).value(forKey: "value") as? Decimal } }
        for (value, back) in zip(values, read) {
            let stored = try #require(back, "\(value) read back as nil")
            // The column keeps a double's precision (about 15 digits).
            #expect(abs(Double(truncating: (stored - value) as NSNumber)) <= abs(Double(truncating: value as NSNumber)) * 1e-14)
        }
    }

    @Test("A double set on a decimal attribute past Decimal(string:)'s exponents is taken")
    func coercion() throws {
        let model = ManagedObjectModel { Entity("Amount") { Attribute("value", .decimal) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let amount = try context.insertNewObject(forEntityName: "Amount")
            try amount.setValue(1.5e129, forKey: "value")
            #expect(amount.value(forKey: "value") as? Decimal == Decimal(shortestOf: 1.5e129))
        }
    }

    /// `1.5e129` as digits: Decimal(string:) takes it written out.
    static func expanded(_ text: String) -> String {
        let parts = text.split(separator: "e")
        guard parts.count == 2, let exponent = Int(parts[1]) else { return text }
        let negative = parts[0].hasPrefix("-")
        let mantissa = parts[0].drop { $0 == "-" }
        let dot = mantissa.firstIndex(of: ".")
        let digits = mantissa.filter { $0 != "." }
        let integerDigits = (dot.map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        let sign = negative ? "-" : ""
        if integerDigits >= digits.count { return sign + digits + String(repeating: "0", count: integerDigits - digits.count) }
        if integerDigits <= 0 { return sign + "0." + String(repeating: "0", count: -integerDigits) + digits }
        return sign + digits.prefix(integerDigits) + "." + digits.dropFirst(integerDigits)
    }
}
