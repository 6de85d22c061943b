// Foundation's value classes in a keyed archive, both ways: what Core Data's
// default transformer (`NSSecureUnarchiveFromData`, and `NSKeyedUnarchiveFromData`
// before iOS 12) stores for a transformable attribute without a transformer of
// the app's own.
//
// Read: strings, numbers and booleans (inline), `NSDate`, `NSData`,
// `NSDecimalNumber`, `NSUUID`, `NSURL`, `NSArray`, `NSDictionary`, `NSSet`,
// `NSNull` and their mutable forms, as Swift values: `String`, `Int`, `Double`,
// `Bool`, `Date`, `Data`, `Decimal`, `UUID`, `URL`, `[Any]`, `[String: Any]`
// (`[AnyHashable: Any]` when a key is not a string), `Set<AnyHashable>`,
// `NSNull`. Any other class (an app's own, CloudKit's) is named, not guessed at.
//
// Written: the same values, as Darwin's NSKeyedArchiver writes them
// (`$version` 100000, class records with their superclass chains), so Core
// Data's secure unarchiver, which allows exactly these classes, reads them.

import Foundation

public enum FoundationArchive {
    /// What an archive decodes to.
    public enum Decoded {
        /// The root value; nil for an archive of nil.
        case value(Any?)
        /// The archive holds an object of a class this reader does not decode.
        case unsupportedClass(String)
        /// Not a readable keyed archive (another format, or damaged).
        case malformed(String)
    }

    /// Why a value cannot be archived.
    public struct EncodingFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The classes read and written, with the superclass chains written for them.
    static let classChains: [String: [String]] = [
        "NSDate": ["NSDate", "NSObject"], "NSArray": ["NSArray", "NSObject"],
        "NSDictionary": ["NSDictionary", "NSObject"], "NSSet": ["NSSet", "NSObject"],
        "NSNull": ["NSNull", "NSObject"], "NSUUID": ["NSUUID", "NSObject"], "NSURL": ["NSURL", "NSObject"],
        "NSDecimalNumber": ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
    ]

    /// How every keyed archive begins (`bplist00`).
    public static let binaryPropertyListHeader = Data("bplist00".utf8)

    /// Archives decode at most this deep (arrays of dictionaries of …).
    static let maximumDepth = 64

    // MARK: - Decoding

