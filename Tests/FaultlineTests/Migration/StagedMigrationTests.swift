import Foundation
import Synchronization
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("Staged migration runs lightweight and custom stages in order")
struct StagedMigrationTests {
    typealias S = MigrationSupport

    static func people(_ version: Int) -> ManagedObjectModel {
        S.model {
            Entity("Person") {
                if version < 3 { Attribute("fullName", .string) }
                if version >= 2 {
                    Attribute("firstName", .string)
                    Attribute("lastName", .string)
                }
                Attribute("age", .integer64)
            }
        }
    }

    @Test("Three versions: a custom stage splits fullName into firstName and lastName")
    func splitNames() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let names = ["Ada Lovelace", "Grace Brewster Hopper", "Alan Turing", "Plato"]
        try S.populate(url, Self.people(1)) { context in
            for (index, name) in names.enumerated() {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "fullName")
                try person.setValue(Int64(index + 30), forKey: "age")
            }
        }
        let v1 = try ModelVersion(Self.people(1), label: "V1")
        let v2 = try ModelVersion(Self.people(2), label: "V2")
        let v3 = try ModelVersion(Self.people(3), label: "V3")
        let manager = StagedMigrationManager([
            .lightweight([v1, v2]),
            .custom(from: v2, to: v3, label: "split names", willMigrate: { context in
                for person in try context.fetch(FetchRequest(entityName: "Person")) {
                    let full = person.value(forKey: "fullName") as? String ?? ""
                    var parts = full.split(separator: " ").map(String.init)
                    let last = parts.count > 1 ? parts.removeLast() : ""
                    try person.setValue(parts.joined(separator: " "), forKey: "firstName")
                    try person.setValue(last, forKey: "lastName")
                }
                try context.save()
            }),
        ])
        let container = try PersistentContainer(model: Self.people(3), location: .file(url), migration: MigrationOptions(path: .staged(manager)))
        try S.expectMigrated(url, to: Self.people(3))
        let rows = try S.rows(url, "SELECT ZFIRSTNAME, ZLASTNAME, ZAGE FROM ZPERSON ORDER BY Z_PK")
        #expect(rows == [
            [.text("Ada"), .text("Lovelace"), .integer(30)],
            [.text("Grace Brewster"), .text("Hopper"), .integer(31)],
            [.text("Alan"), .text("Turing"), .integer(32)],
            [.text("Plato"), .text(""), .integer(33)],
        ])
        try S.expectReadAndSave(container, entity: "Person", key: "lastName", value: .string("Byron"))
    }
}

/// Core Data's own example: Aircraft.flightData moves into a FlightData entity.
enum AircraftModels {
    static func model(_ version: Int) -> ManagedObjectModel {
        MigrationSupport.model {
            Entity("Aircraft") {
                Attribute("tailNumber", .string)
                if version < 3 { Attribute("flightData", .binaryData) }
                if version >= 2 { Relationship("record", to: "FlightData", inverse: "aircraft") }
            }
            if version >= 2 {
                Entity("FlightData") {
                    Attribute("data", .binaryData)
                    Relationship("aircraft", to: "Aircraft", inverse: "record")
                }
            }
        }
    }

    static func bytes(_ index: Int) -> Data { Data((0..<64).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }) }

    static func populate(_ url: URL, count: Int) throws {
        try MigrationSupport.populate(url, model(1)) { context in
            for index in 0..<count {
                let aircraft = try context.insertNewObject(forEntityName: "Aircraft")
                try aircraft.setValue("N\(index)", forKey: "tailNumber")
                try aircraft.setValue(bytes(index), forKey: "flightData")
            }
        }
    }

    /// The custom stage's handler: copies each aircraft's bytes into a new FlightData.
    static func copy(failAfter limit: Int? = nil) -> MigrationStage.Handler {
        { context in
            var request = FetchRequest(entityName: "Aircraft")
            request.sortDescriptors = [FetchSortDescriptor(key: "tailNumber")]
            var done = 0
            for aircraft in try context.fetch(request) {
                guard let data = aircraft.value(forKey: "flightData") as? Data else { continue }
                let record = try context.insertNewObject(forEntityName: "FlightData")
                try record.setValue(data, forKey: "data")
                try record.setValue(aircraft, forKey: "aircraft")
                try aircraft.setValue(nil, forKey: "flightData")
                done += 1
                if done % 1000 == 0 { try context.save() }
                if let limit, done == limit { throw HandlerCrash() }
            }
            try context.save()
        }
    }

    struct HandlerCrash: Error {}

    static func manager(failAfter limit: Int? = nil) throws -> StagedMigrationManager {
        let v1 = try ModelVersion(model(1), label: "V1")
        let v2 = try ModelVersion(model(2), label: "V2")
        let v3 = try ModelVersion(model(3), label: "V3")
        return StagedMigrationManager([
            .lightweight([v1, v2], label: "V1 to V2: add FlightData"),
            .custom(from: v2, to: v3, label: "V2 to V3: move flightData", willMigrate: copy(failAfter: limit)),
        ])
    }

    /// Every aircraft's bytes are in its FlightData row.
    static func expectMoved(_ url: URL, count: Int) throws {
        let rows = try MigrationSupport.rows(url, """
            SELECT a.ZTAILNUMBER, f.ZDATA FROM ZAIRCRAFT a JOIN ZFLIGHTDATA f ON f.ZAIRCRAFT = a.Z_PK AND a.ZRECORD = f.Z_PK
            """)
        #expect(rows.count == count)
        for row in rows {
            guard case .text(let tail) = row[0], let index = Int(tail.dropFirst()) else { Issue.record("tail"); continue }
            #expect(row[1] == .blob(bytes(index)))
        }
    }
}

