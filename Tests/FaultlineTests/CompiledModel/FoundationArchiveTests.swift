// Core Data's default transformer stores a keyed archive of Foundation values.
// Every such archive in the fixture stores decodes, or names the class it
// holds that is not Foundation's; what Faultline writes back for a decoded
// value is, object for object, the archive Darwin wrote (class chains, keys,
// values), once Darwin's mutable classes are read as their immutable parents;
// values round-trip through encode and decode; bad bytes are a typed result,
// never a crash.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline
@testable import FaultlineModelFiles

@Suite("Foundation keyed archives (Core Data's default transformer)")
struct FoundationArchiveTests {
    /// An archive's object tree with references followed: what two archives of
    /// the same value share, whatever their object numbering.
    indirect enum Tree: Equatable, CustomStringConvertible {
        case scalar(PropertyListObject)
        case object(classes: [String], fields: [String: Tree])
        case list([Tree])
        /// Dictionary entries and set members, order-free.
        case unordered([String])

        var description: String {
            switch self {
            case .scalar(let value): return "\(value)"
            case .object(let classes, let fields):
                return "\(classes.first ?? "?")(\(fields.keys.sorted().map { "\($0): \(fields[$0]!)" }.joined(separator: ", ")))"
            case .list(let members): return "[\(members.map(\.description).joined(separator: ", "))]"
            case .unordered(let members): return "{\(members.joined(separator: ", "))}"
            }
        }
    }

    /// The tree of `data`, with Darwin's mutable classes read as their parents
    /// (an `NSMutableDictionary` archives as an `NSDictionary` does, less the
    /// first class of its chain) and `NSMutableData`/`NSMutableString` as the
    /// inline data and string an immutable one is written as.
    static func tree(_ data: Data) throws -> Tree {
        guard case .dictionary(let archive) = try BinaryPropertyList.parse(data),
              case .array(let objects)? = archive["$objects"], case .dictionary(let top)? = archive["$top"],
              let root = top["root"] else { throw Unreadable() }
        func resolve(_ value: PropertyListObject, depth: Int) throws -> Tree {
            guard depth < 64 else { throw Unreadable() }
            var value = value
            if case .uid(let index) = value {
                guard objects.indices.contains(index) else { throw Unreadable() }
                value = objects[index]
            }
            guard case .dictionary(var fields) = value, case .uid(let classIndex)? = fields.removeValue(forKey: "$class"),
                  objects.indices.contains(classIndex), case .dictionary(let record) = objects[classIndex],
                  case .array(let chain)? = record["$classes"] else {
                if case .array(let members) = value { return .list(try members.map { try resolve($0, depth: depth + 1) }) }
                return .scalar(value)
            }
            var classes = chain.compactMap { if case .string(let name) = $0 { name } else { nil } }
            if classes.first?.hasPrefix("NSMutable") == true { classes.removeFirst() }
            if classes.first == "NSData", let bytes = fields["NS.data"] { return try resolve(bytes, depth: depth + 1) }
            if classes.first == "NSString", let text = fields["NS.string"] { return try resolve(text, depth: depth + 1) }
            var resolved = try fields.mapValues { try resolve($0, depth: depth + 1) }
            if case .list(let keys)? = resolved["NS.keys"], case .list(let values)? = resolved["NS.objects"] {
                resolved["NS.keys"] = nil
                resolved["NS.objects"] = .unordered(zip(keys, values).map { "\($0) = \($1)" }.sorted())
            } else if classes.first == "NSSet", case .list(let members)? = resolved["NS.objects"] {
                resolved["NS.objects"] = .unordered(members.map(\.description).sorted())
            }
            return .object(classes: classes, fields: resolved)
        }
        return try resolve(root, depth: 0)
    }

    struct Unreadable: Error {}

