import Testing
import FaultlineSQLite
@testable import Faultline

/// Keys come from Z_PRIMARYKEY in blocks, per inheritance root, with one update.
@Suite("Primary key allocation")
struct PrimaryKeyAllocatorTests {

    @Test("Blocks are consecutive and reserved with one compare-and-set update")
    func blocks() throws {
        let store = try TestStore(StoreSchema(compiling: StoreLayoutTests.model().checked()))
        let connection = store.connection
        try connection.transaction(.immediate) {
            connection.resetCounters()
            let first = try PrimaryKeyAllocator.reserve(1000, rootEntityNumber: 2, on: connection)
            #expect(first == 1...1000)
            // One read of Z_MAX and one update: no per-row round trip.
            #expect(connection.counters.statementsExecuted == 2)
            #expect(try PrimaryKeyAllocator.reserve(1, rootEntityNumber: 2, on: connection) == 1001...1001)
            #expect(try PrimaryKeyAllocator.reserve(5, rootEntityNumber: 5, on: connection) == 1...5)
        }
        #expect(try store.value("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2") == .integer(1001))
        #expect(try store.value("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 5") == .integer(5))
        #expect(try store.value("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 3") == .integer(0))
        #expect(try store.isIntact())
    }

    @Test("A rolled-back transaction gives its keys back")
    func rollback() throws {
        let store = try TestStore(StoreSchema(compiling: StoreLayoutTests.model().checked()))
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.connection.transaction(.immediate) {
                _ = try PrimaryKeyAllocator.reserve(10, rootEntityNumber: 1, on: store.connection)
                throw Abort()
            }
        }
        #expect(try PrimaryKeyAllocator.reserve(1, rootEntityNumber: 1, on: store.connection) == 1...1)
        #expect(try store.isIntact())
    }

    @Test("A floor (rows imported outside Core Data, Z_MAX behind them): keys start above it, and above Z_MAX when that is higher")
    func floorAboveZMax() throws {
        let store = try TestStore(StoreSchema(compiling: StoreLayoutTests.model().checked()))
        let connection = store.connection
        try connection.transaction(.immediate) {
            connection.resetCounters()
            let keys = try PrimaryKeyAllocator.reserve(3, rootEntityNumber: 1, floor: 40, on: connection)
            #expect(keys == 41...43)
            #expect(connection.counters.statementsExecuted == 2)
        }
        #expect(try store.value("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(43))
        #expect(try PrimaryKeyAllocator.reserve(1, rootEntityNumber: 1, floor: 40, on: connection) == 44...44)
    }

    @Test("An entity without a Z_PRIMARYKEY row is a typed error")
    func unknownEntity() throws {
        let store = try TestStore(StoreSchema(compiling: StoreLayoutTests.model().checked()))
        #expect(throws: StoreError.primaryKeysUnavailable(entityNumber: 99, reason: "Z_PRIMARYKEY has no row for it")) {
            try PrimaryKeyAllocator.reserve(1, rootEntityNumber: 99, on: store.connection)
        }
    }
}
