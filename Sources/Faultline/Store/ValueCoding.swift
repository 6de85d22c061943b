import Foundation
import FaultlineSupport
import FaultlineSQLite

/// How attribute values are encoded in SQLite, as Core Data encodes them:
/// integers and booleans as INTEGER, floating point as REAL, dates as seconds
/// since 2001-01-01 UTC (SQLite's TIMESTAMP affinity stores whole seconds as
/// INTEGER), UUIDs as 16-byte BLOBs, URIs as text, binary data and transformed
/// values as BLOBs. Decimals are bound as their exact decimal text; the DECIMAL
/// column's numeric affinity stores it as INTEGER or REAL only when that is
/// lossless to 15 digits, so reading back through the shortest decimal form of
/// the REAL is exact; longer decimals stay TEXT.
enum ValueCoding {
    @inline(__always)
    static func bind(_ value: AttributeValue, to statement: Statement, at index: Int32) throws {
        switch value {
        case .null: try statement.bindNull(at: index)
        case .integer(let integer): try statement.bind(integer, at: index)
        case .double(let double): try statement.bind(double, at: index)
        case .bool(let bool): try statement.bind(bool, at: index)
        case .string(let string): try statement.bind(string, at: index)
        case .date(let date): try statement.bind(date.timeIntervalSinceReferenceDate, at: index)
        case .data(let data): try statement.bind(data, at: index)
        case .uuid(let uuid): try withUnsafeBytes(of: uuid.uuid) { try statement.bind(bytes: $0, at: index) }
        case .uri(let url): try statement.bind(url.absoluteString, at: index)
        case .decimal(let decimal): try statement.bind(decimal.description, at: index)
        case .composite: try statement.bindNull(at: index)
        }
    }

    /// Reads a column as a value of `type`; NULL reads as `.null`.
    @inline(__always)
    static func read(_ statement: Statement, at index: Int32, as type: AttributeType) -> AttributeValue {
        let column = statement.column(at: index)
        if type != .stringAttributeType, column.isNull { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return .integer(column.int64)
        case .booleanAttributeType:
            return .bool(column.int64 != 0)
        case .doubleAttributeType, .floatAttributeType:
            return .double(column.double)
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: column.double))
        case .stringAttributeType:
            // No separate NULL check above: SQLite hands back no pointer for NULL text.
            return column.string.map { .string($0) } ?? .null
        case .URIAttributeType, .objectIDAttributeType:
            guard let text = column.string, let url = URL(string: text) else { return .null }
            return .uri(url)
        case .UUIDAttributeType:
            return statement.withUnsafeBytes(at: index) { bytes in
                guard bytes.count == 16 else { return .null }
                var uuid = UUID().uuid
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
                return .uuid(UUID(uuid: uuid))
            }
        case .decimalAttributeType:
            switch statement.columnType(at: index) {
            case .integer: return .decimal(Decimal(column.int64))
            case .real: return Decimal(shortestOf: column.double).map { .decimal($0) } ?? .null
            default: return Decimal(string: column.string ?? "").map { .decimal($0) } ?? .null
            }
        case .binaryDataAttributeType, .transformableAttributeType, .compositeAttributeType:
            return .data(statement.data(at: index) ?? Data())
        case .undefinedAttributeType:
            // An expression whose description names no result type (Core
            // Data's default): the value as SQLite holds it, as Core Data
            // hands back an NSNumber for a count or a sum.
            switch statement.columnType(at: index) {
            case .integer: return .integer(column.int64)
            case .real: return .double(column.double)
            case .text: return column.string.map { .string($0) } ?? .null
            default: return .data(statement.data(at: index) ?? Data())
            }
        }
    }
}

extension AttributeValue {
    /// The value as a dynamically typed SQL parameter, encoded exactly as
    /// `ValueCoding.bind` binds it (for statements built once, off the per-row path).
    var sqlValue: SQLValue {
        switch self {
        case .null, .composite: return .null
        case .integer(let value): return .integer(value)
        case .double(let value): return .real(value)
        case .bool(let value): return .integer(value ? 1 : 0)
        case .string(let value): return .text(value)
        case .date(let value): return .real(value.timeIntervalSinceReferenceDate)
        case .data(let value): return .blob(value)
        case .uuid(let value): return .blob(withUnsafeBytes(of: value.uuid) { Data($0) })
        case .uri(let value): return .text(value.absoluteString)
        case .decimal(let value): return .text(value.description)
        }
    }
}
