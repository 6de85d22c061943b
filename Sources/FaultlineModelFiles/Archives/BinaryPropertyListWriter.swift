// The writing half of `bplist00`, for keyed archives Faultline writes (the
// values of transformable attributes). Foundation's PropertyListSerialization
// cannot write UID objects, and swift-corelibs-foundation's NSKeyedArchiver
// traps on some Foundation values (an NSDecimalNumber in an NSArray), so the
// format is written here.
//
// Every object is written once, in depth-first order; the top object is object
// 0; dictionary keys are written in sorted order, so the same value always
// gives the same bytes. Integers are big-endian; negative integers take 8
// bytes, as the format requires; strings are ASCII when they can be, UTF-16BE
// otherwise.

import Foundation

enum BinaryPropertyListWriter {
    static func data(_ top: PropertyListObject) -> Data {
        // The reference size depends on the object count: count first.
        let count = objectCount(top)
        let referenceSize = byteCount(for: UInt64(max(count - 1, 0)))
        var objects = [[UInt8]](repeating: [], count: count)
        var pending: [(index: Int, object: PropertyListObject)] = [(0, top)]
        var next = 1
        while let (index, object) = pending.popLast() {
            var children: [PropertyListObject] = []
            objects[index] = encode(object, referenceSize: referenceSize, next: &next, children: &children)
            // The children were numbered consecutively, ending at `next - 1`.
            let first = next - children.count
            for (offset, child) in children.enumerated().reversed() { pending.append((first + offset, child)) }
        }

        var bytes: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let offsetTable = bytes.count
        let offsetSize = byteCount(for: UInt64(offsetTable))
        for offset in offsets { bytes += bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(UInt64(objects.count), size: 8)
        bytes += bigEndian(0, size: 8)
        bytes += bigEndian(UInt64(offsetTable), size: 8)
        return Data(bytes)
    }

    private static func objectCount(_ object: PropertyListObject) -> Int {
        switch object {
        case .array(let members): return 1 + members.reduce(0) { $0 + objectCount($1) }
        case .dictionary(let entries): return 1 + entries.reduce(0) { $0 + 1 + objectCount($1.value) }
        default: return 1
        }
    }

    /// One object's bytes; containers number their members from `next` and
    /// hand them back in `children`, in reference order.
    private static func encode(_ object: PropertyListObject, referenceSize: Int, next: inout Int,
                               children: inout [PropertyListObject]) -> [UInt8] {
        func references(_ members: [PropertyListObject]) -> [UInt8] {
            var bytes: [UInt8] = []
            for member in members {
                bytes += bigEndian(UInt64(next), size: referenceSize)
                next += 1
                children.append(member)
            }
            return bytes
        }
        switch object {
        case .null: return [0x00]
        case .bool(let flag): return [flag ? 0x09 : 0x08]
        case .integer(let value): return integer(value)
        case .real(let value): return [0x23] + bigEndian(value.bitPattern, size: 8)
        case .date(let seconds): return [0x33] + bigEndian(seconds.bitPattern, size: 8)
        case .data(let data): return header(0x4, count: data.count) + [UInt8](data)
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return header(0x5, count: text.utf8.count) + Array(text.utf8) }
            let units = Array(text.utf16)
            return header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .uid(let value):
            let size = byteCount(for: UInt64(value))
            return [0x80 | UInt8(size - 1)] + bigEndian(UInt64(value), size: size)
        case .array(let members):
            return header(0xA, count: members.count) + references(members)
        case .dictionary(let entries):
            let keys = entries.keys.sorted()
            return header(0xD, count: keys.count) + references(keys.map { .string($0) })
                + references(keys.map { entries[$0] ?? .null })
        }
    }

    private static func integer(_ value: Int64) -> [UInt8] {
        if value < 0 { return [0x13] + bigEndian(UInt64(bitPattern: value), size: 8) }
        let size = byteCount(for: UInt64(value))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        return [0x10 | exponent] + bigEndian(UInt64(value), size: 1 << Int(exponent))
    }

    /// A marker with its count, the count as a following integer from 15 on.
    private static func header(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F] + integer(Int64(count))
    }

    private static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
