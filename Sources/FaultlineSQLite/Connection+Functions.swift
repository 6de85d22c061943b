import CSQLite
import Foundation

/// The arguments a custom SQL function was called with, read by 0-based index.
public struct FunctionArguments {
    let values: UnsafeMutablePointer<OpaquePointer?>?
    /// Number of arguments.
    public let count: Int

    private func value(_ index: Int) -> OpaquePointer? {
        guard index >= 0, index < count, let values else { return nil }
        return values[index]
    }

    public func isNull(at index: Int) -> Bool {
        sqlite3_value_type(value(index)) == SQLITE_NULL
    }

    public func int64(at index: Int) -> Int64 { sqlite3_value_int64(value(index)) }

    /// The argument's storage class.
    public func type(at index: Int) -> ColumnType {
        ColumnType(code: sqlite3_value_type(value(index)))
    }

    public func double(at index: Int) -> Double { sqlite3_value_double(value(index)) }

    /// The argument as text, or `nil` for NULL.
    public func string(at index: Int) -> String? {
        let argument = value(index)
        guard let text = sqlite3_value_text(argument) else { return nil }
        let count = Int(sqlite3_value_bytes(argument))
        return UTF8Text.string(UnsafeBufferPointer(start: text, count: count))
    }

    public func data(at index: Int) -> Data? {
        let argument = value(index)
        if sqlite3_value_type(argument) == SQLITE_NULL { return nil }
        guard let bytes = sqlite3_value_blob(argument) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(argument)))
    }

    public func value(at index: Int) -> SQLValue {
        let argument = value(index)
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT: return .text(string(at: index) ?? "")
        case SQLITE_BLOB: return .blob(data(at: index) ?? Data())
        default: return .null
        }
    }
}

/// Why a custom function refused its arguments; becomes the SQL error message.
public struct FunctionError: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// Holds a Swift function for SQLite's C callback; released by SQLite when the
/// function is replaced or the connection closes.
private final class FunctionBox {
    let body: (FunctionArguments) throws -> SQLValue
    init(_ body: @escaping (FunctionArguments) throws -> SQLValue) { self.body = body }
}

extension Connection {
    /// Registers a scalar SQL function written in Swift.
    ///
    /// - Parameters:
    ///   - argumentCount: the number of arguments, or -1 for any number.
    ///   - deterministic: the same arguments always give the same result, which
    ///     lets SQLite use the function in indexes, triggers' WHEN clauses and
    ///     generated columns, and factor calls out of loops.
    ///   - body: returns the result; a thrown error becomes the SQL error.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping (FunctionArguments) throws -> SQLValue
    ) throws {
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, values in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let box = Unmanaged<FunctionBox>.fromOpaque(userData).takeUnretainedValue()
                do {
                    let result = try box.body(FunctionArguments(values: values, count: Int(count)))
                    setResult(result, of: context)
                } catch let error as FunctionError {
                    sqlite3_result_error(context, error.message, -1)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil,
            { userData in
                if let userData { Unmanaged<FunctionBox>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else {
            // On failure SQLite has already called the destructor for us.
            throw SQLiteError(connection: handle, resultCode: code, sql: nil)
        }
    }
}

/// A text-to-text function's last argument and result. SQLite calls a
/// connection's functions on one thread at a time, and each registration
/// has its own memo.
private final class TextFunctionMemo {
    let transform: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    var lastArgument: [UInt8] = []
    var lastResult: [UInt8] = []
    var isEmpty = true
    init(_ transform: @escaping (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void) { self.transform = transform }

    func isLastArgument(_ argument: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !isEmpty, lastArgument.count == argument.count else { return false }
        guard argument.count > 0, let base = argument.baseAddress else { return true }
        return lastArgument.withUnsafeBufferPointer { last in
            last.baseAddress.map { memcmp($0, base, argument.count) == 0 } ?? false
        }
    }
}

extension Connection {
    /// Registers a deterministic one-argument function from text to text
    /// (NULL gives NULL) that remembers its last call: a derivation computed
    /// in an INSERT is computed again, on the same text, by the guard of the
    /// trigger that keeps it right for other writers. A repeat costs a byte
    /// comparison instead of two strings and the transform.
    public func createTextFunction(_ name: String, _ transform: @escaping (String) -> String) throws {
        try createTextFunction(name, utf8: { argument, result in
            result.append(contentsOf: transform(UTF8Text.string(argument)).utf8)
        })
    }

    /// The same, for a transform that works on the argument's UTF-8 bytes
    /// and appends its result's to the array it is given (empty), so a call
    /// makes no `String`. The bytes are SQLite's: they may be ill-formed.
    public func createTextFunction(
        _ name: String, utf8 transform: @escaping (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    ) throws {
        let memo = Unmanaged.passRetained(TextFunctionMemo(transform)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, memo,
            { context, _, values in
                guard let context, let userData = sqlite3_user_data(context), let values else { return }
                let memo = Unmanaged<TextFunctionMemo>.fromOpaque(userData).takeUnretainedValue()
                guard let text = sqlite3_value_text(values[0]) else { return sqlite3_result_null(context) }
                let argument = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(values[0])))
                if !memo.isLastArgument(argument) {
                    // Refilled in place: the arrays keep their storage.
                    memo.lastResult.removeAll(keepingCapacity: true)
                    memo.transform(argument, &memo.lastResult)
                    memo.lastArgument.removeAll(keepingCapacity: true)
                    memo.lastArgument.append(contentsOf: argument)
                    memo.isEmpty = false
                }
                memo.lastResult.withUnsafeBufferPointer { setText($0, of: context) }
            },
            nil, nil,
            { userData in
                if let userData { Unmanaged<TextFunctionMemo>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, resultCode: code, sql: nil) }
    }
}

private func setResult(_ result: SQLValue, of context: OpaquePointer) {
    switch result {
    case .null:
        sqlite3_result_null(context)
    case .integer(let value):
        sqlite3_result_int64(context, value)
    case .real(let value):
        sqlite3_result_double(context, value)
    case .text(let value):
        var value = value
        value.withUTF8 { setText($0, of: context) }
    case .blob(let value):
        if value.isEmpty {
            sqlite3_result_zeroblob(context, 0)
        } else {
            value.withUnsafeBytes { bytes in
                sqlite3_result_blob64(
                    context, bytes.baseAddress, sqlite3_uint64(bytes.count), faultline_sqlite_transient())
            }
        }
    }
}

/// A function's text result, copied by SQLite.
private func setText(_ bytes: UnsafeBufferPointer<UInt8>, of context: OpaquePointer) {
    bytes.withMemoryRebound(to: CChar.self) { text in
        // A NULL pointer would make the result NULL; "" must stay text.
        sqlite3_result_text64(
            context, text.baseAddress ?? faultline_empty_text(), sqlite3_uint64(text.count),
            faultline_sqlite_transient(), UInt8(SQLITE_UTF8))
    }
}
