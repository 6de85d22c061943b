import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Used where a value's type is only known at run time (debug output, custom
/// functions, generic reads). Hot paths bind and read typed values by index
/// instead, which never boxes.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'\(value.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let value): return "x'\(value.map { String(format: "%02x", $0) }.joined())'"
        }
    }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
