// Every SQLite file under the Core Data fixtures, found by walking (so a new
// fixture is covered without code), taken through what an app does with it:
// matched to its own model cache and to the model files of its repository,
// opened through the API, every row of every entity read and compared with a
// plain SQLite read, an insert, an update and a delete saved into a copy, the
// copy reopened and `PRAGMA integrity_check`ed. A store that carries no model
// at all is opened read-only with the model its schema implies, read, and a
// save through it must be refused. One line per store is printed.
// The stores that are expected to behave otherwise are listed, with reasons,
// in `CoreDataFixtureExpectations`.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("CoreDataStore: every fixture store, found by walking, opens, reads, saves and reopens")
struct CoreDataStoreWalkTests {
    struct Totals {
        var stores = 0, matched = 0, opened = 0, read = 0, saved = 0, readOnly = 0
    }

    @Test("Every fixture store: matches its model (cache or file), reads every row as sqlite3 shows it, saves an insert, update and delete into a copy, reopens, integrity_check ok")
    func everyStore() throws {
        let stores = try CoreDataFixtures.sqliteFiles()
        #expect(stores.count >= 40, "found only \(stores)")
        for name in CoreDataFixtureExpectations.unmatchedToday.keys where !stores.contains(name) {
            Issue.record("\(name) is listed as unmatched but is not among the fixtures")
        }
        var totals = Totals()
        for store in stores {
            totals.stores += 1
            do {
                print("store \(store): \(try walk(store, totals: &totals))")
            } catch {
                Issue.record("\(store): \(error)")
                print("store \(store): failed: \(error)")
            }
        }
        print("stores: \(totals.stores); matched \(totals.matched), opened \(totals.opened), read \(totals.read), "
            + "saved \(totals.saved), read-only (inferred model) \(totals.readOnly)")
        let expectedUnmatched = CoreDataFixtureExpectations.unmatchedToday.count
        #expect(totals.matched == totals.stores - expectedUnmatched)
        #expect(totals.read == totals.matched && totals.opened == totals.matched)
        #expect(totals.saved + totals.readOnly == totals.matched)
    }

    /// One store's walk; returns its line.
    private func walk(_ store: String, totals: inout Totals) throws -> String {
        let copy = try StoreCopy(store)
        defer { copy.remove() }
        var words: [String] = []

        // The model: the store's own cache, and every version of its repository's model files.
        var model: ManagedObjectModel?
        switch Result(catching: { try CompiledModelReader.model(fromModelCacheOf: copy.url) }) {
        case .success(let cached):
            if matches(copy.url, cached.model) {
                model = cached.model
                words.append("cache matches")
            } else {
                words.append("cache does not match")
            }
        case .failure(let error):
            words.append("no cache (\((error as? CompiledModelError)?.message ?? "\(error)"))")
        }
        var fileMatches: [String] = []
        var fileVersions: [ManagedObjectModel] = []
        for file in try CoreDataFixtureExpectations.modelFiles(inRepositoryOf: store) {
            guard let bundle = try? ModelBundle.read(at: CoreDataFixtures.url(file)) else { continue }
            for version in bundle.versions where matches(copy.url, version.model) {
                fileMatches.append("\((file as NSString).lastPathComponent) \(version.name)")
                fileVersions.append(version.model)
            }
        }
        words.append(fileMatches.isEmpty ? "no model file matches" : "matches \(fileMatches.joined(separator: ", "))")
        if let reason = CoreDataFixtureExpectations.modelFileMismatches[store] {
            #expect(fileMatches.isEmpty, "\(store) must match no model file (\(reason)); matches \(fileMatches)")
        }
        model = model ?? fileVersions.first
        if let reason = CoreDataFixtureExpectations.unmatchedToday[store] {
            #expect(model == nil, "\(store) now matches: take it off `unmatchedToday` (was: \(reason))")
            return (words + ["unmatched today: \(reason)"]).joined(separator: "; ")
        }
        guard let model else {
            // No model anywhere: the one its schema implies, for reading only.
            let container: PersistentContainer
            do { container = try PersistentContainer(coreDataStoreInferringModelAt: copy.url) } catch {
                Issue.record("\(store): matches neither its model cache, a model file nor its inferred model: \(error)")
                return words.joined(separator: "; ")
            }
            totals.matched += 1
            return (words + [try readInferred(container, copy, label: store, totals: &totals)]).joined(separator: "; ")
        }
        totals.matched += 1

        // Open and read every row.
        let checked = try model.checked()
        let inspection = try CoreDataStore.inspect(url: copy.url, model: checked)
        // A store that records persistent history records Faultline's saves too.
        let options = CoreDataStoreOptions()
        let transactionsBefore = inspection.recordsPersistentHistory
            ? try RawStore.integer(copy.connection(), "SELECT count(*) FROM ATRANSACTION") ?? 0 : 0
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: model, options: options)
        totals.opened += 1
        let counts = try RowReadback.compareEveryRow(container, raw: copy.connection(), label: store)
        totals.read += 1
        words.append("read \(counts.rows) rows, \(counts.values) values")
        try checkURIs(container, raw: copy.connection(), label: store)

