import Foundation
import Testing
@testable import Faultline

/// A constraint a parent entity declares holds across its whole hierarchy,
/// sibling sub-entities included (the unique index covers them all), and one
/// a sub-entity declares holds among that sub-entity's rows: the save's check
/// against stored rows has the same scope, so a duplicate is a typed conflict
/// the merge policy sees, never SQLite's constraint error.
@Suite("Uniqueness constraints in an entity hierarchy: checked over the declaring entity's rows")
struct InheritedUniquenessTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Person", abstract: true) {
                Attribute("name", .string)
                Attribute("email", .string).unique()
            }
            Entity("Employee", parent: "Person") {
                Attribute("salary", .double)
                Unique("name")
            }
            Entity("Customer", parent: "Person") { Attribute("tier", .integer16) }
        }
    }

    /// A saved Customer with `email` and `name`, and a context on its store.
    static func seeded() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let (container, url) = try LibraryModel.container(model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let customer = try context.insertNewObject(forEntityName: "Customer")
            try customer.setValue("Cy", forKey: "name")
            try customer.setValue("c@x", forKey: "email")
            try context.save()
        }
        return (container, url, context)
    }

    @Test("A new Employee with a stored Customer's email: under the error policy a uniqueness conflict naming both, nothing written")
    func siblingConflictUnderError() throws {
        let (container, url, context) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let customer = try #require(try context.fetch(FetchRequest(entityName: "Customer")).first)
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("Dee", forKey: "name")
            try employee.setValue("c@x", forKey: "email")
            #expect {
                try context.save()
            } throws: { error in
                SaveError.failed(error, firstOn: .uniqueness(employee.objectID, existing: customer.objectID, constraint: ["email"]))
            }
            #expect(context.hasChanges)
        }
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Person")) } == 1)
    }

    @Test("Under object trump the new Employee gives way to the stored Customer, and the save succeeds")
    func siblingConflictUnderObjectTrump() throws {
        let (container, url, context) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            context.mergePolicy = .mergeByPropertyObjectTrump
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("Dee", forKey: "name")
            try employee.setValue("c@x", forKey: "email")
            try context.save()
            #expect(employee.managedObjectContext == nil)
        }
        let reader = container.newBackgroundContext()
        let entities = try reader.performAndWait { try reader.fetch(FetchRequest(entityName: "Person")).compactMap { $0.entity?.name } }
        #expect(entities == ["Customer"])
    }

    @Test("A constraint a sub-entity declares holds among its own rows only")
    func ownConstraintStaysWithinTheSubEntity() throws {
        let (container, url, context) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            // Same name as the stored Customer: Employee's own constraint does not reach it.
            let first = try context.insertNewObject(forEntityName: "Employee")
            try first.setValue("Cy", forKey: "name")
            try first.setValue("e1@x", forKey: "email")
            try context.save()
            let second = try context.insertNewObject(forEntityName: "Employee")
            try second.setValue("Cy", forKey: "name")
            try second.setValue("e2@x", forKey: "email")
            #expect {
                try context.save()
            } throws: { error in
                SaveError.failed(error, firstOn: .uniqueness(second.objectID, existing: first.objectID, constraint: ["name"]))
            }
        }
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Person")) } == 2)
    }
}
