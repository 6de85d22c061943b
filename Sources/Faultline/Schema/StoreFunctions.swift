import Foundation
import FaultlineSQLite

/// The SQL functions a store's triggers call, registered on every connection
/// that opens a store.
///
/// `NSCoreDataNow()` keeps Core Data's own name (its derived-attribute triggers
/// call it), so stores written by either side accept writes from the other.
/// The folding functions have Faultline names: Core Data's equivalents are not
/// documented.
public enum StoreFunctions {
    public static let canonical = "FAULTLINE_CANONICAL"
    public static let lowercase = "FAULTLINE_LOWERCASE"
    public static let uppercase = "FAULTLINE_UPPERCASE"
    public static let now = "NSCoreDataNow"

    /// Registers every function on `connection`.
    public static func register(on connection: Connection) throws {
        try connection.createFunction(canonical, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text(CanonicalText.fold($0)) } ?? .null
        }
        try connection.createFunction(lowercase, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text($0.lowercased()) } ?? .null
        }
        try connection.createFunction(uppercase, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text($0.uppercased()) } ?? .null
        }
        // Seconds since 2001-01-01 UTC, Core Data's date encoding.
        try connection.createFunction(now, argumentCount: 0, deterministic: false) { _ in
            .real(Date().timeIntervalSinceReferenceDate)
        }
    }
}
