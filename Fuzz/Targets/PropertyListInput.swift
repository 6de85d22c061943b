import Faultline
import Foundation

/// A property list as a store's `Z_PLIST` or a compiled model's
/// `VersionInfo.plist` holds one: read by `PropertyListReader`, and as store
/// metadata and version information. Metadata that reads must survive being
/// written and read again unchanged, every key an app put there included (a
/// store opened and saved never changes what it does not understand). A typed
/// refusal is fine. The store target reaches the same code only when its
/// mutations land in the few hundred bytes of a store file the plist takes.
public enum PropertyListInput: FuzzTarget {
    public static let name = "property-list"

    public static func run(_ input: Data) -> String? {
        _ = try? PropertyListReader.object(from: input)
        _ = try? CompiledModelInfo.parse(input, file: "VersionInfo.plist")
        guard let metadata = try? StoreMetadata(uuid: "FUZZ", propertyList: input) else { return nil }
        let written: Data
        do { written = try metadata.propertyList() } catch { return "metadata that read cannot be written: \(error)" }
        let reread: StoreMetadata
        do { reread = try StoreMetadata(uuid: "FUZZ", propertyList: written) } catch {
            return "metadata written from what was read does not read: \(error)"
        }
        guard same(metadata, reread) else { return "metadata changed in a round trip: \(metadata) became \(reread)" }
        return nil
    }

    /// Equal, with a NaN equal to itself (a real or a date may be one).
    static func same(_ a: StoreMetadata, _ b: StoreMetadata) -> Bool {
        var left = a, right = b
        let additional = (left.additional, right.additional)
        left.additional = [:]
        right.additional = [:]
        return left == right && same(.dictionary(additional.0), .dictionary(additional.1))
    }

    static func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            let (s, t) = (x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
            return s == t || (s.isNaN && t.isNaN)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }
}
