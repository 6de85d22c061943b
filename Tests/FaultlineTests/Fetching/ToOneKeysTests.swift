import Testing
@testable import Faultline

/// The to-one keys of a statement's rows share chunks; every row still reads
/// back exactly its own keys, across chunk boundaries.
@Suite("To-one keys in shared chunks read back per row")
struct ToOneKeysTests {
    private func id(_ key: Int64, entity: Int = 1) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: 3, entityIndex: entity, primaryKey: key)
    }

    @Test("20,000 rows of three slots (one left nil): every window reads its own keys")
    func windowsAcrossChunks() {
        var arena = ToOneArena()
        var windows: [ToOneKeys] = []
        for row in 0..<20_000 {
            let window = arena.window(count: 3)
            window.set(id(Int64(row)), at: 0)
            if row.isMultiple(of: 2) { window.set(id(Int64(row) * 10, entity: 2), at: 2) }
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
        var arena = ToOneArena()
        let lists: [[ManagedObjectID?]] = [[id(1), nil, id(3)], [], [nil], [id(4)]]
        let windows = lists.map { list in arena.keys(list.count) { list[$0] } }
        #expect(windows.map { Array($0) } == lists)
        #expect(windows[1].isEmpty && ToOneKeys.none.isEmpty)
    }
}
