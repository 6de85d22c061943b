// A reader for Apple's binary property list format, `bplist00`, as far as keyed
// archives use it. Written here rather than taken from Foundation because
// keyed archives depend on UID objects (marker 0x8n), which must come back as
// references, and because every offset in the file is untrusted.
//
// Layout: "bplist00", the objects, an offset table, and a 32-byte trailer
// (6 unused bytes, offset size, reference size, object count, top object,
// offset-table position; integers big-endian).
//
// Invariants.
//  1. Every read is bounds-checked; a bad offset, size, count or marker throws
//     `Failure`, never traps.
//  2. Each object is parsed once (memoised by index), so shared references cost
//     nothing extra; a reference back into an object being parsed is a cycle and
//     an error, as is nesting deeper than `maximumDepth`.
//  3. Each object's size with its shared references expanded is counted, and
//     a list over the caller's `maximumValues` is refused: one array referred
//     to twice at each level doubles per level, and a caller walking the
//     result as a tree would never finish.

import Foundation
import FaultlineModel

/// A value of a binary property list.
indirect enum PropertyListObject: Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archive's reference into `$objects` (`CF$UID`).
    case uid(Int)
    /// Arrays and sets alike.
    case array([PropertyListObject])
    /// Keyed archives only use string keys.
    case dictionary([String: PropertyListObject])
}

struct BinaryPropertyList {
    enum Failure: Error, Equatable {
        case malformed(String)
    }

    /// Far deeper than a keyed archive nests (it refers by UID, not by nesting).
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    private let top: Int
    private let maximumValues: Int
    /// By object index: each parsed object with its number of values, shared
    /// references expanded, and the objects being parsed. Arrays of the
    /// object count, allocated once, rather than tables grown as objects parse.
    private var parsed: [(value: PropertyListObject, values: Int)?]
    private var inProgress: [Bool]

    /// Parses `data` and returns its top object.
    ///
    /// - Complexity: linear in the size of the data.
    static func parse(_ data: Data, maximumValues: Int = .max) throws(Failure) -> PropertyListObject {
        var reader = try BinaryPropertyList(bytes: [UInt8](data), maximumValues: maximumValues)
        return try reader.object(reader.top, depth: 0).value
    }

    private init(bytes: [UInt8], maximumValues: Int) throws(Failure) {
        // Halved so that a collection's running total cannot overflow.
        self.maximumValues = min(maximumValues, Int.max / 2)
        let header: [UInt8] = Array("bplist00".utf8)
        guard bytes.count >= header.count + 32, bytes.starts(with: header) else {
            throw .malformed("not a binary property list (no bplist00 header, or shorter than its trailer)")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = try Self.unsigned(bytes, at: trailer + 8, size: 8)
        top = try Self.unsigned(bytes, at: trailer + 16, size: 8)
        let tableStart = try Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw .malformed("offset size \(offsetSize) or reference size \(referenceSize) is not 1 to 8 bytes")
        }
        // Each object takes at least one byte, each table entry `offsetSize`.
        guard count >= 1, count <= trailer, top < count, tableStart >= header.count,
              tableStart <= trailer, (trailer - tableStart) / offsetSize >= count else {
            throw .malformed("the trailer's object count, top object or offset table does not fit the file")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let offset = try Self.unsigned(bytes, at: tableStart + index * offsetSize, size: offsetSize)
            guard offset >= header.count, offset < tableStart else {
                throw .malformed("object \(index) starts outside the object area")
            }
            offsets.append(offset)
        }
        self.offsets = offsets
        parsed = Array(repeating: nil, count: count)
        inProgress = Array(repeating: false, count: count)
    }

    // MARK: - Objects

    private mutating func object(_ index: Int, depth: Int) throws(Failure) -> (value: PropertyListObject, values: Int) {
        guard index >= 0, index < offsets.count else { throw .malformed("reference \(index) is past the last object") }
        if let done = parsed[index] { return done }
        guard depth <= Self.maximumDepth else { throw .malformed("objects nest deeper than \(Self.maximumDepth) levels") }
        guard !inProgress[index] else { throw .malformed("object \(index) contains itself") }
        inProgress[index] = true
        let value = try decode(at: offsets[index], depth: depth)
        inProgress[index] = false
        parsed[index] = value
        return value
    }

