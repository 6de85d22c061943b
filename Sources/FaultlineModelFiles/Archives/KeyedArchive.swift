// An NSKeyedArchiver archive read back without Objective-C: the property list's
// `$objects` array, `$top.root`, and `CF$UID` references between them. Objects
// are not materialised (the model's graph is cyclic: entity → model → entity);
// the decoder walks references and asks for typed values one key at a time.
//
// Foundation's value classes are read by their archived keys: strings inline or
// `NS.string`; arrays and sets `NS.objects`; dictionaries `NS.keys` with
// `NS.objects`, and Core Data's `NSKnownKeysDictionary1` (`values` beside
// `searchMapping.keys`); `NSDate` `NS.time`; `NSData` inline or `NS.data`;
// `NSDecimalNumber` as its mantissa words, exponent and sign; `NSUUID`
// `NS.uuidbytes`; `NSURL` `NS.base` plus `NS.relative`.

import Foundation
import FaultlineModel

struct KeyedArchive {
    /// What is wrong, without a path: the decoder knows where it asked.
    struct Failure: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// One archived object: its class and its keyed fields.
    struct Object {
        let uid: Int
        let className: String
        let fields: [String: PropertyListObject]
    }

    private let objects: [PropertyListObject]
    let root: PropertyListObject

    init(_ plist: PropertyListObject) throws(Failure) {
        guard case .dictionary(let archive) = plist else { throw Failure("the property list is not a dictionary") }
        guard case .array(let objects)? = archive["$objects"] else { throw Failure("there is no $objects array") }
        guard case .dictionary(let top)? = archive["$top"], let root = top["root"] else { throw Failure("there is no $top.root") }
        if let archiver = archive["$archiver"], archiver != .string("NSKeyedArchiver") {
            throw Failure("the archiver is not NSKeyedArchiver")
        }
        self.objects = objects
        self.root = root
    }

    // MARK: - References

    /// The value `reference` stands for: a `CF$UID` followed into `$objects`
    /// (`$null` becomes `.null`), anything else itself.
    func resolve(_ reference: PropertyListObject) throws(Failure) -> PropertyListObject {
        guard case .uid(let uid) = reference else { return reference }
        guard uid < objects.count else { throw Failure("reference \(uid) is past the last of \(objects.count) objects") }
        if uid == 0, objects[0] == .string("$null") { return .null }
        return objects[uid]
    }

    /// The object `reference` leads to, nil for `$null`.
    func object(_ reference: PropertyListObject?) throws(Failure) -> Object? {
        guard let reference else { return nil }
        let value = try resolve(reference)
        if value == .null { return nil }
        guard case .uid(let uid) = reference, case .dictionary(let fields) = value, let classReference = fields["$class"] else {
            throw Failure("expected an archived object, found \(Self.describe(value))")
        }
        guard case .dictionary(let classInfo) = try resolve(classReference),
              case .string(let className)? = classInfo["$classname"] else {
            throw Failure("object \(uid) has no $classname")
        }
        return Object(uid: uid, className: className, fields: fields)
    }

    // MARK: - Foundation values

    /// An `NSString` (inline) or `NSMutableString` (`NS.string`); nil for `$null`.
    func string(_ reference: PropertyListObject?) throws(Failure) -> String? {
        guard let reference else { return nil }
        switch try resolve(reference) {
        case .null: return nil
        case .string(let text): return text
        default:
            guard let object = try object(reference), case .string(let text)? = try object.fields["NS.string"].map(resolve) else {
                throw Failure("expected a string, found \(Self.describe(try resolve(reference)))")
            }
            return text
        }
    }

    /// The members of an `NSArray`, `NSSet`, `NSOrderedSet` or their mutable
    /// forms, as references; nil for `$null`.
    func collection(_ reference: PropertyListObject?) throws(Failure) -> [PropertyListObject]? {
        guard let object = try object(reference) else { return nil }
        guard case .array(let members)? = object.fields["NS.objects"] else {
            throw Failure("a \(object.className) has no NS.objects")
        }
        return members
    }

    /// The entries of an `NSDictionary`, its mutable form or Core Data's
    /// `NSKnownKeysDictionary1`, keys resolved to strings, values as
    /// references; nil for `$null`.
    func dictionary(_ reference: PropertyListObject?) throws(Failure) -> [(key: String, value: PropertyListObject)]? {
        guard let object = try object(reference) else { return nil }
        let keys: [PropertyListObject]
        let values: [PropertyListObject]
        if object.className == "NSKnownKeysDictionary1" {
            let mapping = try self.object(object.fields["searchMapping"])
            guard let mapped = try collection(mapping?.fields["keys"]), let stored = try collection(object.fields["values"]) else {
                throw Failure("an NSKnownKeysDictionary1 has no searchMapping keys or no values")
            }
            keys = mapped
            values = stored
        } else {
            guard case .array(let archivedKeys)? = object.fields["NS.keys"], case .array(let archivedValues)? = object.fields["NS.objects"] else {
                throw Failure("a \(object.className) has no NS.keys and NS.objects")
            }
            keys = archivedKeys
            values = archivedValues
        }
        guard keys.count == values.count else { throw Failure("a \(object.className) has \(keys.count) keys and \(values.count) values") }
        var entries: [(key: String, value: PropertyListObject)] = []
        for (key, value) in zip(keys, values) {
            guard let name = try string(key) else { throw Failure("a \(object.className) has a null key") }
            entries.append((name, value))
        }
        return entries
    }

