// Default values and validation rules. The archive holds typed Foundation
// values (`NSNumber`s as plist integers and reals, `NSDecimalNumber`, `NSDate`,
// strings), converted here exactly to the attribute's type: a value that does
// not fit the type is an error, as an unreadable default is in a model file.
//
// Validation rules are archived as the predicates Core Data evaluates
// (`NSValidationPredicates`, with the error code of each in
// `NSValidationWarnings`): `SELF >= c` and `SELF <= c` are the numeric and date
// bounds, `length >= n` and `length <= n` the string lengths, `SELF MATCHES p`
// the pattern. Any other predicate is reported and left out. Rules come back in
// the model file's order: minimum, maximum, pattern.

import Foundation
import FaultlineModel

extension ArchivedModelDecoder {
    mutating func defaultValue(_ reference: PropertyListObject?, type: AttributeType, path: String) throws(CompiledModelError) -> AttributeValue? {
        guard let scalar = try attempt(path, { () throws(KeyedArchive.Failure) in try archive.scalar(reference) }) else { return nil }
        if case .archivedObject(let className) = scalar {
            // A transformable's default may be an object of the app's own class
            // (CoreDataPlus archives a `Cover`); Core Data accepts it and so does
            // Faultline, without the default, which only that class can decode.
            guard type == .transformableAttributeType else {
                throw CompiledModelError(.notAModel, "default value is an archived \(className), not a \(ModelFileFormat.name(of: type))", file: file, path: path)
            }
            warn(path, "the default value is an archived \(className), which only the app's own class decodes; the attribute has no default here")
            return nil
        }
        let value: AttributeValue? = switch (type, scalar) {
        case (_, .integer(let number)) where type.isInteger: .integer(number)
        case (_, .real(let number)) where type.isInteger: Int64(exactly: number).map { .integer($0) }
        case (_, .bool(let flag)) where type.isInteger: .integer(flag ? 1 : 0)
        case (.decimalAttributeType, _): Self.decimal(scalar).map { .decimal($0) }
        case (.doubleAttributeType, .integer(let number)), (.floatAttributeType, .integer(let number)): .double(Double(number))
        case (.doubleAttributeType, .real(let number)), (.floatAttributeType, .real(let number)): .double(number)
        case (.stringAttributeType, .string(let text)): .string(text)
        case (.booleanAttributeType, .bool(let flag)): .bool(flag)
        case (.booleanAttributeType, .integer(let number)): .bool(number != 0)
        case (.dateAttributeType, .date(let date)): .date(date)
        case (.UUIDAttributeType, .uuid(let uuid)): .uuid(uuid)
        case (.URIAttributeType, .url(let url)): .uri(url)
        case (.binaryDataAttributeType, .data(let bytes)), (.transformableAttributeType, .data(let bytes)): .data(bytes)
        default: nil
        }
        guard let value else {
            throw CompiledModelError(.notAModel, "default value \(scalar) is not a valid \(ModelFileFormat.name(of: type))", file: file, path: path)
        }
        return value
    }

    private static func decimal(_ scalar: KeyedArchive.Scalar) -> Decimal? {
        switch scalar {
        case .decimal(let value): value
        case .integer(let number): Decimal(number)
        case .real(let number): number.isFinite ? ModelFileFormat.decimal("\(number)") : nil
        default: nil
        }
    }

    // MARK: - Validation

    mutating func validationRules(_ fields: inout ArchivedFields, type: AttributeType) throws(CompiledModelError) -> [ValidationRule] {
        let path = fields.path + "/NSValidationPredicates"
        let reference = fields.take("NSValidationPredicates")
        // The error code of each rule, implied by the rule itself.
        _ = fields.take("NSValidationWarnings")
        let predicates = try attempt(path) { () throws(KeyedArchive.Failure) in try archive.collection(reference) } ?? []
        var rules: [ValidationRule] = []
        for (index, predicate) in predicates.enumerated() {
            let predicatePath = "\(path)/\(index)"
            if let rule = try attempt(predicatePath, { () throws(KeyedArchive.Failure) in try validationRule(predicate, type: type) }) {
                rules.append(rule)
            } else {
                warn(predicatePath, "validation predicate \(index) is not a bound, length or pattern Faultline reads; it is left out")
            }
        }
        return rules.sorted { Self.order($0) < Self.order($1) }
    }

    private static func order(_ rule: ValidationRule) -> Int {
        switch rule {
        case .minimumValue, .minimumLength, .earliestDate: 0
        case .maximumValue, .maximumLength, .latestDate: 1
        case .pattern: 2
        }
    }

    /// NSPredicateOperatorType: 1 `<=`, 3 `>=`, 7 `MATCHES`.
    private func validationRule(_ reference: PropertyListObject, type: AttributeType) throws(KeyedArchive.Failure) -> ValidationRule? {
        guard let predicate = try archive.object(reference), predicate.className == "NSComparisonPredicate",
              let operation = try archive.object(predicate.fields["NSPredicateOperator"]),
              let operatorType = try archive.integer(operation.fields["NSOperatorType"]),
              let left = try archive.object(predicate.fields["NSLeftExpression"]),
              let right = try archive.object(predicate.fields["NSRightExpression"]), right.className == "NSConstantValueExpression",
              let constant = try archive.scalar(right.fields["NSConstantValue"]) else { return nil }
        let subject = try keyPath(left)
        switch (operatorType, subject, constant) {
        case (1, "SELF", _), (3, "SELF", _):
            let isMinimum = operatorType == 3
            if case .date(let date) = constant, type == .dateAttributeType {
                return isMinimum ? .earliestDate(date) : .latestDate(date)
            }
            guard type.isNumeric, let bound = Self.bound(constant, type: type) else { return nil }
            return isMinimum ? .minimumValue(bound) : .maximumValue(bound)
        case (1, "length", .integer(let length)), (3, "length", .integer(let length)):
            guard type == .stringAttributeType, let length = Int(exactly: length) else { return nil }
            return operatorType == 3 ? .minimumLength(length) : .maximumLength(length)
        case (7, "SELF", .string(let pattern)) where type == .stringAttributeType:
            return .pattern(pattern)
        default:
            return nil
        }
    }

    /// "SELF" for `NSSelfExpression`, the key path of an `NSKeyPathExpression`
    /// (`valueForKey:` with one specifier argument) or of an
    /// `NSKeyPathSpecifierExpression`, nil otherwise.
    func keyPath(_ expression: KeyedArchive.Object) throws(KeyedArchive.Failure) -> String? {
        switch expression.className {
        case "NSSelfExpression":
            return "SELF"
        case "NSKeyPathSpecifierExpression":
            return try archive.string(expression.fields["NSKeyPath"])
        case "NSKeyPathExpression":
            guard let arguments = try archive.collection(expression.fields["NSArguments"]), arguments.count == 1,
                  let specifier = try archive.object(arguments.first) else { return nil }
            return try archive.string(specifier.fields["NSKeyPath"])
        default:
            return nil
        }
    }

    /// Integer constants stay integers, as integer literals do in a model file.
    private static func bound(_ constant: KeyedArchive.Scalar, type: AttributeType) -> NumericBound? {
        switch constant {
        case .integer(let number): return .integer(number)
        case .real where type == .decimalAttributeType: return decimal(constant).map { .decimal($0) }
        case .real(let number): return number.isNaN ? nil : .double(number)
        case .decimal(let value): return .decimal(value)
        default: return nil
        }
    }
}