        // Save into the copy, reopen, check.
        let deletable = try SaveFiller.deletableEntity(in: checked, reading: container)
        let summary = try SaveRoundTrip.run(url: copy.url, model: { model }, options: options, deletable: deletable, label: store)
        #expect(summary.inserted > 0, "\(store): nothing inserted")
        // What the saving container caches (derived values its triggers moved
        // included) reads as the file now does.
        if let saver = summary.container {
            _ = try RowReadback.compareEveryRow(saver, raw: copy.connection(), label: "\(store) after the save")
        }
        totals.saved += 1
        var history = ""
        if inspection.recordsPersistentHistory {
            let recorded = (try RawStore.integer(copy.connection(), "SELECT count(*) FROM ATRANSACTION") ?? 0) - transactionsBefore
            #expect(recorded > 0, "\(store): the saves recorded no history transaction")
            history = ", \(recorded) history transactions recorded"
        }
        words.append("saved \(summary.inserted) inserts, update \(summary.updated ?? "none (no row with a string)"), "
            + "delete \(summary.deleted ?? (deletable == nil ? "none (no entity safe to delete has rows)" : "none (its only row was the one updated)"))"
            + history + "; integrity ok")
        return words.joined(separator: "; ")
    }

    /// A store opened with its inferred model: every row read; a save refused, the file unchanged.
    private func readInferred(_ container: PersistentContainer, _ copy: StoreCopy, label: String, totals: inout Totals) throws -> String {
        totals.opened += 1
        let counts = try RowReadback.compareEveryRow(container, raw: copy.connection(), label: label)
        totals.read += 1
        let before = try copy.connection().rows("SELECT count(*), total(Z_MAX) FROM Z_PRIMARYKEY")
        let context = container.newBackgroundContext()
        let refused = try context.performAndWait { () throws -> Bool in
            let entity = try #require(container.model.entities.first { !$0.isAbstract })
            _ = try context.insertNewObject(forEntityName: entity.name)
            do { try context.save() } catch CoreDataStoreError.inferredModelIsReadOnly { return true }
            return false
        }
        #expect(refused, "\(label): a save through an inferred model was not refused")
        #expect(try copy.connection().rows("SELECT count(*), total(Z_MAX) FROM Z_PRIMARYKEY") == before)
        totals.readOnly += 1
        return "model inferred from the schema matches; read \(counts.rows) rows, \(counts.values) values; "
            + "save refused (an inferred model is for reading only)"
    }

    /// Every entity's first object has Core Data's URI for it (the store's own
    /// Z_UUID as host) and the URI resolves back to its ID.
    private func checkURIs(_ container: PersistentContainer, raw: Connection, label: String) throws {
        guard case .text(let storeUUID)? = try raw.scalar("SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1") else {
            Issue.record("\(label): no Z_UUID")
            return
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for entity in container.model.entities where !entity.isAbstract {
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                request.fetchLimit = 1
                guard let id = try context.fetch(request).first?.objectID else { continue }
                let uri = id.uriRepresentation()
                #expect(uri.absoluteString == "x-coredata://\(storeUUID)/\(entity.name)/p\(id.primaryKey)", "\(label): \(uri)")
                #expect(container.coordinator.managedObjectID(forURIRepresentation: uri) == id, "\(label): \(uri)")
            }
        }
    }

    private func matches(_ url: URL, _ model: ManagedObjectModel) -> Bool {
        ValueTransformerRegistry.registerMissing(in: model, standIn: UnavailableTransformer())
        guard let checked = try? model.checked() else { return false }
        return (try? CoreDataStore.inspect(url: url, model: checked)) != nil
    }
}

/// Stands in for an app's value transformers the tests do not have: bytes
/// go to the store as given (what the tests write there), and stored ones
/// cannot be decoded.
struct UnavailableTransformer: AttributeValueTransformer {
    struct Unavailable: Error {}
    func encode(_ value: Any) throws -> Data {
        guard let bytes = value as? Data else { throw Unavailable() }
        return bytes
    }
    func decode(_ data: Data) throws -> Any { throw Unavailable() }
}
