import Foundation
import FaultlineSQLite

/// The static kind of a compiled operand, from the model: what it may be
/// compared with. Numbers of every width (booleans too) form one family.
enum PredicateSQLKind: Hashable {
    case number, decimal, text, date, uuid, data, other
    /// Binary data in Core Data's external-storage form (`MarkedDataAttributes`):
    /// compares with data, whose bound value takes the inline marker.
    case markedData

    init(_ type: AttributeType) {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
            .doubleAttributeType, .floatAttributeType:
            self = .number
        case .decimalAttributeType: self = .decimal
        case .stringAttributeType, .URIAttributeType: self = .text
        case .dateAttributeType: self = .date
        case .UUIDAttributeType: self = .uuid
        case .binaryDataAttributeType, .transformableAttributeType: self = .data
        default: self = .other
        }
    }

    var isNumeric: Bool { self == .number || self == .decimal }

    /// How SQLite converts a constant compared with a value of this kind
    /// (`PredicateAffinity`); nil for kinds it leaves alone.
    var affinity: PredicateAffinity? {
        switch self {
        case .text: .text
        case .number, .decimal: .numeric
        case .date: .date
        case .uuid, .data, .markedData, .other: nil
        }
    }
    /// Whether `<`, `>`, BETWEEN, @min and @max apply.
    var isOrdered: Bool { isNumeric || self == .text || self == .date }

    func compares(with other: PredicateSQLKind) -> Bool {
        let (a, b) = (self == .markedData ? .data : self, other == .markedData ? .data : other)
        return (a.isNumeric && b.isNumeric) || (a == b && a != .other)
    }

    /// The kind of a constant; nil for nil, arrays and object IDs.
    init?(_ value: PredicateValue) {
        switch value {
        case .bool, .int, .double: self = .number
        case .decimal: self = .decimal
        case .string: self = .text
        case .date: self = .date
        case .uuid: self = .uuid
        case .data: self = .data
        case .null, .array, .objectID: return nil
        }
    }

    /// The value bound for `value` compared with an operand of this kind; nil
    /// when the kinds do not compare. Decimals go as exact text to a column
    /// (its numeric affinity converts them), as doubles elsewhere.
    func sqlValue(for value: PredicateValue, column: Bool) -> SQLValue? {
        guard let kind = PredicateSQLKind(value), compares(with: kind) else { return value == .null ? .null : nil }
        switch value {
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .int(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .decimal(let number):
            return column ? .text(number.description) : .real(NSDecimalNumber(decimal: number).doubleValue)
        case .string(let text): return .text(text)
        case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .data(let data):
            // Stored inline, a marked value is the marker then the bytes.
            return .blob(self == .markedData ? Data([MarkedDataAttributes.inlineMarker]) + data : data)
        case .null, .array, .objectID: return nil
        }
    }
}

/// A compiled operand of a comparison.
indirect enum PredicateSQLTerm {
    /// A literal, argument or substituted variable: bound when used.
    case constant(PredicateValue)
    /// A scalar SQL expression: a column, an aggregate subquery. `canonical` is
    /// the column of the attribute's `canonical:` derived attribute, if any;
    /// `isColumn` tells a column (with affinity) from a computed value.
    case expression(SQLFragment, kind: PredicateSQLKind, kindName: String, canonical: String?, isColumn: Bool)
    /// An object: a to-one's key column or a scope's `Z_PK`; `entityIndex` is
    /// the declared destination.
    case object(SQLFragment, entityIndex: Int)
    /// A to-many key path (possibly continuing past the relationship) or a SUBQUERY.
    case collection(PredicateSQLCollection)
    /// `{…}` holding non-constant elements.
    case list([PredicateSQLTerm])

    var kindName: String {
        switch self {
        case .constant(let value): value.kindName
        case .expression(_, _, let name, _, _): name
        case .object: "to-one object"
        case .collection: "to-many collection"
        case .list: "array"
        }
    }

    var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }

    var constantValue: PredicateValue? {
        if case .constant(let value) = self { return value }
        return nil
    }
}

/// A to-many relationship reached from `sourceAlias` (an alias of `scope`),
/// the key path continuing from each destination, and a SUBQUERY's filter.
struct PredicateSQLCollection {
    let scope: PredicateSQLScope
    let sourceAlias: String
    let sourceEntityIndex: Int
    let relationship: CheckedRelationship
    var rest: [String]
    var subquery: (variable: String, predicate: PredicateNode)?
}

/// A subject with no keys: lets the evaluator decide comparisons of constants
/// at compile time.
struct ConstantSubject: PredicateSubject {
    func predicateValue(forKey key: String) throws -> PredicateOperand {
        throw FetchPredicateError.unknownKey(entity: "constant", key: key)
    }
}

extension AttributeType {
    /// The evaluator's name for values of this type, for error messages.
    var predicateKindName: String {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: "integer"
        case .booleanAttributeType: "boolean"
        case .doubleAttributeType, .floatAttributeType: "double"
        case .decimalAttributeType: "decimal"
        case .stringAttributeType, .URIAttributeType: "string"
        case .dateAttributeType: "date"
        case .UUIDAttributeType: "UUID"
        default: "data"
        }
    }
}
