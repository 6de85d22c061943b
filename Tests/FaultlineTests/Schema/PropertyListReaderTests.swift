import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline
@testable import FaultlineModelFiles

/// Property lists Faultline did not write — a store's `Z_PLIST`, a compiled
/// model's `VersionInfo.plist` — read through Faultline's own `bplist00` reader:
/// what Foundation reads from them, and a typed error where Foundation's reader
/// on Linux crashed or would never finish.
@Suite("Property lists from other writers")
struct PropertyListReaderTests {
    /// Both readers' results, as the typed values the metadata keeps.
    static func bothReaders(_ data: Data) throws -> (faultline: PropertyListValue?, foundation: PropertyListValue?) {
        let ours = try PropertyListReader.object(from: data)
        let theirs = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return (PropertyListValue(foundation: ours), PropertyListValue(foundation: theirs))
    }

    @Test("A binary list Foundation writes, of every type, reads as Foundation reads it")
    func everyType() throws {
        let list: [String: Any] = [
            "text": "plain", "unicode": "Größe – 数据 🚀", "empty": "",
            "small": NSNumber(value: 7), "negative": NSNumber(value: -70_000), "large": NSNumber(value: Int64.max),
            "real": NSNumber(value: 2.5), "whole": NSNumber(value: 2.0), "flag": NSNumber(value: true),
            "date": Date(timeIntervalSinceReferenceDate: 123_456.5), "bytes": Data([0, 1, 254, 255]),
            "list": ["a", NSNumber(value: 1), ["nested": Data()]] as [Any], "nothing": [String: Any](),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0)
        let read = try Self.bothReaders(data)
        #expect(read.faultline != nil)
        #expect(read.faultline == read.foundation)
        guard case .dictionary(let values) = read.faultline else { Issue.record("the root is not a dictionary"); return }
        #expect(values["unicode"] == .string("Größe – 数据 🚀"))
        #expect(values["large"] == .integer(Int64.max))
        #expect(values["real"] == .real(2.5))
        #expect(values["whole"] == .real(2))
        #expect(values["flag"] == .boolean(true))
        #expect(values["small"] == .integer(7))
    }

    @Test("Every fixture store's Z_PLIST reads as Foundation reads it")
    func fixtureMetadata() throws {
        let root = try CoreDataFixtures.root()
        var compared = 0
        for store in try CoreDataFixtures.sqliteFiles() {
            var configuration = Connection.Configuration()
            configuration.immutable = true
            let connection = try Connection(.file(root.appendingPathComponent(store).path), configuration: configuration)
            guard try connection.hasTable(named: "Z_METADATA"),
                  let row = try connection.rows("SELECT Z_PLIST FROM Z_METADATA").first,
                  case .blob(let data) = row.first else { continue }
            let read = try Self.bothReaders(data)
            #expect(read.faultline != nil, "\(store)")
            #expect(read.faultline == read.foundation, "\(store)")
            compared += 1
        }
        #expect(compared >= 15, "only \(compared) fixture stores carry a Z_PLIST")
    }

    @Test("A set at the root, which crashed Foundation's reader, is a typed error; a set inside reads as an array")
    func sets() throws {
        let metadata = StoreMetadata(uuid: "ABC", entityVersionHashes: ["A": Data(repeating: 7, count: 32)])
        var bytes = [UInt8](try metadata.propertyList())
        #expect(bytes[8] >> 4 == 0xD, "the first object is not the root dictionary")
        bytes[8] ^= 0x10  // the dictionary's marker, 0xDn, becomes a set's, 0xCn
        #expect(throws: StoreMetadataError.notAPropertyList("the root is not a dictionary")) {
            try StoreMetadata(uuid: "ABC", propertyList: Data(bytes))
        }
        // ["k": {5, 5}]: a dictionary, its key, a set of two references to one integer.
        let nested = BinaryListBytes.list([[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0xC2, 3, 3], [0x10, 5]])
        let read = try PropertyListReader.object(from: nested)
        #expect(PropertyListValue(foundation: read) == .dictionary(["k": .array([.integer(5), .integer(5)])]))
    }

    @Test("Shared references that would expand past the limit, and cycles, are refused at once")
    func expansion() throws {
        // Object i is an array holding object i + 1 twice: 2^41 values expanded, in 125 bytes.
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 1])
        let started = ContinuousClock.now
        #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.object(from: BinaryListBytes.list(objects)) }
        #expect(ContinuousClock.now - started < .seconds(5))
        // Twenty levels, 2^21 - 1 values: over the default limit of 2^20, within a limit of 2^21.
        let twenty: [[UInt8]] = (0..<20).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x10, 1]]
        #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.object(from: BinaryListBytes.list(twenty)) }
        let accepted = try PropertyListReader.object(from: BinaryListBytes.list(twenty), maximumValues: 1 << 21)
        #expect((accepted as? [Any])?.count == 2)
        // An array holding itself.
        #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.object(from: BinaryListBytes.list([[0xA1, 0]])) }
        #expect(throws: StoreMetadataError.self) {
            try StoreMetadata(uuid: "ABC", propertyList: BinaryListBytes.list(objects))
        }
    }

    @Test("XML lists still read through Foundation")
    func xml() throws {
        var metadata = StoreMetadata(uuid: "ABC", entityVersionHashes: ["A": Data(repeating: 7, count: 32)])
        metadata.additional["AppKey"] = .array([.string("x"), .integer(3)])
        let binary = try PropertyListSerialization.propertyList(from: metadata.propertyList(), options: [], format: nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: binary, format: .xml, options: 0)
        #expect(try StoreMetadata(uuid: "ABC", propertyList: xml) == metadata)
        #expect(throws: StoreMetadataError.self) { try StoreMetadata(uuid: "ABC", propertyList: Data("<plist><dict>".utf8)) }
    }
}

/// A `bplist00` file around hand-written objects: one-byte offsets and
/// references, the first object the root.
enum BinaryListBytes {
    static func list(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        return Data(bytes)
    }
}
