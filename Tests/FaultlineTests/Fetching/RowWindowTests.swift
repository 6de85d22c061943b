import Testing
@testable import Faultline

/// The attribute values and to-one keys of a statement's rows share chunks;
/// every row still reads back exactly its own slots, across chunk boundaries,
/// and a write reaches only the window written to.
@Suite("Row windows in shared chunks read back per row and copy on write")
struct RowWindowTests {
    private func id(_ key: Int64, entity: Int = 1) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: 3, entityIndex: entity, primaryKey: key)
    }

    @Test("20,000 rows of three to-one slots (one left nil): every window reads its own keys")
    func windowsAcrossChunks() {
        var arena = RowArena<ManagedObjectID?>()
        var windows: [ToOneKeys] = []
        for row in 0..<20_000 {
            let window = arena.window(count: 3, filledWith: nil)
            window.assign(id(Int64(row)), at: 0)
            if row.isMultiple(of: 2) { window.assign(id(Int64(row) * 10, entity: 2), at: 2) }
            windows.append(window)
        }
        for (row, window) in windows.enumerated() {
            #expect(window.count == 3)
            #expect(window[0] == id(Int64(row)))
            #expect(window[1] == nil)
            #expect(window[2] == (row.isMultiple(of: 2) ? id(Int64(row) * 10, entity: 2) : nil))
        }
    }

    @Test("Windows filled from a list (a save's rows), and none for an empty one")
    func keysFromLists() {
        var arena = RowArena<ManagedObjectID?>()
        let lists: [[ManagedObjectID?]] = [[id(1), nil, id(3)], [], [nil], [id(4)]]
        let windows = lists.map { list in arena.window(list.count) { list[$0] } }
        #expect(windows.map { Array($0) } == lists)
        #expect(windows[1].isEmpty && ToOneKeys.empty.isEmpty)
    }

    @Test("A write to a window sharing its chunk changes that window only")
    func writeCopiesSharedWindow() {
        var arena = RowArena<AttributeValue>()
        let first = arena.window(2) { .integer(Int64($0)) }
        let second = arena.window(2) { .integer(Int64(10 + $0)) }
        var written = first
        written[1] = .string("changed")
        #expect(Array(written) == [.integer(0), .string("changed")])
        #expect(Array(first) == [.integer(0), .integer(1)])
        #expect(Array(second) == [.integer(10), .integer(11)])
        #expect(written != first)
        // The copy is now the only reference to its chunk: written in place.
        written[0] = .bool(true)
        #expect(Array(written) == [.bool(true), .string("changed")])
        #expect(first == AttributeValues([.integer(0), .integer(1)]))
    }

    @Test("Windows release every element once, across chunks and copies")
    func elementsReleasedOnce() {
        final class Tracked {
            nonisolated(unsafe) static var live = 0
            init() { Tracked.live += 1 }
            deinit { Tracked.live -= 1 }
        }
        do {
            var arena = RowArena<Tracked?>()
            var windows: [RowWindow<Tracked?>] = []
            for row in 0..<5_000 { windows.append(arena.window(row % 4) { _ in Tracked() }) }
            var made = windows.reduce(0) { $0 + $1.count }
            #expect(Tracked.live == made)
            for index in stride(from: 1, to: windows.count, by: 3) where !windows[index].isEmpty {
                // The copy holds a new element and retains the others; the
                // replaced one stays alive in the shared chunk.
                windows[index][0] = Tracked()
                made += 1
            }
            #expect(Tracked.live == made)
            windows.removeAll()
            arena = RowArena()
        }
        #expect(Tracked.live == 0)
    }
}
