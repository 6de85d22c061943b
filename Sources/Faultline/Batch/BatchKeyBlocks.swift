import FaultlineSQLite

/// Primary keys for a batch insert, reserved from `Z_PRIMARYKEY` in blocks.
///
/// With a known row count, one block of exactly that many keys (one
/// reservation: a SELECT and an UPDATE). For the streaming forms, blocks grow
/// from 1,024 keys, doubling up to 65,536, so a short stream wastes little and
/// a long one reserves rarely. A key is consumed only when a row was inserted
/// (an upsert that updated leaves it for the next row). At the end the unused
/// tail of the last block is given back with the same compare-and-set update,
/// which is safe: the writer's transaction is still open, so no one else
/// reserved in between.
struct BatchKeyBlocks {
    static let firstBlock = 1_024
    static let largestBlock = 65_536

    let rootEntityNumber: Int
    /// Keys start above it (`PrimaryKeyAllocator`).
    let floor: Int64
    let connection: Connection
    /// Rows still expected, when the count is known.
    private var remaining: Int?
    private var nextKey: Int64 = 1
    private var upper: Int64 = 0
    private var hasBlock = false
    private var blockSize = BatchKeyBlocks.firstBlock
    private(set) var reservations = 0

    init(rootEntityNumber: Int, floor: Int64, connection: Connection, expectedCount: Int?) {
        self.rootEntityNumber = rootEntityNumber
        self.floor = floor
        self.connection = connection
        self.remaining = expectedCount
    }

    /// The key the next row gets; reserves a block when the current one is used up.
    @inline(__always)
    mutating func peek() throws -> Int64 {
        if !hasBlock || nextKey > upper { try reserve() }
        return nextKey
    }

    /// Marks the peeked key used.
    @inline(__always)
    mutating func consume() {
        nextKey &+= 1
        if let left = remaining { remaining = left - 1 }
    }

    private mutating func reserve() throws {
        let size = remaining.map { max($0, 1) } ?? blockSize
        let keys = try PrimaryKeyAllocator.reserve(size, rootEntityNumber: rootEntityNumber, floor: floor, on: connection)
        reservations += 1
        hasBlock = true
        nextKey = keys.lowerBound
        upper = keys.upperBound
        if remaining == nil { blockSize = min(blockSize * 2, BatchKeyBlocks.largestBlock) }
    }

    /// Gives back the unused tail of the last block.
    mutating func finish() throws {
        guard hasBlock, nextKey <= upper else { return }
        _ = try BookkeepingStatements.moveKeyMax(ofEntity: rootEntityNumber, from: upper, to: nextKey - 1, on: connection)
        upper = nextKey - 1
    }
}
