import CSQLite
import Foundation

/// The storage class of a column value in the current row.
public enum ColumnType: Sendable {
    case integer, real, text, blob, null

    /// From SQLite's fundamental datatype code (`sqlite3_column_type`,
    /// `sqlite3_value_type`).
    @inline(__always)
    init(code: Int32) {
        switch code {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        default: self = .null
        }
    }
}

/// Reading the current row's columns by 0-based index, as SQLite numbers them.
///
/// Valid only after `step()` returned `true` and before the next `step()` or
/// `reset()`. Integers and doubles are read without allocation; text and blobs
/// are copied once into a Swift value, or lent without a copy through
/// `withUnsafeBytes(at:_:)`.
extension Statement {
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(at index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The declared type of a result column that comes straight from a table.
    public func columnDeclaredType(at index: Int32) -> String? {
        sqlite3_column_decltype(handle, index).map { String(cString: $0) }
    }

    @inline(__always)
    public func columnType(at index: Int32) -> ColumnType {
        ColumnType(code: sqlite3_column_type(handle, index))
    }

    @inline(__always)
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    @inline(__always)
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    @inline(__always)
    public func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    @inline(__always)
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    @inline(__always)
    public func bool(at index: Int32) -> Bool {
        sqlite3_column_int64(handle, index) != 0
    }

    /// The column as text, copied once; `nil` for NULL. Other storage classes
    /// are converted by SQLite's rules.
    @inline(__always)
    public func string(at index: Int32) -> String? { column(at: index).string }

    /// The column as bytes, copied once; `nil` for NULL, empty for an empty BLOB.
    public func data(at index: Int32) -> Data? {
        if isNull(at: index) { return nil }
        return withUnsafeBytes(at: index) { Data($0) }
    }

    /// Lends the column's bytes without copying. The buffer is valid only
    /// inside `body`.
    public func withUnsafeBytes<Result>(
        at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let base = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count))
    }

    /// The column as a dynamically typed value.
    public func value(at index: Int32) -> SQLValue {
        switch columnType(at: index) {
        case .null: return .null
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(string(at: index) ?? "")
        case .blob: return .blob(data(at: index) ?? Data())
        }
    }
}