    /// Every `bplist00` keyed archive of a root object in a BLOB column of a fixture store.
    static func fixtureArchives() throws -> [(label: String, data: Data)] {
        var found: [(String, Data)] = []
        for store in try CoreDataFixtures.sqliteFiles() {
            let path = try CoreDataFixtures.path(store)
            let connection = try Connection(.file(path), configuration: .inspecting(path))
            for table in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'") {
                guard case .text(let name)? = table.first else { continue }
                for column in try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(name)]) {
                    guard case .text(let columnName)? = column.first else { continue }
                    let sql = "SELECT Z_PK, \"\(columnName)\" FROM \"\(name)\" WHERE typeof(\"\(columnName)\") = 'blob' "
                        + "AND substr(\"\(columnName)\", 1, 8) = CAST('bplist00' AS BLOB)"
                    guard let rows = try? connection.rows(sql) else { continue }
                    for row in rows {
                        guard case .blob(let bytes) = row[1], case .integer(let key) = row[0] else { continue }
                        // Archives of one root object, as a transformer writes (not an
                        // app's own keyed encoding into a binary attribute, with other top keys).
                        if case .dictionary(let plist)? = try? BinaryPropertyList.parse(bytes), plist["$archiver"] != nil,
                           case .dictionary(let top)? = plist["$top"], top["root"] != nil {
                            found.append(("\(store) \(name).\(columnName) Z_PK \(key)", bytes))
                        }
                    }
                }
            }
        }
        return found
    }

    @Test("Every keyed archive in the fixture stores decodes or names its foreign class; re-encoded, it is the archive Darwin wrote")
    func fixtureArchivesRoundTrip() throws {
        let archives = try Self.fixtureArchives()
        #expect(archives.count > 5000, "found \(archives.count)")
        var decoded = 0
        var foreign: [String: Int] = [:]
        for (label, data) in archives {
            switch FoundationArchive.decode(data) {
            case .value(let value):
                decoded += 1
                let written = try FoundationArchive.encode(value ?? NSNull())
                guard value != nil else { continue }
                let original = try Self.tree(data)
                #expect(try Self.tree(written) == original, "\(label)")
            case .unsupportedClass(let name):
                foreign[name, default: 0] += 1
            case .malformed(let reason):
                Issue.record("\(label): \(reason)")
            }
        }
        print("keyed archives in fixtures: \(archives.count); decoded and rewritten \(decoded); foreign classes \(foreign)")
        #expect(decoded >= 150, "decoded only \(decoded)")
        // App and CloudKit classes are named, never guessed at.
        #expect(Set(foreign.keys) == ["CKRecord", "Content", "CoreDataPlus_Tests.Cover"], "\(foreign)")
    }

    @Test("Foundation values round-trip: scalars, dates, data, decimals, UUIDs, URLs, nested arrays, dictionaries, sets and NSNull")
    func valuesRoundTrip() throws {
        let uuid = UUID()
        let value: [String: Any] = [
            "text": "Café ☕︎", "int": 42, "negative": -7, "big": Int(Int64.max), "real": 2.5, "flag": true,
            "date": Date(timeIntervalSinceReferenceDate: 606_519_859.5), "bytes": Data([0, 1, 2, 255]),
            "decimal": Decimal(string: "-12.34")!, "large": Decimal(string: "123456789012345678901234567890")!,
            "uuid": uuid, "url": URL(string: "https://example.com/a?b=c")!, "null": NSNull(),
            "list": [1, "two", [3.5, false]] as [Any], "set": Set<AnyHashable>(["a", "b", 3]),
            "numbers": [1: "one", 2: "two"] as [AnyHashable: Any], "long": String(repeating: "x", count: 300),
        ]
        let data = try FoundationArchive.encode(value)
        guard case .value(let decoded?) = FoundationArchive.decode(data), let back = decoded as? [String: Any] else {
            Issue.record("did not decode: \(FoundationArchive.decode(data))")
            return
        }
        #expect(back["text"] as? String == "Café ☕︎")
        #expect(back["int"] as? Int == 42 && back["negative"] as? Int == -7 && back["big"] as? Int == Int(Int64.max))
        #expect(back["real"] as? Double == 2.5 && back["flag"] as? Bool == true)
        #expect(back["date"] as? Date == Date(timeIntervalSinceReferenceDate: 606_519_859.5))
        #expect(back["bytes"] as? Data == Data([0, 1, 2, 255]))
        #expect(back["decimal"] as? Decimal == Decimal(string: "-12.34"))
        #expect(back["large"] as? Decimal == Decimal(string: "123456789012345678901234567890"))
        #expect(back["uuid"] as? UUID == uuid && back["url"] as? URL == URL(string: "https://example.com/a?b=c"))
        #expect(back["null"] is NSNull)
        let list = try #require(back["list"] as? [Any])
        #expect(list.count == 3 && list[0] as? Int == 1 && list[1] as? String == "two")
        #expect((list[2] as? [Any]).map { $0[0] as? Double == 3.5 && $0[1] as? Bool == false } == true)
        #expect(back["set"] as? Set<AnyHashable> == Set<AnyHashable>(["a", "b", 3]))
        #expect((back["numbers"] as? [AnyHashable: Any])?[AnyHashable(2)] as? String == "two")
        #expect((back["long"] as? String)?.count == 300)
        // The same value always gives the same bytes.
        #expect(try FoundationArchive.encode(value) == data)
    }

    @Test("Values of other types are refused by name; bad bytes decode as malformed, never crash")
    func badInput() throws {
        struct Custom {}
        #expect(throws: FoundationArchive.EncodingFailure.self) { try FoundationArchive.encode(Custom()) }
        #expect(throws: FoundationArchive.EncodingFailure.self) { try FoundationArchive.encode(["a": Custom()]) }
        #expect(throws: FoundationArchive.EncodingFailure.self) { try FoundationArchive.encode(Decimal.nan) }
        let valid = try FoundationArchive.encode(["a", "b"])
        var inputs = [Data(), Data("bplist00".utf8), Data([0xFA, 0x17, 0, 1]), valid.prefix(valid.count / 2)]
        for index in stride(from: 8, to: valid.count, by: 3) {
            var damaged = valid
            damaged[index] ^= 0x5A
            inputs.append(damaged)
        }
        for bytes in inputs {
            if case .value(let value) = FoundationArchive.decode(bytes), bytes == valid { #expect(value != nil) }
        }
    }

    @Test("An archive whose arrays share members 40 levels deep (2^40 paths) decodes in linear time")
    func sharedReferencesDecodeOnce() throws {
        // $objects: $null, the class record, then array i holding array i+1 twice.
        let depth = 40
        var objects: [PropertyListObject] = [.string("$null"),
                                             .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray")])])]
        for level in 0..<depth {
            let next: PropertyListObject = level == depth - 1 ? .uid(2 + depth) : .uid(3 + level)
            objects.append(.dictionary(["NS.objects": .array([next, next]), "$class": .uid(1)]))
        }
        objects.append(.string("leaf"))
        let data = BinaryPropertyListWriter.data(.dictionary([
            "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(2)]), "$objects": .array(objects),
        ]))
        let start = Date()
        guard case .value(let value?) = FoundationArchive.decode(data), let root = value as? [Any] else {
            Issue.record("did not decode")
            return
        }
        #expect(root.count == 2)
        #expect(Date().timeIntervalSince(start) < 5, "shared members were decoded once per path")
    }

    @Test("A transformable without a transformer name reads and writes Core Data's archives through the object graph")
    func throughTheObjectGraph() throws {
        let model = ManagedObjectModel {
            Entity("Setting") {
                Attribute("name", .string)
                Attribute("value", .transformable)
                Attribute("secure", .transformable).transformer("NSSecureUnarchiveFromData")
            }
        }
        let url = ScratchStores.url()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let container = try PersistentContainer(model: model, location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let setting = try context.insertNewObject(forEntityName: "Setting")
            try setting.setValue(["colors": ["red", "green"], "count": 2] as [String: Any], forKey: "value")
            try setting.setValue(Date(timeIntervalSinceReferenceDate: 10), forKey: "secure")
            #expect(throws: ObjectAccessError.self) { try setting.setValue(context, forKey: "value") }
            try context.save()
        }
        let raw = try Connection(.file(url.path))
        guard case .blob(let stored)? = try raw.scalar("SELECT ZVALUE FROM ZSETTING") else {
            Issue.record("nothing stored")
            return
        }
        #expect(stored.prefix(8) == Data("bplist00".utf8))
        // An app's own class (the NSNull record renamed, same length) reads as its bytes.
        let foreign = try #require(String(data: try FoundationArchive.encode(NSNull()), encoding: .isoLatin1)?
            .replacingOccurrences(of: "NSNull", with: "MyNote").data(using: .isoLatin1))
        let reader = try PersistentContainer(model: model, location: .file(url)).newBackgroundContext()
        try reader.performAndWait {
            let setting = try #require(try reader.fetch(FetchRequest(entityName: "Setting")).first)
            let value = try #require(setting.value(forKey: "value") as? [String: Any])
            #expect(value["colors"] as? [String] == ["red", "green"] && value["count"] as? Int == 2)
            #expect(setting.value(forKey: "secure") as? Date == Date(timeIntervalSinceReferenceDate: 10))
        }
        try raw.execute("UPDATE ZSETTING SET ZVALUE = ?", [.blob(foreign)])
        let third = try PersistentContainer(model: model, location: .file(url)).newBackgroundContext()
        try third.performAndWait {
            let setting = try #require(try third.fetch(FetchRequest(entityName: "Setting")).first)
            #expect(setting.value(forKey: "value") as? Data == foreign)
        }
    }
}
