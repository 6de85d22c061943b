import Foundation
import Testing
@testable import Faultline

/// A subclass initializer is user code: one that asks its context for other
/// objects while the context is registering it must leave the registry whole.
@Suite("A subclass initializer that asks its context for objects keeps the registry whole")
struct ReentrantInitializerTests {
    final class Book: ManagedObject {
        required init(_ construction: ObjectConstruction) {
            super.init(construction)
            // Registers a second fault while this object is being registered.
            let neighbour = objectID.primaryKey + 1_000
            if objectID.primaryKey < 1_000, let context = managedObjectContext {
                _ = try? context.object(with: ManagedObjectID(
                    storeIdentifier: objectID.storeIdentifier, entityIndex: objectID.entityIndex, primaryKey: neighbour))
            }
        }
    }

    @Test("100 faults whose initializers each register another: all 200 are registered, once")
    func nestedRegistration() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(Book.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            guard let entity = container.coordinator.model.entityIndexByName["Book"] else {
                Issue.record("no Book entity")
                return
            }
            let store = container.coordinator.identifier
            let ids = (Int64(1)...100).map { ManagedObjectID(storeIdentifier: store, entityIndex: entity, primaryKey: $0) }
            let objects = try ids.map { try context.object(with: $0) }
            for (id, object) in zip(ids, objects) {
                #expect(context.registeredObject(for: id) === object)
                let neighbour = ManagedObjectID(storeIdentifier: store, entityIndex: entity, primaryKey: id.primaryKey + 1_000)
                #expect(context.registeredObject(for: neighbour) != nil)
            }
            #expect(context.registeredObjects.count == 200)
            #expect(try ids.allSatisfy { try context.object(with: $0) === context.registeredObject(for: $0) })
        }
    }
}
