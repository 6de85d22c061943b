// A save through Faultline into a copy of each store with a code model keeps
// it valid for Core Data (`SaveRoundTrip`): here every fixture both updates
// and inserts, and deletes where its entity is named.

import Foundation
import Testing
@testable import Faultline

@Suite("CoreDataStore: saves into a copy keep the store valid for Core Data")
struct CoreDataStoreSaveTests {
    @Test("Insert, update and delete leave integrity, Z_MAX and Z_OPT consistent", arguments: CoreDataStoreFixture.all)
    func saveStaysValid(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let summary = try SaveRoundTrip.run(url: copy.url, model: fixture.model, options: fixture.options,
                                            deletable: fixture.deletable, label: fixture.name)
        #expect(summary.updated != nil, "\(fixture.name): nothing to update")
        #expect(summary.inserted > 0, "\(fixture.name): nothing inserted")
        #expect((summary.deleted != nil) == (fixture.deletable != nil), "\(fixture.name): delete")
    }
}