    /// A boolean stored as a plist boolean or integer (absent: nil).
    func bool(_ reference: PropertyListObject?) throws(Failure) -> Bool? {
        guard let reference else { return nil }
        switch try resolve(reference) {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case .null: return nil
        case let other: throw Failure("expected a boolean, found \(Self.describe(other))")
        }
    }

    /// An integer (absent: nil).
    func integer(_ reference: PropertyListObject?) throws(Failure) -> Int64? {
        guard let reference else { return nil }
        switch try resolve(reference) {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .null: return nil
        case let other: throw Failure("expected an integer, found \(Self.describe(other))")
        }
    }

    /// A Foundation scalar: what `NSDefaultValue` and constant expressions hold.
    enum Scalar: Equatable {
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case string(String)
        case date(Date)
        case data(Data)
        case decimal(Decimal)
        case uuid(UUID)
        case url(URL)
        /// An object of a class Foundation's values do not cover (an app's own
        /// class), named so the caller can say what it met.
        case archivedObject(className: String)
    }

    /// The scalar `reference` leads to, nil for `$null`.
    func scalar(_ reference: PropertyListObject?) throws(Failure) -> Scalar? {
        guard let reference else { return nil }
        switch try resolve(reference) {
        case .null: return nil
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(bytes)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid, .array: throw Failure("expected a value, found a reference or array")
        case .dictionary: break
        }
        guard let object = try object(reference) else { return nil }
        switch object.className {
        case "NSString", "NSMutableString":
            return try string(reference).map { .string($0) }
        case "NSDate":
            guard case .real(let seconds)? = try object.fields["NS.time"].map(resolve) else { throw Failure("an NSDate has no NS.time") }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case "NSData", "NSMutableData":
            guard case .data(let bytes)? = try object.fields["NS.data"].map(resolve) else { throw Failure("an NSData has no NS.data") }
            return .data(bytes)
        case "NSDecimalNumberPlaceholder", "NSDecimalNumber":
            return .decimal(try decimal(object))
        case "NSUUID":
            guard case .data(let bytes)? = try object.fields["NS.uuidbytes"].map(resolve), bytes.count == 16 else {
                throw Failure("an NSUUID has no 16 NS.uuidbytes")
            }
            let b = [UInt8](bytes)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case "NSURL":
            let base = try string(object.fields["NS.base"]).flatMap { URL(string: $0) }
            guard let relative = try string(object.fields["NS.relative"]), let url = URL(string: relative, relativeTo: base) else {
                throw Failure("an NSURL has no readable NS.relative")
            }
            return .url(url.absoluteURL)
        default:
            return .archivedObject(className: object.className)
        }
    }

    /// `NSDecimal`'s fields: up to eight 16-bit mantissa words (`NS.mantissa`,
    /// least significant first, little-endian when `NS.mantissa.bo` is 1), of
    /// which `NS.length` are used, `NS.exponent` and `NS.negative`.
    private func decimal(_ object: Object) throws(Failure) -> Decimal {
        guard case .data(let mantissa)? = try object.fields["NS.mantissa"].map(resolve),
              let length = try integer(object.fields["NS.length"]), let exponent = try integer(object.fields["NS.exponent"]),
              (0...8).contains(length), mantissa.count >= Int(length) * 2, (-128...127).contains(exponent) else {
            throw Failure("an NSDecimalNumber has no readable mantissa, length and exponent")
        }
        let littleEndian = try integer(object.fields["NS.mantissa.bo"]) ?? 1 == 1
        let bytes = [UInt8](mantissa)
        var significand = Decimal(0)
        for word in (0..<Int(length)).reversed() {
            let first = UInt16(bytes[word * 2]), second = UInt16(bytes[word * 2 + 1])
            significand = significand * 65536 + Decimal(littleEndian ? second << 8 | first : first << 8 | second)
        }
        let negative = try bool(object.fields["NS.negative"]) ?? false
        return Decimal(sign: negative ? .minus : .plus, exponent: Int(exponent), significand: significand)
    }

    static func describe(_ value: PropertyListObject) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .real: "a real"
        case .date: "a date"
        case .data: "data"
        case .string: "a string"
        case .uid: "a reference"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }
}
