// The keys of one archived object, consumed one by one as `XMLAttributes` does
// for a model file's element: what the decoder does not take is reported by
// `finish`, so no key is dropped silently. A few keys are known and left alone
// by design (`ignoredKeys`), each for the reason noted there.

import Foundation
import FaultlineModel

struct ArchivedFields {
    let object: KeyedArchive.Object
    /// The object's path in the archive (`/NSEntities/Item`).
    let path: String
    private(set) var remaining: [String: PropertyListObject]

    init(_ object: KeyedArchive.Object, path: String) {
        self.object = object
        self.path = path
        var fields = object.fields
        fields["$class"] = nil
        remaining = fields
    }

    mutating func take(_ key: String) -> PropertyListObject? {
        remaining.removeValue(forKey: key)
    }

    /// Keys Core Data writes that carry nothing the model lacks.
    static let ignoredKeys: [String: Set<String>] = [
        // The compiler's version stamp (`.mom` files only).
        "NSManagedObjectModel": ["CDMCompilerToolVersion", "CDMCompilerXcodeVersion"],
        // A back reference, and the inverse of each sub-entity's NSSuperentity.
        "NSEntityDescription": ["NSManagedObjectModel", "NSSubentities"],
        // A back reference, and `_P`, a private flag word whose bits repeat the
        // keyed flags (bit 1 is NSIsOptional in every fixture).
        "NSAttributeDescription": ["NSEntity", "_P"],
        "NSRelationshipDescription": ["NSEntity", "_P"],
    ]
}

extension ArchivedModelDecoder {
    /// Reports every key left over, except the known ones; `NSFlagsKey` only
    /// when it is not 0 (every fixture archives 0).
    mutating func finish(_ fields: ArchivedFields, className: String) {
        let ignored = ArchivedFields.ignoredKeys[className] ?? []
        for key in fields.remaining.keys.sorted() where !ignored.contains(key) {
            if key == "NSFlagsKey", (try? archive.integer(fields.remaining[key])) == 0 { continue }
            warn(fields.path + "/" + key, "key '\(key)' of \(className) is not read by Faultline; it is ignored")
        }
    }

    mutating func warn(_ path: String, _ message: String) {
        warnings.append(ModelFileWarning(file: file, line: 0, column: 0, path: path, message: message))
    }

    /// Runs `body`, turning an archive failure into an error at `path`.
    func attempt<T>(_ path: String, _ body: () throws(KeyedArchive.Failure) -> T) throws(CompiledModelError) -> T {
        do {
            return try body()
        } catch {
            throw CompiledModelError(.malformedArchive, error.message, file: file, path: path)
        }
    }

    /// The object `reference` leads to, which must be a `className`.
    func requireObject(_ reference: PropertyListObject?, className: String, path: String) throws(CompiledModelError) -> KeyedArchive.Object {
        let object = try attempt(path) { () throws(KeyedArchive.Failure) in try archive.object(reference) }
        guard let object, object.className == className else {
            throw CompiledModelError(.notAModel, "expected an \(className), found \(object.map { "an \($0.className)" } ?? "null")",
                                     file: file, path: path)
        }
        return object
    }

    // MARK: - Typed keys

    func string(_ fields: inout ArchivedFields, _ key: String) throws(CompiledModelError) -> String? {
        let reference = fields.take(key)
        return try attempt(fields.path + "/" + key) { () throws(KeyedArchive.Failure) in try archive.string(reference) }
    }

    func bool(_ fields: inout ArchivedFields, _ key: String) throws(CompiledModelError) -> Bool? {
        let reference = fields.take(key)
        return try attempt(fields.path + "/" + key) { () throws(KeyedArchive.Failure) in try archive.bool(reference) }
    }

    /// A count (0 or more) that fits `Int`. `unboundedAs`: a value some
    /// archives write for "no bound" (NSMaxCount -1, NSUIntegerMax read back
    /// signed, in CoreDataPlus's SampleModel2), read as Core Data's 0.
    func count(_ fields: inout ArchivedFields, _ key: String, unboundedAs unbounded: Int64? = nil) throws(CompiledModelError) -> Int? {
        let reference = fields.take(key)
        guard let value = try attempt(fields.path + "/" + key, { () throws(KeyedArchive.Failure) in try archive.integer(reference) }) else { return nil }
        if let unbounded, value == unbounded { return 0 }
        guard value >= 0, let count = Int(exactly: value) else {
            throw CompiledModelError(.notAModel, "\(key) \(value) is not a count", file: file, path: fields.path + "/" + key)
        }
        return count
    }

    /// Core Data archives the name as the renaming identifier of everything
    /// not renamed; Faultline, like the model file, leaves that unset.
    func renamingIdentifier(_ fields: inout ArchivedFields, name: String?) throws(CompiledModelError) -> String? {
        let identifier = try string(&fields, "NSRenamingIdentifier")
        return identifier == name ? nil : identifier
    }

    /// `NSUserInfo`, values as strings (model files only hold strings); nil when empty.
    mutating func userInfo(_ fields: inout ArchivedFields) throws(CompiledModelError) -> [AnyHashable: Any]? {
        let path = fields.path + "/NSUserInfo"
        let reference = fields.take("NSUserInfo")
        let entries = try attempt(path) { () throws(KeyedArchive.Failure) in try archive.dictionary(reference) } ?? []
        var info: [AnyHashable: Any] = [:]
        for (key, value) in entries {
            guard let text = (try? archive.string(value)) ?? nil else {
                warn(path + "/" + key, "user info value for '\(key)' is not a string; it is left out")
                continue
            }
            info[key] = text
        }
        return info.isEmpty ? nil : info
    }
}
