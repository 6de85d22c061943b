/// A row's slots (its attribute values, its to-one keys) as a window on
/// storage shared by the rows one statement decodes.
///
/// An array per row was one small allocation per row for each of the two, and
/// the fresh heap pages those touch cost more than the instructions the
/// windows add: with windows for the values and the to-one keys, decoding a
/// row allocates only its object.
///
/// Copy on write, like an array: a write through the subscript goes to a
/// private copy of the window unless the window is the only reference to its
/// chunk. `assign(_:at:)` writes in place and is for the decoding statement
/// only, before any snapshot holding the window is published: hence
/// `@unchecked Sendable` (`ManagedBuffer` is never `Sendable`). A chunk lives
/// as long as any window on it (in the row cache or an object), with every
/// value in it: one kept row keeps at most `RowArena.largestChunk` slots and
/// about `RowArena.payloadBudget` bytes of other rows' text and data alive.
public struct RowWindow<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline var chunk: RowChunk<Element>?
    @usableFromInline var offset: Int32
    @usableFromInline var length: Int32

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { Int(length) }

    fileprivate init(chunk: RowChunk<Element>?, offset: Int, length: Int) {
        self.chunk = chunk
        self.offset = Int32(truncatingIfNeeded: offset)
        self.length = Int32(truncatingIfNeeded: length)
    }

    /// A window on a chunk of its own holding `elements`.
    public init<Elements: Collection>(_ elements: Elements) where Elements.Element == Element {
        var arena = RowArena<Element>(firstChunk: 1)
        self = arena.window(elements.count) { elements[elements.index(elements.startIndex, offsetBy: $0)] }
    }

    /// No slots.
    public static var empty: RowWindow { RowWindow(chunk: nil, offset: 0, length: 0) }

    public subscript(index: Int) -> Element {
        @inlinable get {
            precondition(index >= 0 && index < Int(length), "row slot out of range")
            return unsafe(chunk)[Int(offset) &+ index]
        }
        set {
            precondition(index >= 0 && index < Int(length), "row slot out of range")
            if !isKnownUniquelyReferenced(&chunk) { self = RowWindow(self) }
            unsafe(chunk)[Int(offset) &+ index] = newValue
        }
    }

    /// Writes slot `index` in place, shared or not: only while the statement
    /// that took the window from its arena decodes the row.
    @inline(__always)
    func assign(_ element: Element, at index: Int) {
        precondition(index >= 0 && index < Int(length), "row slot out of range")
        unsafe(chunk)[Int(offset) &+ index] = element
    }

    /// The window's slots, all initialised, for the decoding statement to
    /// initialise over slots whose element owns nothing (see `assign`). Valid
    /// while the window is held. Not a closure: one returning a value was
    /// left out of line, a call per row.
    @inline(__always)
    var unsafeSlots: UnsafeMutableBufferPointer<Element> {
        guard let chunk else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        return UnsafeMutableBufferPointer(
            start: chunk.withUnsafeMutablePointerToElements { $0 } + Int(offset), count: Int(length))
    }

    /// The chunk's slots; only for a window of length > 0, which has a chunk.
    @inlinable @inline(__always)
    func unsafe(_ chunk: RowChunk<Element>?) -> UnsafeMutablePointer<Element> {
        chunk.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0 }
    }
}

extension RowWindow: @unchecked Sendable where Element: Sendable {}

extension RowWindow: Equatable where Element: Equatable {
    public static func == (left: RowWindow, right: RowWindow) -> Bool {
        if left.chunk === right.chunk, left.offset == right.offset, left.length == right.length { return true }
        return left.elementsEqual(right)
    }
}

extension RowWindow: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

/// A row's stored attribute values by attribute index.
public typealias AttributeValues = RowWindow<AttributeValue>

/// A row's to-one destinations by relationship index, as IDs (nil where there
/// is none, or where the relationship is to-many).
public typealias ToOneKeys = RowWindow<ManagedObjectID?>

/// Storage for the slots of many rows.
@usableFromInline
final class RowChunk<Element>: ManagedBuffer<RowChunkHeader, Element> {
    static func make(capacity: Int) -> RowChunk {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in RowChunkHeader(used: 0, capacity: capacity) }, to: RowChunk.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, slots in slots.deinitialize(count: header.pointee.used) }
    }
}

@usableFromInline
struct RowChunkHeader {
    /// Slots handed out, all of them initialised.
    var used: Int
    /// Slots asked for: `ManagedBuffer.capacity` asks the allocator for the
    /// block's size on every call, a cost per row.
    let capacity: Int
}

/// Hands out the windows of the rows one statement decodes (or one save
/// writes), in chunks that never move: small first (a fault's one row),
/// doubling to a bound.
struct RowArena<Element> {
    /// Slots of the largest chunk: 4,096 attribute values are 96 KiB.
    static var largestChunk: Int { 4_096 }
    /// Heap bytes (text, data) the values of one chunk may own before the
    /// next window starts a new chunk.
    static var payloadBudget: Int { 131_072 }
    private var chunk: RowChunk<Element>?
    /// Windows the next chunk is sized for.
    private var nextWindows: Int
    /// Windows taken from the current chunk, and the heap their values own.
    private var windowsInChunk = 0
    private var payload = 0

    init(firstChunk windows: Int = 4) { nextWindows = windows }

    /// A window of `count` slots, slot `index` holding `element(index)`.
    @inline(__always)
    mutating func window(_ count: Int, _ element: (Int) -> Element) -> RowWindow<Element> {
        guard count > 0 else { return .empty }
        let chunk = chunk(for: count)
        let offset = chunk.withUnsafeMutablePointers { header, slots in
            let offset = header.pointee.used
            for index in 0..<count { (slots + (offset &+ index)).initialize(to: element(index)) }
            header.pointee.used = offset &+ count
            return offset
        }
        windowsInChunk &+= 1
        return RowWindow(chunk: chunk, offset: offset, length: count)
    }

    /// Counts heap bytes the last window's values own. Past the budget the
    /// next window starts a chunk sized for as many rows as this one took,
    /// so a few rows of large text or data do not share storage with many.
    @inline(__always)
    mutating func notePayload(_ bytes: Int) {
        payload &+= bytes
        guard payload > Self.payloadBudget else { return }
        chunk = nil
        nextWindows = windowsInChunk
    }

    /// A window of `count` slots, each holding `element`.
    @inline(__always)
    mutating func window(count: Int, filledWith element: Element) -> RowWindow<Element> {
        window(count) { _ in element }
    }

    @inline(__always)
    private mutating func chunk(for count: Int) -> RowChunk<Element> {
        // Through the pointer: `header` is a class property, which pays a
        // dynamic exclusivity check per row.
        if let chunk, chunk.withUnsafeMutablePointerToHeader({ $0.pointee.used &+ count <= $0.pointee.capacity }) {
            return chunk
        }
        let windows = Swift.max(1, Swift.min(nextWindows, Self.largestChunk / count))
        let made = RowChunk<Element>.make(capacity: windows * count)
        nextWindows = Swift.min(nextWindows * 2, Self.largestChunk)
        chunk = made
        windowsInChunk = 0
        payload = 0
        return made
    }
}

extension AttributeValue {
    /// Heap bytes the value owns beyond its slot, roughly: what a row adds to
    /// its chunk's payload.
    @inline(__always)
    var payloadBytes: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .data(let data): data.count
        case .composite(let values): values.count &* 32
        default: 0
        }
    }
}
