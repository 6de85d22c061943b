import CSQLite

/// One column of the current row, fetched once (`sqlite3_column_value`) and
/// then read through the `sqlite3_value_*` functions.
///
/// Each `sqlite3_column_*` call locks the connection's mutex (a no-op call
/// with this package's NOMUTEX connections), finds the column and checks for
/// a failed allocation; a nullable integer read through `isNull(at:)` then
/// `int64(at:)` paid that twice, a text column through `column_text` and
/// `column_bytes` twice as well. SQLite calls such values "unprotected": safe
/// to read because a connection here is only ever used from one thread at a
/// time. Valid until the statement steps, resets or finalises.
public struct ColumnValue {
    @usableFromInline let value: OpaquePointer?

    @inline(__always)
    init(_ value: OpaquePointer?) { self.value = value }

    @inline(__always)
    public var isNull: Bool { sqlite3_value_type(value) == SQLITE_NULL }

    @inline(__always)
    public var int64: Int64 { sqlite3_value_int64(value) }

    @inline(__always)
    public var double: Double { sqlite3_value_double(value) }

    /// The value as text, copied once into a validated `String`; nil for NULL.
    @inline(__always)
    public var string: String? {
        // Order matters: value_text converts first, value_bytes then measures.
        guard let text = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return UTF8Text.string(UnsafeBufferPointer(start: text, count: count))
    }
}

extension Statement {
    /// Column `index` of the current row, for several reads of one column.
    @inline(__always)
    public func column(at index: Int32) -> ColumnValue { ColumnValue(sqlite3_column_value(handle, index)) }
}
