import CSQLite
import Foundation

/// Binding parameters by 1-based index, as SQLite numbers them.
///
/// Text and blobs are copied once into a buffer the statement owns and reuses
/// (see `ParameterBuffers`), so a steady-state insert loop allocates nothing
/// per bound value.
extension Statement {
    @inline(__always)
    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    @inline(__always)
    public func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    @inline(__always)
    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    @inline(__always)
    public func bind(_ value: Bool, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    /// Binds UTF-8 text by length, so embedded NUL characters survive.
    @inline(__always)
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { utf8 -> Int32 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let length = sqlite3_uint64(bytes.count)
            if let copy = buffers.store(bytes, at: index) {
                return sqlite3_bind_text64(
                    handle, index, copy.assumingMemoryBound(to: CChar.self), length,
                    faultline_sqlite_static(), UInt8(SQLITE_UTF8))
            }
            // UInt8 and CChar may alias; an empty string must stay text, not NULL.
            let text = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) ?? faultline_empty_text()
            return sqlite3_bind_text64(handle, index, text, length, faultline_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try check(code)
    }

    /// Binds bytes as a BLOB; an empty buffer binds an empty BLOB, not NULL.
    public func bind(bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        if let copy = buffers.store(bytes, at: index) {
            try check(sqlite3_bind_blob64(handle, index, copy, sqlite3_uint64(bytes.count), faultline_sqlite_static()))
        } else {
            try check(sqlite3_bind_blob64(
                handle, index, base, sqlite3_uint64(bytes.count), faultline_sqlite_transient()))
        }
    }

    public func bind(_ value: Data, at index: Int32) throws {
        try value.withUnsafeBytes { try bind(bytes: $0, at: index) }
    }

    public func bind(_ value: [UInt8], at index: Int32) throws {
        try value.withUnsafeBytes { try bind(bytes: $0, at: index) }
    }

    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds a dynamically typed value; prefer the typed overloads on hot paths.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try bind(data, at: index)
        }
    }

    /// Binds `values` to parameters 1...n.
    public func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    @inline(__always)
    private func check(_ code: Int32) throws {
        if code != SQLITE_OK {
            throw SQLiteError(connection: sqlite3_db_handle(handle), resultCode: code, sql: sql)
        }
    }
}
