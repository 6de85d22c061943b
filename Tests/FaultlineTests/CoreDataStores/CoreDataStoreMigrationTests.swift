// Lightweight migration of stores Core Data wrote (jeffreybergier's migration
// test fixtures: one store per model version, each written by Core Data): a
// v1.0.0 store migrated step by step ends exactly as Core Data's own v2.0.0
// store is — schema, entity hashes — with its value carried and its other
// metadata kept; the dry run writes nothing and its preflight lists every row
// in the way; stores Faultline does not migrate are refused unchanged.
// (A store with derived attributes and history: CoreDataDerivedHistoryMigrationTests.)

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("CoreDataStore: migrating stores Core Data wrote")
struct CoreDataStoreMigrationTests {
    static let folder = "jeffreybergier__CoreDataMigrationTests"
    static let versions = ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"]

    /// Every version of the fixture's model, each adopting the entity hashes
    /// Core Data wrote into the store it made with that version.
    static func modelVersions(editing edit: (String, ManagedObjectModel) -> Void = { _, _ in }) throws -> [String: ModelVersion] {
        let bundle = try ModelBundle.read(at: CoreDataFixtures.url("\(folder)/Model.xcdatamodeld"))
        var result: [String: ModelVersion] = [:]
        for version in bundle.versions {
            let store = try CoreDataFixtures.path("\(folder)/Example_\(version.name).sqlite")
            let hashes = try StoreBootstrap.metadata(on: Connection(.file(store), configuration: .inspecting(store))).entityVersionHashes
            version.model.adoptCoreDataEntityVersionHashes(hashes)
            edit(version.name, version.model)
            result[version.name] = try ModelVersion(version.model, label: version.name)
        }
        return result
    }

