import Foundation

/// Reads a property list into Foundation's objects, as
/// `PropertyListSerialization.propertyList(from:options:format:)` does, for
/// files Faultline did not write: a store's `Z_PLIST`, a compiled model's
/// `VersionInfo.plist`, a bundle's `.xccurrentversion`.
///
/// `bplist00` goes through `BinaryPropertyList`, which checks every offset and
/// refuses cycles: Foundation's binary reader on Linux crashed the process
/// (a segmentation fault in the runtime's casts) on a store whose metadata had
/// one bit flipped, where a clear error is owed. XML and OpenStep text go to
/// Foundation.
public enum PropertyListReader {
    /// Why the bytes are not a property list Faultline can use.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Far more than a store's metadata or a model's version plists hold.
    public static let ordinaryMaximumValues = 1 << 20

    /// The property list's root: `String`, `Data`, `Date`, `NSNumber`, `[Any]`
    /// or `[String: Any]`, nested.
    ///
    /// - Parameter maximumValues: how many values the list may hold once every
    ///   shared reference is expanded. A binary list of a few kilobytes can
    ///   refer to one array twice at each of sixty levels; a caller that walks
    ///   the result would never finish.
    public static func object(from data: Data, maximumValues: Int = ordinaryMaximumValues) throws(Failure) -> Any {
        guard data.starts(with: Array("bplist".utf8)) else { return try foundationObject(from: data) }
        let root: PropertyListObject
        do { root = try BinaryPropertyList.parse(data, maximumValues: maximumValues) } catch {
            switch error { case .malformed(let reason): throw Failure(reason: reason) }
        }
        return try foundation(root)
    }

    private static func foundationObject(from data: Data) throws(Failure) -> Any {
        do { return try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
            throw Failure(reason: (error as NSError).localizedDescription)
        }
    }

    private static func foundation(_ object: PropertyListObject) throws(Failure) -> Any {
        switch object {
        case .bool(let value): return NSNumber(value: value)
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return NSNumber(value: value)
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let value): return value
        case .string(let value): return value
        case .array(let items):
            var values: [Any] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try foundation(item)) }
            return values
        case .dictionary(let entries):
            var values = [String: Any](minimumCapacity: entries.count)
            for (key, item) in entries { values[key] = try foundation(item) }
            return values
        case .null: throw Failure(reason: "the list holds a null object, which no property list stores")
        case .uid: throw Failure(reason: "the list holds a keyed archive's UID outside an archive")
        }
    }
}
