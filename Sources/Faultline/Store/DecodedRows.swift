/// The rows one statement decoded, kept in chunks that never move: a
/// statement's row count is known only at its end, and one array grown by
/// doubling allocates and copies about twice its final size (11 MB more per
/// 100,000-row fetch, measured). Chunks start small, so a fault's single row
/// costs one small allocation, and double up to a bound.
struct DecodedRows: Sequence, Sendable, DecodedRowSink {
    typealias Row = (ManagedObjectID, RowSnapshot)

    private static let firstChunk = 32
    private static let largestChunk = 4096
    static var expectedRows: Int { 4 }

    private(set) var chunks: [[KeyedSnapshot]] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var underestimatedCount: Int { count }

    /// `consuming`, like `RowCache`'s insert: the decoded row moves in
    /// instead of being copied through a generic outlined copy.
    mutating func append(_ id: ManagedObjectID, _ snapshot: consuming RowSnapshot) {
        if let last = chunks.indices.last, chunks[last].count < chunks[last].capacity {
            chunks[last].append(KeyedSnapshot(id: id, snapshot: snapshot))
        } else {
            var chunk: [KeyedSnapshot] = []
            chunk.reserveCapacity(chunks.last.map { Swift.min($0.count * 2, Self.largestChunk) } ?? Self.firstChunk)
            chunk.append(KeyedSnapshot(id: id, snapshot: snapshot))
            chunks.append(chunk)
        }
        count += 1
    }

    func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    /// Chunk `index`, moved out (an empty array left in its place), for the
    /// rows' last reader, which moves each snapshot out of it
    /// (`KeyedSnapshot.takeSnapshot`) where the iterator copies it. Walked in
    /// place inside `chunks`, every row paid the outer array's uniqueness
    /// check too; walked by a closure over its buffer, the captures copied
    /// the snapshots.
    mutating func takeChunk(_ index: Int) -> [KeyedSnapshot] {
        var chunk: [KeyedSnapshot] = []
        swap(&chunk, &chunks[index])
        return chunk
    }

    /// Concrete rather than `joined()`'s flattening iterator, which the
    /// optimiser left generic (a runtime value-witness call per row); holds
    /// the current chunk itself, so a row costs one array access.
    struct Iterator: IteratorProtocol {
        private let chunks: [[KeyedSnapshot]]
        private var current: [KeyedSnapshot] = []
        private var chunk = 0
        private var index = 0

        fileprivate init(chunks: [[KeyedSnapshot]]) { self.chunks = chunks }

        mutating func next() -> Row? {
            while index == current.count {
                guard chunk < chunks.count else { return nil }
                current = chunks[chunk]
                chunk += 1
                index = 0
            }
            defer { index += 1 }
            return (current[index].id, current[index].snapshot)
        }
    }
}

/// Where `decodeRow` puts a decoded row: appended in place, so the row's
/// snapshot is not copied through a returned optional.
protocol DecodedRowSink {
    /// Rows the decoding arena's first chunk is sized for.
    static var expectedRows: Int { get }
    mutating func append(_ id: ManagedObjectID, _ snapshot: consuming RowSnapshot)
}

/// The one row a primary-key read can return.
struct DecodedRow: DecodedRowSink {
    /// One: a chunk for four rows was three rows of fresh heap per fault
    /// fired alone, every one of them kept by the row cache.
    static var expectedRows: Int { 1 }
    private var row: (ManagedObjectID, RowSnapshot)?

    mutating func append(_ id: ManagedObjectID, _ snapshot: consuming RowSnapshot) {
        row = (id, snapshot)
    }

    /// The row, moved out: reading `row` copies the snapshot (a retain of
    /// each of its windows) for a caller that only passes it on.
    mutating func take() -> (ManagedObjectID, RowSnapshot)? { row.take() }
}
