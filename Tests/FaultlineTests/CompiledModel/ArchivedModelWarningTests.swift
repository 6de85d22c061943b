// Hand-made keyed archives, written with Foundation's NSKeyedArchiver and
// given Core Data's class name: keys and classes Faultline does not read become
// warnings that name their path in the archive, and a model that contradicts
// itself is an error, not a crash.

import Foundation
import Testing
@testable import Faultline

/// An archived object with the given keys, written under any class name
/// (internal: Foundation names only top-level classes).
final class ArchivedStandIn: NSObject, NSCoding {
    let fields: [String: Any]

    init(_ fields: [String: Any]) { self.fields = fields }

    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        for (key, value) in fields { coder.encode(value, forKey: key) }
    }
}

@Suite("Archived model warnings")
struct ArchivedModelWarningTests {
    private func archive(_ root: ArchivedStandIn) throws -> Data {
        try Self.keyedArchive(root, classNames: [NSStringFromClass(ArchivedStandIn.self): "NSManagedObjectModel"])
    }

    /// A keyed archive of `root` with the stand-ins' class names replaced:
    /// Foundation on Linux ignores `setClassName`, so the names are replaced
    /// in the XML form, which CoreFoundation converts back to a binary plist
    /// with its `CF$UID` references intact.
    static func keyedArchive(_ root: NSObject & NSCoding, classNames: [String: String]) throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        var xml = String(decoding: archiver.encodedData, as: UTF8.self)
        for (standIn, name) in classNames { xml = xml.replacingOccurrences(of: ">\(standIn)<", with: ">\(name)<") }
        let plist = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    @Test("An unknown key on the model is a warning with its path; the archive still reads")
    func unknownModelKey() throws {
        let data = try archive(ArchivedStandIn(["NSEntities": NSDictionary(), "NSMystery": "x"]))
        let version = try CompiledModelReader.model(fromArchive: data, versionName: "Hand", file: "hand.mom")
        #expect(version.model.entities.isEmpty)
        #expect(version.warnings.map(\.path) == ["/NSMystery"], "\(version.warnings)")
        #expect(version.warnings.first?.message.contains("not read by Faultline") == true)
    }

    @Test("An entity that is not an archived object is an error naming its path")
    func wrongEntityClass() throws {
        let data = try archive(ArchivedStandIn(["NSEntities": NSDictionary(dictionary: ["Item": "not an entity"])]))
        #expect { try CompiledModelReader.model(fromArchive: data, versionName: "Hand", file: "hand.mom") } throws: {
            guard let error = $0 as? CompiledModelError else { return false }
            return error.kind == .malformedArchive && error.path == "/NSEntities/Item"
        }
    }
}