    static func schema(_ path: String) throws -> [[SQLValue]] {
        try Connection(.file(path), configuration: .inspecting(path))
            .rows("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    }

    static func files(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }

    @Test("v1.0.0 → v2.0.0 step by step: value carried, schema and hashes exactly Core Data's v2.0.0 store's, other metadata kept")
    func stepByStepToCoreDatasOwnResult() throws {
        let copy = try StoreCopy("\(Self.folder)/Example_v1.0.0.sqlite")
        defer { copy.remove() }
        let versions = try Self.modelVersions()
        let before = try StoreBootstrap.metadata(on: copy.connection())
        let value = try copy.connection().scalar("SELECT ZV1_0_0_NAME FROM ZBASICENTITY")
        #expect(value != nil && value != .null)

        for (previous, next) in zip(Self.versions, Self.versions.dropFirst()) {
            let outcome = try CoreDataStore.migrate(storeAt: copy.url, to: try #require(versions[next]),
                                                    from: Array(versions.values))
            #expect(outcome == .migrated(from: previous))
        }
        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: try #require(versions["v2.0.0"]), from: []) == .alreadyCurrent)

        let raw = try copy.connection()
        #expect(try raw.scalar("SELECT ZV2_0_0_NAME FROM ZBASICENTITY") == value)
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try raw.scalar("SELECT count(*) FROM Z_MODELCACHE") == .integer(0))
        let coreDataV2 = try CoreDataFixtures.path("\(Self.folder)/Example_v2.0.0.sqlite")
        #expect(try Self.schema(copy.url.path) == (try Self.schema(coreDataV2)))

        let after = try StoreBootstrap.metadata(on: raw)
        let written = try StoreBootstrap.metadata(on: Connection(.file(coreDataV2), configuration: .inspecting(coreDataV2)))
        #expect(after.entityVersionHashes == written.entityVersionHashes)
        #expect(after.checksum == written.checksum)
        #expect(after.uuid == before.uuid && after.frameworkVersion == before.frameworkVersion)
        #expect(after.additional == before.additional, "Core Data's other keys are kept, no Faultline key is added")

        let coordinator = try PersistentStoreCoordinator.openCoreDataStore(model: try #require(versions["v2.0.0"]).model, url: copy.url)
        let context = PersistentContainer(coordinator: coordinator).newBackgroundContext()
        let names = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "BasicEntity")).map { $0.value(forKey: "v2_0_0_name") as? String }
        }
        #expect(names.count == 1 && value == names.first.flatMap { $0 }.map { SQLValue.text($0) })
    }

    @Test("A store already at the target is current, and left unwritten, when the target is also listed among the sources")
    func targetAmongSourcesIsCurrent() throws {
        let copy = try StoreCopy("\(Self.folder)/Example_v1.1.0.sqlite")
        defer { copy.remove() }
        let versions = try Self.modelVersions()
        let target = try #require(versions["v1.1.0"])
        // Each version listed ahead of the target, as a caller passing every version does.
        let sources = Self.versions.compactMap { versions[$0] }
        let files = Self.files(copy.url)
        let plan = try CoreDataStore.planMigration(storeAt: copy.url, to: target, from: sources, triesOnCopy: false)
        #expect(plan.isCurrent && plan.source == nil)
        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: target, from: sources) == .alreadyCurrent)
        #expect(Self.files(copy.url) == files, "a current store was rewritten")
    }

    @Test("Staged: lightweight stages, then a custom stage whose handler rewrites values; ends as Core Data's v2.0.0 store")
    func stagedWithHandler() throws {
        let copy = try StoreCopy("\(Self.folder)/Example_v1.0.0.sqlite")
        defer { copy.remove() }
        let versions = try Self.modelVersions()
        func version(_ name: String) throws -> ModelVersion { try #require(versions[name]) }
        let value = try copy.connection().scalar("SELECT ZV1_0_0_NAME FROM ZBASICENTITY")
        let manager = StagedMigrationManager([
            .lightweight([try version("v1.0.0"), try version("v1.1.0"), try version("v1.1.2")]),
            .custom(from: try version("v1.2.0"), to: try version("v2.0.0"), didMigrate: { context in
                for object in try context.fetch(FetchRequest(entityName: "BasicEntity")) {
                    try object.setValue(((object.value(forKey: "v2_0_0_name") as? String) ?? "") + " (staged)", forKey: "v2_0_0_name")
                }
                try context.save()
            }),
        ])
        let outcome = try CoreDataStore.migrate(storeAt: copy.url, to: try version("v2.0.0"), using: manager)
        #expect(outcome == .migrated(from: "v1.0.0"))
        let raw = try copy.connection()
        guard case .text(let before)? = value else {
            Issue.record("no value before")
            return
        }
        #expect(try raw.scalar("SELECT ZV2_0_0_NAME FROM ZBASICENTITY") == .text(before + " (staged)"))
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))
        let coreDataV2 = try CoreDataFixtures.path("\(Self.folder)/Example_v2.0.0.sqlite")
        #expect(try Self.schema(copy.url.path) == (try Self.schema(coreDataV2)))
        #expect(try StoreBootstrap.metadata(on: raw).entityVersionHashes
                == (try StoreBootstrap.metadata(on: Connection(.file(coreDataV2), configuration: .inspecting(coreDataV2))).entityVersionHashes))
        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: try version("v2.0.0"), using: manager) == .alreadyCurrent)
    }

    @Test("The dry run writes nothing; its preflight lists NULLs in an attribute made required and rows breaking a new constraint")
    func dryRunPreflight() throws {
        let copy = try StoreCopy("\(Self.folder)/Example_v1.2.0.sqlite")
        defer { copy.remove() }
        try copy.connection().execute("""
            INSERT INTO ZBASICENTITY (Z_PK, Z_ENT, Z_OPT, ZV1_2_0_NAME)
                VALUES (2, 1, 1, NULL), (3, 1, 1, 'twin'), (4, 1, 1, 'twin'), (5, 1, 1, NULL);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_ENT = 1
            """)
        let versions = try Self.modelVersions { name, model in
            guard name == "v2.0.0", let entity = model.entitiesByName["BasicEntity"],
                  let attribute = entity.properties.first as? AttributeDescription else { return }
            attribute.isOptional = false
            entity.uniquenessConstraints = [["v2_0_0_name"]]
        }
        let target = try #require(versions["v2.0.0"])
        let files = Self.files(copy.url)
        let plan = try CoreDataStore.planMigration(storeAt: copy.url, to: target, from: Array(versions.values))
        #expect(Self.files(copy.url) == files, "the dry run wrote to the store")
        #expect(plan.source == "v1.2.0" && !plan.isCurrent)
        let preflight = try #require(plan.preflight)
        #expect(preflight.requiredNulls == [MigrationPreflight.RequiredNulls(entity: "BasicEntity", attribute: "v2_0_0_name", rows: 2)])
        // Two NULLs are no duplicate: the unique index never compares them equal.
        #expect(preflight.duplicates.map(\.properties) == [["v2_0_0_name"]])
        #expect(preflight.duplicates.first?.groups.map(\.values) == [[.text("twin")]])
        #expect(preflight.duplicates.first?.groups.map(\.count) == [2])
        #expect(plan.trialFailure?.contains("v2_0_0_name") == true, "\(String(describing: plan.trialFailure))")

        // Refused before the store is opened for writing, with the preflight's
        // first problem: a store in rollback-journal mode keeps every byte
        // (opening it for writing would have switched it to WAL).
        try copy.connection().execute("PRAGMA journal_mode = DELETE")
        let journaled = Self.files(copy.url)
        #expect {
            try CoreDataStore.migrate(storeAt: copy.url, to: target, from: Array(versions.values))
        } throws: {
            guard case MigrationError.missingDefault(let entity, let attribute, let rows) = $0 else { return false }
            return entity == "BasicEntity" && attribute == "v2_0_0_name" && rows == 2
        }
        #expect(Self.files(copy.url) == journaled, "the refused migration wrote to the store")
        #expect(try copy.connection().scalar("SELECT count(*) FROM ZBASICENTITY WHERE ZV1_2_0_NAME = 'twin'") == .integer(2))
    }

    @Test("A new derivation whose Core Data trigger text is unknown is refused unchanged; a store no version wrote has no path")
    func refusals() throws {
        let copy = try StoreCopy("alemar11__CoreDataPlus/SampleModel2_V1.sqlite")
        defer { copy.remove() }
        let cached = try CompiledModelReader.model(fromModelCacheOf: copy.url)
        ValueTransformerRegistry.registerMissing(in: cached.model, standIn: UnavailableTransformer())
        let source = try ModelVersion(cached.model, label: "cache")
        let newer = try CompiledModelReader.model(fromModelCacheOf: copy.url)
        ValueTransformerRegistry.registerMissing(in: newer.model, standIn: UnavailableTransformer())
        let added = DerivedAttributeDescription()
        added.name = "searchTitle"
        added.attributeType = .stringAttributeType
        added.derivationExpression = "canonical:(title)"
        newer.model.entitiesByName["Book"]?.properties.append(added)
        let target = try ModelVersion(newer.model, label: "newer")
        let files = Self.files(copy.url)
        #expect {
            try CoreDataStore.migrate(storeAt: copy.url, to: target, from: [source])
        } throws: {
            guard case MigrationError.coreDataStoreUnsupported(let reason) = $0 else { return false }
            return reason.contains("Book.searchTitle") && reason.contains("is new")
                && reason.contains("trigger text for such a derivation is not known")
        }
        #expect(Self.files(copy.url) == files)

        let versions = try Self.modelVersions()
        #expect {
            try CoreDataStore.migrate(storeAt: copy.url, to: try #require(versions["v2.0.0"]), from: Array(versions.values))
        } throws: {
            if case MigrationError.noMigrationPath = $0 { return true }
            return false
        }
    }
}