@Suite("The seed scenario: Aircraft.flightData moves into FlightData through a staged migration")
struct AircraftSeedScenarioTests {
    typealias S = MigrationSupport

    @Test("10,000 aircraft: a V1 store opens with V3, every byte in its FlightData, no flightData column")
    func seedScenario() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try AircraftModels.populate(url, count: 10_000)
        let reports = Mutex<[MigrationProgress]>([])
        let options = MigrationOptions(path: .staged(try AircraftModels.manager())) { progress in
            reports.withLock { $0.append(progress) }
        }
        let container = try PersistentContainer(model: AircraftModels.model(3), location: .file(url), migration: options)
        try AircraftModels.expectMoved(url, count: 10_000)
        let columns = try S.rows(url, "SELECT name FROM pragma_table_info('ZAIRCRAFT')").map { $0[0] }
        #expect(!columns.contains(.text("ZFLIGHTDATA")))
        try S.expectMigrated(url, to: AircraftModels.model(3))
        #expect(reports.withLock { $0 }.contains { $0.stage.hasPrefix("V2 to V3") && $0.entity == "Aircraft" })
        try S.expectReadAndSave(container, entity: "FlightData", key: "data", value: .data(Data([9])))
    }

    @Test("A custom stage that throws halfway leaves the store at V2 with nothing lost; rerunning completes")
    func interruptedMigrationResumes() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try AircraftModels.populate(url, count: 3_000)
        #expect {
            _ = try PersistentContainer(model: AircraftModels.model(3), location: .file(url),
                                        migration: MigrationOptions(path: .staged(try AircraftModels.manager(failAfter: 1_500))))
        } throws: { error in
            guard case MigrationError.stageFailed(let stage, let label, let version, let underlying) = error else { return false }
            return stage == 1 && label.hasPrefix("V2 to V3") && underlying is AircraftModels.HandlerCrash
                && version == (try? AircraftModels.model(2).checked().versionChecksum)
        }
        // At V2, readable, nothing lost, nothing half-copied.
        try S.expectMigrated(url, to: AircraftModels.model(2))
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZFLIGHTDATA") == [[.integer(0)]])
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZAIRCRAFT WHERE ZFLIGHTDATA IS NOT NULL") == [[.integer(3_000)]])
        let atV2 = try PersistentContainer(model: AircraftModels.model(2), location: .file(url))
        try S.expectReadAndSave(atV2, entity: "Aircraft", key: "tailNumber", value: .string("N0"))

        _ = try PersistentContainer(model: AircraftModels.model(3), location: .file(url),
                                    migration: MigrationOptions(path: .staged(try AircraftModels.manager())))
        try AircraftModels.expectMoved(url, count: 3_000)
        try S.expectMigrated(url, to: AircraftModels.model(3))
    }
}

@Suite("Deferred migration leaves removed columns and tables for later")
struct DeferredMigrationTests {
    typealias S = MigrationSupport

    @Test("The store is usable at once; finishDeferredMigration drops the leftovers and clears the flag")
    func deferredCleanup() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try AircraftModels.populate(url, count: 500)
        let options = MigrationOptions(path: .staged(try AircraftModels.manager()), deferCleanup: true)
        let container = try PersistentContainer(model: AircraftModels.model(3), location: .file(url), migration: options)
        #expect(try container.hasDeferredMigration)
        var columns = try S.rows(url, "SELECT name FROM pragma_table_info('ZAIRCRAFT')").map { $0[0] }
        #expect(columns.contains(.text("ZFLIGHTDATA")))
        let metadata = try StoreBootstrap.metadata(on: Connection(.file(url.path)))
        // A property-list boolean reads back as an integer on Linux Foundation.
        let flag = metadata.additional["NSPersistentStoreDeferredLightweightMigrationOptionKey"]
        #expect(flag == .boolean(true) || flag == .integer(1))
        // Reads and writes see the new model in between.
        try S.expectReadAndSave(container, entity: "FlightData", key: "data", value: .data(Data([7])))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let aircraft = try context.insertNewObject(forEntityName: "Aircraft")
            try aircraft.setValue("NEW", forKey: "tailNumber")
            try context.save()
        }
        try container.finishDeferredMigration()
        #expect(try !container.hasDeferredMigration)
        columns = try S.rows(url, "SELECT name FROM pragma_table_info('ZAIRCRAFT')").map { $0[0] }
        #expect(!columns.contains(.text("ZFLIGHTDATA")))
        try S.expectMigrated(url, to: AircraftModels.model(3))
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZAIRCRAFT") == [[.integer(501)]])
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZFLIGHTDATA") == [[.integer(500)]])
        try S.expectReadAndSave(container, entity: "Aircraft", key: "tailNumber", value: .string("after"))
    }
}
