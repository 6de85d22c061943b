import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A constant compared with an attribute of another kind, as Core Data on
/// SQLite compares it: Core Data binds the constant as it is and the column's
/// affinity converts it (a number to text for a string attribute, numeric
/// text to a number for a number or date attribute). CoreDataPlus's
/// `test_batchDeleteMarkedForDeletion` finds 3 cars for `numberPlate IN
/// {9, 10, 11}`. The evaluator converts the same way, so unsaved objects in a
/// fetch answer as stored rows do.
@Suite("Constants of another kind convert by the attribute's affinity, in SQL and in memory alike")
struct ConstantAffinityTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Car") {
                Attribute("numberPlate", .string)
                Attribute("mileage", .integer64)
                Attribute("built", .date)
            }
        }
    }

    /// (plate, mileage, built seconds since 2001); the last car has none.
    static let cars: [(String?, Int64?, Double?)] = [
        ("1", 1, 1), ("9", 9, 9), ("9.0", 90, 90), ("9.5", 95, 95), ("10", 10, 10), ("11", 11, 11), ("12", 12, 12),
        (nil, nil, nil),
    ]

    static func insert(_ car: (String?, Int64?, Double?), into context: ManagedObjectContext) throws {
        let object = try context.insertNewObject(forEntityName: "Car")
        try object.setValue(car.0, forKey: "numberPlate")
        try object.setValue(car.1, forKey: "mileage")
        try object.setValue(car.2.map(Date.init(timeIntervalSinceReferenceDate:)), forKey: "built")
    }

    static func plates(_ objects: [ManagedObject]) -> Set<String> {
        Set(objects.map { $0.value(forKey: "numberPlate") as? String ?? "nil" })
    }

    @Test("numberPlate IN {9, 10, 11} binds '9', '10', '11' and counts 3 saved cars, and an unsaved one as well")
    func numberPlateIn() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for car in Self.cars { try Self.insert(car, into: context) }
            try context.save()
            let request = FetchRequest(entityName: "Car", predicate: try FetchPredicate(format: "numberPlate IN %@", [9, 10, 11]))
            let compiled = try PredicateSQLCompiler.compile(
                try #require(request.predicate), entityName: "Car", schema: container.coordinator.schema)
            #expect(compiled.whereClause == "t0.ZNUMBERPLATE IN (?, ?, ?)")
            #expect(compiled.bindings == [.text("9"), .text("10"), .text("11")])
            // The log is process-wide (tests running beside this one add theirs); the coordinator's counter is this store's.
            let before = container.coordinator.sqlCounters.statementsExecuted
            let (count, statements) = try StatementLog.record { try context.count(for: request) }
            #expect(count == 3)
            #expect(container.coordinator.sqlCounters.statementsExecuted == before + 1)
            #expect(statements.contains("SELECT COUNT(*) FROM ZCAR t0 WHERE t0.ZNUMBERPLATE IN (?, ?, ?)"), "\(statements)")
            // A pending "9" (evaluated in memory) joins the stored ones.
            try Self.insert(("9", nil, nil), into: context)
            #expect(try context.fetch(request).count == 4)
        }
    }

    @Test("A number compared with a string attribute is bound as SQLite writes it as text", arguments: [
        (PredicateValue.int(9), "9"), (.double(9.5), "9.5"), (.double(9.0), "9.0"), (.double(1e20), "1.0e+20"),
        (.double(1e-5), "1.0e-05"), (.double(-0.0), "0.0"), (.double(1.0 / 3), "0.333333333333333"), (.bool(true), "1"),
    ])
    func textForms(_ value: PredicateValue, _ text: String) throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let predicate = FetchPredicate(.comparison(PredicateComparison(.keyPath(PredicateKeyPath(["numberPlate"])), .equal, .value(value))))
        let compiled = try PredicateSQLCompiler.compile(predicate, entityName: "Car", schema: container.coordinator.schema)
        #expect(compiled.whereClause == "t0.ZNUMBERPLATE = ?")
        #expect(compiled.bindings == [.text(text)])
        // SQLite's own conversion of the value, through a TEXT column.
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (s TEXT)")
        try connection.execute("INSERT INTO t VALUES (?)", [value == .bool(true) ? .integer(1) : try #require(Self.bound(value))])
        #expect(try connection.scalar("SELECT s FROM t") == .text(text))
    }

    static func bound(_ value: PredicateValue) -> SQLValue? {
        switch value {
        case .int(let integer): .integer(integer)
        case .double(let real): .real(real)
        default: nil
        }
    }

    @Test("Each predicate selects the same cars stored (SQL) and unsaved (the evaluator), as SQLite's affinity decides", arguments: [
        ("numberPlate == 9", ["9"]), ("numberPlate == 9.0", ["9.0"]), ("numberPlate == 9.5", ["9.5"]),
        ("numberPlate != 9", ["1", "9.0", "9.5", "10", "11", "12", "nil"]), ("numberPlate == YES", ["1"]),
        ("numberPlate IN {9, 10, 11}", ["9", "10", "11"]), ("ANY {9, 10} == numberPlate", ["9", "10"]),
        ("numberPlate > 9", ["9.0", "9.5"]), ("numberPlate BETWEEN {10, 12}", ["10", "11", "12"]),
        ("mileage == '9'", ["9"]), ("mileage == ' 9 '", ["9"]), ("mileage == '9.0'", ["9"]), ("mileage == '1e1'", ["10"]),
        ("mileage == 'nine'", []), ("mileage == '0x9'", []), ("mileage != 'nine'", ["1", "9", "9.0", "9.5", "10", "11", "12", "nil"]),
        ("mileage IN {'9', '10'}", ["9", "10"]), ("mileage > '12'", ["9.0", "9.5"]),
        ("built == 9", ["9"]), ("built > 12", ["9.0", "9.5"]), ("built == '10'", ["10"]),
        ("lowercase:(numberPlate) == 9", []), ("numberPlate == mileage", ["nil"]),
    ])
    func agree(_ format: String, _ expected: [String]) throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for car in Self.cars { try Self.insert(car, into: context) }
            let request = FetchRequest(entityName: "Car", predicate: try FetchPredicate(format: format))
            let evaluated = Self.plates(try context.fetch(request))
            try context.save()
            context.reset()
            let fetched = Self.plates(try context.fetch(request))
            #expect(fetched == evaluated, "\(format): SQL \(fetched), evaluator \(evaluated)")
            #expect(fetched == Set(expected), "\(format)")
        }
    }

    @Test("Ordering a number or date attribute against text that is no number is a type mismatch, in SQL and in memory", arguments: [
        "mileage < 'nine'", "built > 'soon'",
    ])
    func refused(_ format: String) throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try Self.insert(Self.cars[1], into: context)
            let request = FetchRequest(entityName: "Car", predicate: try FetchPredicate(format: format))
            let car = try #require(context.registeredObjects.first)
            #expect(throws: FetchPredicateError.self) { try #require(request.predicate).evaluate(with: car) }
            try context.save()
            context.reset()
            #expect(throws: FetchPredicateError.self) { try context.fetch(request) }
        }
    }
}
