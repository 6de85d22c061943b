import Foundation
import CSQLite

/// A primary SQLite result code (the low byte of an extended code).
///
/// Matching on the primary code catches a whole family: `.constraint` covers
/// `SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_CONSTRAINT_FOREIGNKEY` and the rest.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue & 0xFF }

    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    public static let full = ResultCode(rawValue: SQLITE_FULL)

    public var description: String {
        guard let text = sqlite3_errstr(rawValue) else { return "SQLite code \(rawValue)" }
        return String(cString: text)
    }
}

/// An error reported by SQLite, carrying the SQL that failed.
///
/// Bound values are deliberately not part of the error (they may hold user data);
/// `FAULTLINE_SQL_DEBUG=2` prints them alongside each statement instead.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code, for matching a family of errors.
    public let code: ResultCode
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    public let extendedCode: Int32
    /// SQLite's message, e.g. "UNIQUE constraint failed: ZARTICLE.ZTITLE".
    public let message: String
    /// The SQL of the statement that failed, when there was one.
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = ResultCode(rawValue: extendedCode)
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Reads the current error of a connection handle.
    init(connection: OpaquePointer?, resultCode: Int32, sql: String?) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = ResultCode(rawValue: resultCode).description
        }
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? resultCode
        // sqlite3_errmsg describes the most recent failure; prefer its code when it
        // belongs to the same family as the code we were handed.
        let code = (extended & 0xFF) == (resultCode & 0xFF) ? extended : resultCode
        self.init(extendedCode: code, message: message, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(code)): \(message)"
        if let sql { text += " — while executing: \(sql)" }
        return text
    }
}

extension SQLiteError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
