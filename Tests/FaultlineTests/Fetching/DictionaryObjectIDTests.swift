import Foundation
import FaultlineSQLite
import Testing
@testable import Faultline

/// `objectID` in a dictionary fetch's `propertiesToFetch` gives each row's own
/// object ID under the key "objectID", as Core Data's `#keyPath(Car.objectID)`
/// does (CoreDataPlus's `test_FetchAsDictionaryUsingBatchSize` fetches
/// `[#keyPath(Car.maker), #keyPath(Car.objectID)]` with a `fetchBatchSize`):
/// the same column `SELF` with the object-ID result type reads. No property
/// can be named `objectID` (the name is reserved), so the key is never an
/// attribute's.
@Suite("Dictionary fetches: objectID in propertiesToFetch, with and without a batch size")
struct DictionaryObjectIDTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Car") {
                Attribute("maker", .string)
                Attribute("numberPlate", .string)
            }
            Entity("SportCar", parent: "Car") { Attribute("topSpeed", .integer32) }
        }
    }

    /// 25 cars, every fifth a sport car, by number plate; returns their IDs in
    /// number-plate order.
    static func seed(_ container: PersistentContainer) throws -> [ManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var cars: [ManagedObject] = []
            for number in 0..<25 {
                let car = try context.insertNewObject(forEntityName: number % 5 == 0 ? "SportCar" : "Car")
                try car.setValue(["FIAT", "Alfa Romeo", "Lamborghini"][number % 3], forKey: "maker")
                try car.setValue(String(format: "P%02d", number), forKey: "numberPlate")
                cars.append(car)
            }
            try context.save()
            return cars.map(\.objectID)
        }
    }

    static func request(batchSize: Int = 0) -> FetchRequest {
        var request = FetchRequest(entityName: "Car")
        request.resultType = .dictionaries
        request.propertiesToFetch = ["maker", "objectID"]
        request.sortDescriptors = [FetchSortDescriptor(key: "numberPlate")]
        request.fetchBatchSize = batchSize
        return request
    }

    static let statement = "SELECT t0.ZMAKER, t0.Z_PK, t0.Z_ENT FROM ZCAR t0 WHERE t0.Z_ENT IN (1, 2) ORDER BY t0.ZNUMBERPLATE ASC"

    @Test("\"objectID\" gives each row's own ID (a sub-entity's named as such), read in the one statement SELF's column is")
    func objectIDKey() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            let (rows, statements) = try StatementLog.record { try context.fetchDictionaries(Self.request()) }
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            #expect(statements.contains(Self.statement), "\(statements)")
            #expect(rows.count == 25)
            #expect(rows.map { $0["objectID"] as? ManagedObjectID } == ids)
            #expect(rows.allSatisfy { Set($0.keys) == ["maker", "objectID"] })
            #expect(rows.first?["maker"] as? String == "FIAT")
            let sport = try context.existingObject(with: try #require(rows.first?["objectID"] as? ManagedObjectID))
            #expect(sport.entity?.name == "SportCar")
            #expect(try context.existingObject(with: try #require(rows[1]["objectID"] as? ManagedObjectID)).entity?.name == "Car")
            #expect(context.registeredObjects.count == 2, "the rows registered no object")

            // SELF with the object-ID result type: the same column, the same statement.
            var described = Self.request()
            described.propertiesToFetch = ["maker"]
            described.expressionsToFetch = [try ExpressionDescription(name: "objectID", format: "SELF", resultType: .objectIDAttributeType)]
            let (compiled, _) = try context.compiledFetch(described, selecting: described.propertiesToFetch, computing: true)
            #expect(compiled.columnsStatement(in: container.coordinator.plans[compiled.entityIndex]) == Self.statement)
            #expect(try context.fetchDictionaries(described).map { $0["objectID"] as? ManagedObjectID } == ids)
        }
    }

    @Test("With fetchBatchSize, the dictionaries are the same rows, objectID included, from one statement", arguments: [1, 10, 25, 100])
    func batchSize(_ batchSize: Int) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            let (result, statements) = try StatementLog.record { try context.execute(Self.request(batchSize: batchSize)) }
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            #expect(statements.contains(Self.statement), "\(statements)")
            guard case .dictionaries(let rows) = result else {
                Issue.record("not dictionaries: \(result)")
                return
            }
            #expect(rows.map { $0["objectID"] as? ManagedObjectID } == ids)
            #expect(rows.map { $0["maker"] as? String } == (0..<25).map { ["FIAT", "Alfa Romeo", "Lamborghini"][$0 % 3] })
        }
    }

    @Test("\"objectID\" asked with a grouping it is not in is refused as any ungrouped key path")
    func ungrouped() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        _ = try Self.seed(container)
        let context = container.newBackgroundContext()
        context.performAndWait {
            var request = Self.request()
            request.sortDescriptors = []
            request.propertiesToGroupBy = ["maker"]
            #expect(throws: FetchError.ungroupedProperty(entity: "Car", keyPath: "objectID")) {
                try context.fetchDictionaries(request)
            }
        }
    }

    @Test("No property can be named objectID: the model is refused, so the key is never an attribute's")
    func reservedName() {
        let model = ManagedObjectModel { Entity("Car") { Attribute("objectID", .string) } }
        let error = #expect(throws: ModelError.self) { try model.checked() }
        #expect(error?.contains(.reservedName("objectID")) == true)
    }
}
