@testable import BenchmarkData
import Faultline
import FaultlineSQLite
import FixtureSupport
import Foundation
import Testing

/// Synthetic data for `Faulting --model` on real apps' models: an attribute
/// under a uniqueness constraint gets a value per object even when it has a
/// default (Moody's countries all defaulted to code 0 and collided), and a
/// save the store refuses is told as a few distinct problems with counts, not
/// one line per object (100,000 lines for the motorcycle model).
@Suite("Synthetic model data keeps uniqueness constraints and summarises a refused save", .serialized)
struct SyntheticDataTests {
    private func store(_ modelPath: String, version: String? = nil, entity: String, keyPaths: [String], objects: Int, fanOut: Int) throws -> ModelProfileStore {
        let (model, _) = try ModelProfileStore.readModel(try CoreDataFixtures.path(modelPath), version: version)
        let tree = try KeyPathTree(entity: entity, keyPaths: keyPaths, schema: try StoreSchema(compiling: model.checked()))
        return try ModelProfileStore(model: model, modelName: "test",
                                     synthetic: try SyntheticModelData(tree: tree, objects: objects, fanOut: fanOut))
    }

    /// Version 6: Country declares the constraint. Version 2: the abstract
    /// GeographicRegion does, so countries and continents share one table and
    /// their codes must differ from each other's too.
    @Test("Moody's regions, constrained on numericISO3166Code with a default, save with distinct codes",
          arguments: [("Moody 6", "ZCOUNTRY", 40), ("Moody 2", "ZGEOGRAPHICREGION", 80)])
    func uniqueDespiteDefault(version: String, table: String, rows: Int) throws {
        let store = try store("objcio__core-data/Moody.xcdatamodeld", version: version, entity: "Country",
                              keyPaths: ["moods", "continent"], objects: 40, fanOut: 2)
        defer { store.remove() }
        let sqlite = try Connection(.file(store.url.path))
        #expect(try sqlite.scalar("SELECT count(*) FROM \(table)") == .integer(Int64(rows)))
        #expect(try sqlite.scalar("SELECT count(DISTINCT ZNUMERICISO3166CODE) FROM \(table)") == .integer(Int64(rows)))
    }

    @Test("A required relationship off the key paths fails in a few lines: each problem once, counted, with what to do")
    func summarisedFailure() throws {
        let failure = try #require(throws: SyntheticSaveFailure.self) {
            _ = try store("opfietse__motorcyclemaintenance/Model.xcdatamodeld", entity: "Motorcycle",
                          keyPaths: ["motorcycleMaintenance.motorcycleMaintenanceTasks"], objects: 30, fanOut: 5)
        }
        let lines = failure.description.split(separator: "\n")
        #expect(lines.count <= 2 + SyntheticSaveFailure.shown + 1, "\(failure)")
        #expect(failure.description.contains("Motorcycle.motorcycleType: missingMandatoryProperty"))
        #expect(failure.description.contains("(30 object(s))"))
        #expect(failure.description.contains("add it to --keypaths"))
        #expect(failure.problems.reduce(0) { $0 + $1.objects } > 30)
    }
}
