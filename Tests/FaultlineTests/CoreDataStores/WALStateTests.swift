// Stores as apps leave them on disk: rows that live only in the -wal, a -wal
// without its -shm (lost in a copy), and a -shm older than its -wal (zeroed
// here, so it describes no frame). Each fixture store with a non-empty -wal
// is read in each state through its own model and must give exactly the rows
// of the intact copy.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("CoreDataStore: -wal and -shm as apps leave them")
struct WALStateTests {
    enum State: String, CaseIterable, Sendable {
        case intact, withoutShm, staleShm
        /// Only to prove the -wal holds rows the main file lacks.
        case withoutWal
    }

    /// Fixture stores whose -wal holds frames.
    static func storesWithFrames() throws -> [String] {
        try CoreDataFixtures.sqliteFiles().filter { store in
            let wal = try CoreDataFixtures.path(store) + "-wal"
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            return size > 0
        }
    }

    /// A fixture may ship without its -shm (CoreDataMigration-Example's does),
    /// and a test elsewhere reading the fixture in place may create one at any
    /// moment (SQLite makes it to read a -wal), so a copy has one or not.
    private func removeIfPresent(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }

    /// Rows per entity read through the model (its cache, else the model file beside it).
    private func rowCounts(_ store: String, state: State) throws -> [String: Int] {
        let copy = try StoreCopy(store)
        defer { copy.remove() }
        switch state {
        case .intact: break
        case .withoutShm: try removeIfPresent(copy.url.path + "-shm")
        case .staleShm: try Data(count: 32_768).write(to: URL(fileURLWithPath: copy.url.path + "-shm"))
        case .withoutWal:
            try FileManager.default.removeItem(atPath: copy.url.path + "-wal")
            try removeIfPresent(copy.url.path + "-shm")
        }
        let model: ManagedObjectModel
        if let cached = try? CompiledModelReader.model(fromModelCacheOf: copy.url) {
            model = cached.model
        } else {
            let file = try #require(try CoreDataFixtureExpectations.modelFiles(inRepositoryOf: store).first)
            model = try #require(try ModelBundle.read(at: CoreDataFixtures.url(file)).current).model
        }
        ValueTransformerRegistry.registerMissing(in: model, standIn: UnavailableTransformer())
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: model)
        let counts = try RowReadback.compareEveryRow(container, raw: copy.connection(), label: "\(store) \(state)")
        #expect(counts.rows > 0 || state == .withoutWal)
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var result: [String: Int] = [:]
            for entity in container.model.entities where !entity.isAbstract {
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                result[entity.name] = try context.count(for: request)
            }
            return result
        }
    }

    @Test("Rows only in the -wal read the same with the -shm intact, missing or stale")
    func walStates() throws {
        let stores = try Self.storesWithFrames()
        #expect(stores.count >= 3, "\(stores)")
        var walOnlyRows = 0
        for store in stores {
            let intact = try rowCounts(store, state: .intact)
            #expect(intact.values.reduce(0, +) > 0, "\(store)")
            for state in [State.withoutShm, .staleShm] {
                #expect(try rowCounts(store, state: state) == intact, "\(store) \(state)")
            }
            walOnlyRows += intact.values.reduce(0, +) - (try rowCounts(store, state: .withoutWal)).values.reduce(0, +)
        }
        #expect(walOnlyRows > 0, "no fixture holds rows only in its -wal: the test proves nothing")
        print("rows only in -wal files, read in every -shm state: \(walOnlyRows)")
    }
}
