import CSQLite
import Foundation

/// A collating sequence written in Swift.
private final class CollationBox {
    let compare: (String, String) -> ComparisonResult
    init(_ compare: @escaping (String, String) -> ComparisonResult) { self.compare = compare }
}

extension Connection {
    /// Registers a collating sequence (`ORDER BY x COLLATE name`) comparing
    /// the two texts as `compare` does; ill-formed UTF-8 is repaired first,
    /// as every text SQLite hands back to Swift is.
    public func createCollation(_ name: String, _ compare: @escaping (String, String) -> ComparisonResult) throws {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { userData, firstCount, first, secondCount, second in
                guard let userData else { return 0 }
                let box = Unmanaged<CollationBox>.fromOpaque(userData).takeUnretainedValue()
                let left = UTF8Text.string(UnsafeBufferPointer(
                    start: first?.assumingMemoryBound(to: UInt8.self), count: Int(firstCount)))
                let right = UTF8Text.string(UnsafeBufferPointer(
                    start: second?.assumingMemoryBound(to: UInt8.self), count: Int(secondCount)))
                switch box.compare(left, right) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { userData in
                if let userData { Unmanaged<CollationBox>.fromOpaque(userData).release() }
            })
        // Unlike sqlite3_create_function_v2, a failed sqlite3_create_collation_v2
        // does not call the destructor.
        guard code == SQLITE_OK else {
            Unmanaged<CollationBox>.fromOpaque(box).release()
            throw SQLiteError(connection: handle, resultCode: code, sql: nil)
        }
    }
}
