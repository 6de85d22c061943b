import Foundation
import Testing
@testable import Faultline

/// `entity`, Core Data's key for an object's own entity: `entity == %@` with an
/// entity picks exactly that entity's objects, none of its sub-entities', in
/// SQL and in memory alike; the entity's name compares the same way.
@Suite("The entity key in predicates")
struct EntityKeyPredicateTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("vehicles", to: "Vehicle", inverse: "owner", toMany: true)
            }
            Entity("Vehicle") {
                Attribute("name", .string)
                Relationship("owner", to: "Owner", inverse: "vehicles")
            }
            Entity("Car", parent: "Vehicle") { Attribute("doors", .integer16) }
            Entity("Truck", parent: "Vehicle") { Attribute("axles", .integer16) }
        }
    }

    @Test("entity == %@ compiles to the row's Z_ENT mapped to entity names, every name a bound value")
    func compiled() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let schema = container.coordinator.schema
        let car = try #require(container.coordinator.model.entity(named: "Car"))
        let own = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "entity == %@", car), entityName: "Vehicle", schema: schema)
        let numbers = try ["Vehicle", "Car", "Truck"].map { try #require(container.coordinator.model.entity(named: $0)).number }
        #expect(own.whereClause == "CASE t0.Z_ENT WHEN \(numbers[0]) THEN ? WHEN \(numbers[1]) THEN ? WHEN \(numbers[2]) THEN ? END = ?")
        #expect(own.bindings == [.text("Vehicle"), .text("Car"), .text("Truck"), .text("Car")])

        let through = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "ANY vehicles.entity == 'Truck'"), entityName: "Owner", schema: schema)
        #expect(through.whereClause.contains("CASE t1.Z_ENT WHEN \(numbers[0]) THEN ?"), "\(through.whereClause)")
    }

    @Test("entity == %@, != and IN select by exact entity, stored and pending, through to-ones and to-manys")
    func selects() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let owner = try context.insertNewObject(forEntityName: "Owner")
            try owner.setValue("Ann", forKey: "name")
            for (entity, name) in [("Vehicle", "Cart"), ("Car", "Mini"), ("Car", "Golf"), ("Truck", "Actros")] {
                let vehicle = try context.insertNewObject(forEntityName: entity)
                try vehicle.setValue(name, forKey: "name")
                if name != "Golf" { try vehicle.setDestination(owner, forKey: "owner") }
            }
            let loner = try context.insertNewObject(forEntityName: "Owner")
            try loner.setValue("Bo", forKey: "name")

            let model = container.coordinator.model
            let car = try #require(model.entity(named: "Car"))
            func names(_ entity: String, _ format: String, _ arguments: Any...) throws -> [String] {
                var request = FetchRequest(entityName: entity)
                request.predicate = try FetchPredicate(format: format, argumentArray: arguments)
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            }
            func check() throws {
                #expect(try names("Vehicle", "entity == %@", car) == ["Golf", "Mini"])
                #expect(try names("Vehicle", "entity == %@", "Vehicle") == ["Cart"])
                #expect(try names("Vehicle", "entity != %@", car) == ["Actros", "Cart"])
                #expect(try names("Vehicle", "entity IN %@", [car, try #require(model.entity(named: "Truck"))])
                        == ["Actros", "Golf", "Mini"])
                #expect(try names("Vehicle", "owner.entity == 'Owner'") == ["Actros", "Cart", "Mini"])
                #expect(try names("Owner", "ANY vehicles.entity == %@", car) == ["Ann"])
                #expect(try names("Owner", "NONE vehicles.entity == 'Truck'") == ["Bo"])
            }
            try check()  // pending: the in-memory evaluator
            try context.save()
            try check()  // stored: SQL
        }
    }

    @Test("entity.name is a typed error naming the supported form, not a crash")
    func unsupportedPath() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Vehicle")
            request.predicate = try FetchPredicate(format: "entity.name == 'Car'")
            #expect(throws: FetchError.unsupportedPredicate(
                "entity.name; compare `entity` itself with an entity or an entity's name (`entity == %@`)")) {
                try context.fetch(request)
            }
        }
    }
}