    private mutating func decode(at offset: Int, depth: Int) throws(Failure) -> (value: PropertyListObject, values: Int) {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return (.null, 1)
            case 0x08: return (.bool(false), 1)
            case 0x09: return (.bool(true), 1)
            default: throw .malformed("unknown marker 0x\(String(marker, radix: 16)) at \(offset)")
            }
        case 0x1:
            return (.integer(try integer(at: offset + 1, size: 1 << low)), 1)
        case 0x2:
            return (.real(try real(at: offset + 1, size: 1 << low)), 1)
        case 0x3:
            guard marker == 0x33 else { throw .malformed("unknown date marker at \(offset)") }
            return (.date(try real(at: offset + 1, size: 8)), 1)
        case 0x4:
            let (count, start) = try length(low, at: offset)
            return (.data(Data(try slice(start, count))), 1)
        case 0x5:
            let (count, start) = try length(low, at: offset)
            let ascii = try slice(start, count)
            guard ascii.allSatisfy({ $0 < 0x80 }) else { throw .malformed("ASCII string at \(offset) holds non-ASCII bytes") }
            return (.string(String(decoding: ascii, as: UTF8.self)), 1)
        case 0x6:
            let (count, start) = try length(low, at: offset)
            let (units, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw .malformed("string length at \(offset) overflows") }
            let raw = try slice(start, units)
            let codeUnits = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            return (.string(String(decoding: codeUnits, as: UTF16.self)), 1)
        case 0x8:
            return (.uid(try Self.unsigned(bytes, at: offset + 1, size: low + 1)), 1)
        case 0xA, 0xC:
            let (count, start) = try length(low, at: offset)
            var items: [PropertyListObject] = []
            var values = 1
            for reference in try references(start, count) {
                let item = try object(reference, depth: depth + 1)
                items.append(item.value)
                values = try counted(values, item.values)
            }
            return (.array(items), values)
        case 0xD:
            let (count, start) = try length(low, at: offset)
            let (keysSize, overflow) = count.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw .malformed("dictionary size at \(offset) overflows") }
            let keys = try references(start, count)
            let references = try references(start + keysSize, count)
            var entries = [String: PropertyListObject](minimumCapacity: count)
            var values = 1
            for (key, reference) in zip(keys, references) {
                guard case .string(let name) = try object(key, depth: depth + 1).value else {
                    throw .malformed("dictionary at \(offset) has a key that is not a string")
                }
                let item = try object(reference, depth: depth + 1)
                entries[name] = item.value
                values = try counted(values, 1 + item.values)
            }
            return (.dictionary(entries), values)
        default:
            throw .malformed("unknown marker 0x\(String(marker, radix: 16)) at \(offset)")
        }
    }

    /// A collection's running count of values plus one item's.
    private func counted(_ total: Int, _ item: Int) throws(Failure) -> Int {
        let sum = total + item
        guard sum <= maximumValues else {
            throw .malformed("the list holds more than \(maximumValues) values once its shared references are expanded")
        }
        return sum
    }

    // MARK: - Primitive reads

    /// A count in the marker's low nibble, or (0xF) in the integer object after it.
    private func length(_ low: Int, at offset: Int) throws(Failure) -> (count: Int, start: Int) {
        guard low == 0xF else { return (low, offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else {
            throw .malformed("the length of the object at \(offset) is not an integer")
        }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        let count = try integer(at: offset + 2, size: size)
        guard count >= 0, count <= bytes.count else { throw .malformed("the length of the object at \(offset) does not fit the file") }
        return (Int(count), offset + 2 + size)
    }

    private func slice(_ start: Int, _ count: Int) throws(Failure) -> ArraySlice<UInt8> {
        guard start >= 0, count >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw .malformed("\(count) bytes at \(start) run past the end of the file")
        }
        return bytes[start..<start + count]
    }

    private func references(_ start: Int, _ count: Int) throws(Failure) -> [Int] {
        let (size, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw .malformed("a collection of \(count) objects overflows") }
        _ = try slice(start, size)
        var result: [Int] = []
        for index in 0..<count { result.append(try Self.unsigned(bytes, at: start + index * referenceSize, size: referenceSize)) }
        return result
    }

    /// Integers of 1, 2 and 4 bytes are unsigned, of 8 bytes signed; 16-byte
    /// integers are accepted when they fit 64 bits.
    private func integer(at offset: Int, size: Int) throws(Failure) -> Int64 {
        let raw = try slice(offset, size)
        switch size {
        case 1, 2, 4: return Int64(try Self.unsigned(bytes, at: offset, size: size))
        case 8: return Int64(bitPattern: raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        case 16:
            guard raw.prefix(8).allSatisfy({ $0 == 0 }) else { throw .malformed("128-bit integer at \(offset) does not fit 64 bits") }
            return Int64(bitPattern: raw.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        default: throw .malformed("an integer of \(size) bytes at \(offset)")
        }
    }

    private func real(at offset: Int, size: Int) throws(Failure) -> Double {
        let raw = try slice(offset, size)
        let bits = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch size {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case 8: return Double(bitPattern: bits)
        default: throw .malformed("a real of \(size) bytes at \(offset)")
        }
    }

    /// A big-endian unsigned integer of `size` (1 to 8) bytes, as an index or count.
    private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) throws(Failure) -> Int {
        guard offset >= 0, size >= 1, size <= 8, offset <= bytes.count, size <= bytes.count - offset else {
            throw .malformed("\(size) bytes at \(offset) run past the end of the file")
        }
        let value = bytes[offset..<offset + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw .malformed("an index at \(offset) is out of range") }
        return Int(value)
    }
}
