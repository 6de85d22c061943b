/// A row's to-one destinations by relationship index, as IDs (nil where there
/// is none, or where the relationship is to-many).
///
/// A window on storage shared by the rows one statement decodes: an array per
/// row was one small allocation per row of every entity with a to-one, and
/// the fresh heap pages those touch cost more than the instructions the
/// windows add (a prefetch of 100,000 books: 2.31–2.37x the raw loop with an
/// array per row, 2.12–2.19x with windows, for 1.8 % more instructions;
/// mallocs per row 3.02 → 2.03). The storage is written only while its
/// statement decodes, before any snapshot leaves the decoding thread, and is
/// read-only after:
/// hence `@unchecked Sendable` (`ManagedBuffer` is never `Sendable`). A chunk
/// lives as long as any of its rows' snapshots (in the row cache or an
/// object): at most 4,096 rows' keys kept for one.
public struct ToOneKeys: RandomAccessCollection, @unchecked Sendable {
    private let chunk: ToOneChunk?
    private let offset: Int32
    private let length: Int32

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(length) }

    public subscript(index: Int) -> ManagedObjectID? {
        precondition(index >= 0 && index < Int(length), "to-one index out of range")
        guard let chunk else { return nil }
        return chunk.withUnsafeMutablePointerToElements { $0[Int(offset) &+ index] }
    }

    /// No to-ones.
    public static var none: ToOneKeys { ToOneKeys(chunk: nil, offset: 0, length: 0) }

    fileprivate init(chunk: ToOneChunk?, offset: Int, length: Int) {
        self.chunk = chunk
        self.offset = Int32(truncatingIfNeeded: offset)
        self.length = Int32(truncatingIfNeeded: length)
    }

    /// Fills key `index` of a window from `ToOneArena`, while its statement
    /// decodes (never after the snapshot is published).
    @inline(__always)
    func set(_ id: ManagedObjectID, at index: Int) {
        precondition(index >= 0 && index < Int(length), "to-one index out of range")
        chunk?.withUnsafeMutablePointerToElements { $0[Int(offset) &+ index] = id }
    }
}

/// Storage for the to-one keys of many rows.
final class ToOneChunk: ManagedBuffer<ToOneChunk.Header, ManagedObjectID?> {
    struct Header {
        /// Slots handed out, all of them initialised.
        var used: Int
        /// Slots asked for: `ManagedBuffer.capacity` asks the allocator for
        /// the block's size on every call, a cost per row.
        let capacity: Int
    }

    static func make(capacity: Int) -> ToOneChunk {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in Header(used: 0, capacity: capacity) }, to: ToOneChunk.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, keys in keys.deinitialize(count: header.pointee.used) }
    }
}

/// Hands out the to-one windows of the rows one statement decodes, in chunks
/// that never move: small first (a fault's one row), doubling to a bound.
struct ToOneArena {
    private static let largestChunk = 4096
    private var chunk: ToOneChunk?
    /// Windows the next chunk is sized for.
    private var nextCapacity = 4

    /// A window of `count` keys, key `index` being `key(index)`; none when
    /// `count` is 0.
    @inline(__always)
    mutating func keys(_ count: Int, _ key: (Int) -> ManagedObjectID?) -> ToOneKeys {
        guard count > 0 else { return .none }
        let window = window(count: count)
        for index in 0..<count { if let id = key(index) { window.set(id, at: index) } }
        return window
    }

    /// A window of `count` keys, all nil, for `ToOneKeys.set` to fill.
    @inline(__always)
    mutating func window(count: Int) -> ToOneKeys {
        if let chunk, chunk.header.used &+ count <= chunk.header.capacity {
            return take(count, from: chunk)
        }
        let made = ToOneChunk.make(capacity: Swift.max(nextCapacity * count, count))
        nextCapacity = Swift.min(nextCapacity * 2, Self.largestChunk)
        chunk = made
        return take(count, from: made)
    }

    @inline(__always)
    private func take(_ count: Int, from chunk: ToOneChunk) -> ToOneKeys {
        let offset = chunk.withUnsafeMutablePointers { header, keys in
            let offset = header.pointee.used
            (keys + offset).initialize(repeating: nil, count: count)
            header.pointee.used = offset &+ count
            return offset
        }
        return ToOneKeys(chunk: chunk, offset: offset, length: count)
    }
}
