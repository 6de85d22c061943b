/// A row's to-one destinations by relationship index, as IDs (nil where there
/// is none, or where the relationship is to-many).
///
/// A window on storage shared by the rows one statement decodes: an array per
/// row was one small allocation per row of every entity with a to-one, and
/// the fresh heap pages those touch cost more than the instructions the
/// windows add (a prefetch of 100,000 books: 2.31–2.37x the raw loop with an
/// array per row, 2.12–2.19x with windows, for 1.8 % more instructions;
/// mallocs per row 3.02 → 2.03). The storage is written only while its statement decodes,
/// before any snapshot leaves the decoding thread, and is read-only after:
/// hence `@unchecked Sendable` (`ManagedBuffer` is never `Sendable`).
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

    /// Keys of their own (a saved row's).
    init(_ keys: [ManagedObjectID?]) {
        guard !keys.isEmpty else {
            self.init(chunk: nil, offset: 0, length: 0)
            return
        }
        var arena = ToOneArena(firstChunkWindows: 1)
        self = arena.window(count: keys.count)
        for (index, key) in keys.enumerated() { if let key { set(key, at: index) } }
    }

    /// Fills key `index` of a window from `ToOneArena`, while its statement
    /// decodes (never after the snapshot is published).
    @inline(__always)
    func set(_ id: ManagedObjectID, at index: Int) {
        precondition(index >= 0 && index < Int(length), "to-one index out of range")
        chunk?.withUnsafeMutablePointerToElements { $0[Int(offset) &+ index] = id }
    }
}

/// Storage for the to-one keys of many rows; the header counts the slots
/// handed out, all of them initialised.
final class ToOneChunk: ManagedBuffer<Int, ManagedObjectID?> {
    static func make(capacity: Int) -> ToOneChunk {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: ToOneChunk.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { used, keys in keys.deinitialize(count: used.pointee) }
    }
}

/// Hands out the to-one windows of the rows one statement decodes, in chunks
/// that never move: small first (a fault's one row), doubling to a bound.
struct ToOneArena {
    private static let largestChunk = 4096
    private var chunk: ToOneChunk?
    private var nextCapacity: Int

    /// `firstChunkWindows`: how many windows the first chunk is sized for.
    init(firstChunkWindows: Int = 4) { nextCapacity = firstChunkWindows }

    /// A window of `count` keys, all nil, for `ToOneKeys.set` to fill.
    @inline(__always)
    mutating func window(count: Int) -> ToOneKeys {
        if let chunk, chunk.header &+ count <= chunk.capacity {
            return take(count, from: chunk)
        }
        let made = ToOneChunk.make(capacity: Swift.max(nextCapacity * count, count))
        nextCapacity = Swift.min(nextCapacity * 2, Self.largestChunk)
        chunk = made
        return take(count, from: made)
    }

    @inline(__always)
    private func take(_ count: Int, from chunk: ToOneChunk) -> ToOneKeys {
        let offset = chunk.withUnsafeMutablePointers { used, keys in
            let offset = used.pointee
            (keys + offset).initialize(repeating: nil, count: count)
            used.pointee = offset &+ count
            return offset
        }
        return ToOneKeys(chunk: chunk, offset: offset, length: count)
    }
}
