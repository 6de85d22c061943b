// Every fixture store that has a model built in code (or read from its model
// file) opens through `PersistentContainer(coreDataStoreAt:model:)`, and every
// row of every entity reads back as a plain SQLite read shows it (`RowReadback`).

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: every row reads back as sqlite3 shows it")
struct CoreDataStoreRowTests {
    @Test("Opens and reads every row of every entity column by column", arguments: CoreDataStoreFixture.all)
    func everyRowMatches(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let counts = try RowReadback.compareEveryRow(container, raw: try copy.connection(), label: fixture.name)
        #expect(counts.rows > 0 && counts.values > 0, "\(fixture.name): nothing compared")
    }

    /// Opening reads and writes nothing in Z_METADATA: Core Data still sees its own metadata.
    @Test("Opening and saving leave Z_METADATA byte for byte as Core Data wrote it", arguments: CoreDataStoreFixture.all)
    func metadataUntouched(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let before = try copy.connection().rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let root = try #require(container.model.entities.first { !$0.isAbstract })
            let object = try context.insertNewObject(forEntityName: root.name)
            try SaveFiller.fill(object, in: context, model: container.model, depth: 0)
            try context.save()
        }
        let after = try copy.connection().rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(before == after)
        let metadata = try StoreBootstrap.metadata(on: copy.connection())
        #expect(metadata.additional[StoreBootstrap.modelVersionHashKey] == nil)
    }
}
