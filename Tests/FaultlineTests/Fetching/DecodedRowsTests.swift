import Testing
@testable import Faultline

/// Rows of a statement are kept in chunks that are never reallocated: the
/// order survives chunk boundaries, and the memory held stays within one
/// chunk of the rows themselves.
@Suite("Decoded rows in fixed chunks")
struct DecodedRowsTests {
    private func row(_ key: Int64) -> DecodedRows.Row {
        (ManagedObjectID(storeIdentifier: 1, entityIndex: 0, primaryKey: key),
         RowSnapshot(entityIndex: 0, version: key, values: [], toOne: .empty))
    }

    @Test("10,000 rows come back in order; chunks stay near 4,096 rows and never move")
    func order() {
        var rows = DecodedRows()
        #expect(rows.isEmpty && Array(rows).isEmpty)
        var firstAddresses: [Int] = []
        for key in 1...10_000 {
            let (id, snapshot) = row(Int64(key))
            rows.append(id, snapshot)
            if rows.chunks.count > firstAddresses.count {
                firstAddresses.append(rows.chunks[rows.chunks.count - 1].withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
            }
        }
        #expect(rows.count == 10_000 && rows.underestimatedCount == 10_000)
        #expect(rows.map(\.0.primaryKey) == Array(1...10_000))
        #expect(rows.map(\.1.version) == Array(1...10_000))
        // A chunk asks for at most 4,096 rows; the allocator may round its size up.
        let largest = 4_096 * 5 / 4
        #expect(rows.chunks.allSatisfy { $0.count <= largest })
        #expect(rows.chunks.first.map { $0.capacity < 100 } == true)
        let held = rows.chunks.reduce(0) { $0 + $1.capacity }
        #expect(held - rows.count <= largest)
        let addresses = rows.chunks.map { chunk in chunk.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }
        #expect(addresses == firstAddresses)
    }

    @Test("Rows taken chunk by chunk move their snapshots out, in order, leaving empty chunks behind")
    func takenRows() {
        var arena = RowArena<AttributeValue>()
        var rows = DecodedRows()
        for key in 1...5_000 {
            let values = arena.window(2) { $0 == 0 ? .integer(Int64(key)) : .string("title \(key) of a row") }
            rows.append(ManagedObjectID(storeIdentifier: 1, entityIndex: 0, primaryKey: Int64(key)),
                        RowSnapshot(entityIndex: 0, version: Int64(key), values: values, toOne: .empty))
        }
        var taken: [DecodedRows.Row] = []
        var emptied: [KeyedSnapshot] = []
        for index in rows.chunks.indices {
            var chunk = rows.takeChunk(index)
            for position in chunk.indices {
                taken.append((chunk[position].id, chunk[position].takeSnapshot()))
            }
            emptied.append(contentsOf: chunk)
        }
        #expect(taken.map(\.0.primaryKey) == Array(1...5_000))
        #expect(taken.allSatisfy { id, snapshot in
            Array(snapshot.values) == [.integer(id.primaryKey), .string("title \(id.primaryKey) of a row")]
        })
        #expect(emptied.count == 5_000)
        #expect(emptied.allSatisfy { $0.snapshot.values.isEmpty && $0.snapshot.version == 0 })
        #expect(rows.chunks.allSatisfy { $0.isEmpty })
    }
}