    public static func decode(_ data: Data) -> Decoded {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(BinaryPropertyList.parse(data))
        } catch let failure as KeyedArchive.Failure {
            return .malformed(failure.message)
        } catch {
            return .malformed("not a binary property list")
        }
        do {
            var reader = Reader(archive: archive)
            return .value(try reader.value(archive.root, depth: 0))
        } catch let failure as Reader.Unsupported {
            return .unsupportedClass(failure.className)
        } catch let failure as KeyedArchive.Failure {
            return .malformed(failure.message)
        } catch {
            return .malformed("\(error)")
        }
    }

    private struct Reader {
        struct Unsupported: Error { let className: String }

        let archive: KeyedArchive
        /// Objects being decoded: a reference back to one is a cycle, which no
        /// Swift value holds.
        var visiting: Set<Int> = []
        /// Objects decoded, by uid: an object referred to many times is
        /// decoded once (a crafted archive of shared references would
        /// otherwise cost exponential time).
        var decoded: [Int: Any?] = [:]

        mutating func value(_ reference: PropertyListObject, depth: Int) throws -> Any? {
            guard depth < FoundationArchive.maximumDepth else { throw KeyedArchive.Failure("nested deeper than \(FoundationArchive.maximumDepth)") }
            switch try archive.resolve(reference) {
            case .null: return nil
            case .string(let text): return text
            case .integer(let number): return Int(number)
            case .real(let number): return number
            case .bool(let flag): return flag
            case .data(let bytes): return bytes
            case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
            case .uid, .array: throw KeyedArchive.Failure("expected an object, found a reference or array")
            case .dictionary: break
            }
            guard let object = try archive.object(reference) else { return nil }
            if let known = decoded[object.uid] { return known }
            guard !visiting.contains(object.uid) else { throw KeyedArchive.Failure("object \(object.uid) contains itself") }
            visiting.insert(object.uid)
            defer { visiting.remove(object.uid) }
            let value = try decode(object, reference: reference, depth: depth)
            decoded[object.uid] = value
            return value
        }

        private mutating func decode(_ object: KeyedArchive.Object, reference: PropertyListObject, depth: Int) throws -> Any? {
            switch object.className {
            case "NSArray", "NSMutableArray":
                return try (archive.collection(reference) ?? []).map { try value($0, depth: depth + 1) ?? NSNull() }
            case "NSSet", "NSMutableSet":
                var members = Set<AnyHashable>()
                for member in try archive.collection(reference) ?? [] {
                    guard let hashable = try value(member, depth: depth + 1) as? AnyHashable else {
                        throw KeyedArchive.Failure("a set member is not hashable")
                    }
                    members.insert(hashable)
                }
                return members
            case "NSDictionary", "NSMutableDictionary":
                guard case .array(let keys)? = object.fields["NS.keys"], case .array(let values)? = object.fields["NS.objects"],
                      keys.count == values.count else {
                    throw KeyedArchive.Failure("an \(object.className) has no matching NS.keys and NS.objects")
                }
                var entries: [AnyHashable: Any] = [:]
                for (key, member) in zip(keys, values) {
                    guard let hashable = try value(key, depth: depth + 1) as? AnyHashable else {
                        throw KeyedArchive.Failure("a dictionary key is not hashable")
                    }
                    entries[hashable] = try value(member, depth: depth + 1) ?? NSNull()
                }
                if entries.keys.allSatisfy({ $0.base is String }) {
                    return Dictionary(uniqueKeysWithValues: entries.map { (($0.key.base as? String) ?? "", $0.value) })
                }
                return entries
            case "NSNull":
                return NSNull()
            case "NSString", "NSMutableString", "NSDate", "NSData", "NSMutableData", "NSDecimalNumber",
                 "NSDecimalNumberPlaceholder", "NSUUID", "NSURL":
                switch try archive.scalar(reference) {
                case .string(let text)?: return text
                case .date(let date)?: return date
                case .data(let bytes)?: return bytes
                case .decimal(let number)?: return number
                case .uuid(let uuid)?: return uuid
                case .url(let url)?: return url
                default: throw Unsupported(className: object.className)
                }
            default:
                throw Unsupported(className: object.className)
            }
        }
    }

    // MARK: - Encoding

    /// The keyed archive of `value`, as Darwin's NSKeyedArchiver writes it.
    ///
    /// - Throws: `EncodingFailure` naming the first value of another type.
    public static func encode(_ value: Any) throws(EncodingFailure) -> Data {
        var writer = Writer()
        let root = try writer.add(value, depth: 0)
        let archive: PropertyListObject = .dictionary([
            "$version": .integer(100_000),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(root)]),
            "$objects": .array(writer.objects),
        ])
        return BinaryPropertyListWriter.data(archive)
    }

    private struct Writer {
        var objects: [PropertyListObject] = [.string("$null")]
        var classes: [String: Int] = [:]

        mutating func add(_ value: Any, depth: Int) throws(EncodingFailure) -> Int {
            guard depth < FoundationArchive.maximumDepth else {
                throw EncodingFailure(description: "the value nests deeper than \(FoundationArchive.maximumDepth)")
            }
            if type(of: value) == Bool.self, let flag = value as? Bool { return append(.bool(flag)) }
            switch value {
            case let text as String: return append(.string(text))
            case let number as Int: return append(.integer(Int64(number)))
            case let number as Int64: return append(.integer(number))
            case let number as Int32: return append(.integer(Int64(number)))
            case let number as Int16: return append(.integer(Int64(number)))
            case let number as Int8: return append(.integer(Int64(number)))
            case let number as UInt8: return append(.integer(Int64(number)))
            case let number as UInt16: return append(.integer(Int64(number)))
            case let number as UInt32: return append(.integer(Int64(number)))
            case let number as Double: return append(.real(number))
            case let number as Float: return append(.real(Double(number)))
            case let bytes as Data: return append(.data(bytes))
            case let date as Date:
                return try object("NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
            case let uuid as UUID:
                return try object("NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
            case let url as URL:
                let relative = append(.string(url.absoluteString))
                return try object("NSURL", ["NS.base": .uid(0), "NS.relative": .uid(relative)])
            case let number as Decimal:
                return try object("NSDecimalNumber", try Self.decimalFields(number))
            case is NSNull:
                return try object("NSNull", [:])
            case let members as [Any]:
                var references: [PropertyListObject] = []
                for member in members { references.append(.uid(try add(member, depth: depth + 1))) }
                return try object("NSArray", ["NS.objects": .array(references)])
            case let members as Set<AnyHashable>:
                var references: [PropertyListObject] = []
                for member in members.sorted(by: { "\($0)" < "\($1)" }) {
                    references.append(.uid(try add(member.base, depth: depth + 1)))
                }
                return try object("NSSet", ["NS.objects": .array(references)])
            case let entries as [AnyHashable: Any]:
                var keys: [PropertyListObject] = []
                var values: [PropertyListObject] = []
                for (key, member) in entries.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                    keys.append(.uid(try add(key.base, depth: depth + 1)))
                    values.append(.uid(try add(member, depth: depth + 1)))
                }
                return try object("NSDictionary", ["NS.keys": .array(keys), "NS.objects": .array(values)])
            default:
                throw EncodingFailure(description: "a \(type(of: value)) is not one of the Foundation values Core Data's default transformer archives")
            }
        }

        private mutating func append(_ object: PropertyListObject) -> Int {
            objects.append(object)
            return objects.count - 1
        }

        private mutating func object(_ className: String, _ fields: [String: PropertyListObject]) throws(EncodingFailure) -> Int {
            let classReference: Int
            if let known = classes[className] {
                classReference = known
            } else {
                let chain = FoundationArchive.classChains[className] ?? [className, "NSObject"]
                classReference = append(.dictionary(["$classname": .string(className), "$classes": .array(chain.map { .string($0) })]))
                classes[className] = classReference
            }
            var fields = fields
            fields["$class"] = .uid(classReference)
            return append(.dictionary(fields))
        }

        /// `NSDecimal`'s archived fields: eight little-endian 16-bit mantissa
        /// words (least significant first), the number used, exponent and sign.
        static func decimalFields(_ number: Decimal) throws(EncodingFailure) -> [String: PropertyListObject] {
            guard !number.isNaN else { throw EncodingFailure(description: "NaN is not an archivable decimal") }
            var words: [UInt16] = []
            // The significand's decimal digits, converted to base 65536.
            var digits = "\(number.significand)".compactMap { $0.wholeNumberValue }
            while !(digits.isEmpty || digits.allSatisfy { $0 == 0 }) {
                var remainder = 0
                var quotient: [Int] = []
                for digit in digits {
                    let current = remainder * 10 + digit
                    quotient.append(current / 65536)
                    remainder = current % 65536
                }
                words.append(UInt16(remainder))
                digits = Array(quotient.drop { $0 == 0 })
            }
            guard words.count <= 8 else { throw EncodingFailure(description: "\(number) has more digits than NSDecimal holds") }
            var mantissa = Data()
            for index in 0..<8 {
                let word = index < words.count ? words[index] : 0
                mantissa.append(UInt8(word & 0xFF))
                mantissa.append(UInt8(word >> 8))
            }
            return [
                "NS.mantissa": .data(mantissa), "NS.mantissa.bo": .integer(1), "NS.exponent": .integer(Int64(number.exponent)),
                "NS.length": .integer(Int64(words.count)), "NS.negative": .bool(number.sign == .minus && !words.isEmpty),
                "NS.compact": .bool(true),
            ]
        }
    }
}
