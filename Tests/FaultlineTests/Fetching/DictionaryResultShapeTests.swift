import Foundation
import Testing
@testable import Faultline

/// What a dictionary fetch gives for values that are not one plain column, as
/// Core Data's `.dictionaryResultType` gives them: an object's ID (a to-one,
/// or the object itself through `SELF`) names the object's own entity, a
/// sub-entity included; a composite asked for whole is one dictionary of its
/// elements; and batch inserts take a composite whole the same way.
@Suite("Dictionary results: object IDs of sub-entities, SELF and whole composites")
struct DictionaryResultShapeTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Party", abstract: true) { Attribute("name", .string) }
            Entity("Company", parent: "Party") { Attribute("staff", .integer32) }
            Entity("Person", parent: "Party") { Attribute("age", .integer16) }
            Entity("Item") {
                Attribute("title", .string)
                Relationship("owner", to: "Party")
                Composite("size") {
                    Attribute("width", .double)
                    Composite("depth") { Attribute("cm", .double) }
                }
            }
        }
    }

    /// Two items owned by a company and a person; returns their IDs by title, and the owners' IDs.
    static func seed(_ container: PersistentContainer) throws -> (items: [String: ManagedObjectID], owners: [String: ManagedObjectID]) {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let company = try context.insertNewObject(forEntityName: "Company")
            try company.setValue("Acme", forKey: "name")
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("Ada", forKey: "name")
            var items: [String: ManagedObject] = [:]
            for (title, owner, width) in [("anvil", company, 2.5), ("book", person, 0.2)] {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(title, forKey: "title")
                try item.setDestination(owner, forKey: "owner")
                try item.setValue(["width": width, "depth": ["cm": width * 10]], forKey: "size")
                items[title] = item
            }
            try context.save()
            return (items.mapValues(\.objectID), ["Acme": company.objectID, "Ada": person.objectID])
        }
    }

    @Test("A to-one to an entity with sub-entities, and SELF, give each object's own ID")
    func objectIDs() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let (items, owners) = try Self.seed(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Item")
            request.propertiesToFetch = ["title", "owner"]
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let rows = try context.fetchDictionaries(request)
            #expect(rows.map { $0["owner"] as? ManagedObjectID } == [owners["Acme"], owners["Ada"]])
            let owner = try context.existingObject(with: try #require(rows.first?["owner"] as? ManagedObjectID))
            #expect(owner.entity?.name == "Company")

            request.expressionsToFetch = [try ExpressionDescription(name: "id", format: "SELF", resultType: .objectIDAttributeType)]
            let withIDs = try context.fetchDictionaries(request)
            #expect(withIDs.map { $0["id"] as? ManagedObjectID } == [items["anvil"], items["book"]])
            #expect(withIDs.map { $0["owner"] as? ManagedObjectID } == [owners["Acme"], owners["Ada"]])

            var parties = FetchRequest(entityName: "Party")
            parties.expressionsToFetch = [try ExpressionDescription(name: "id", format: "SELF", resultType: .objectIDAttributeType)]
            parties.sortDescriptors = [FetchSortDescriptor(key: "name")]
            #expect(try context.fetchDictionaries(parties).map { $0["id"] as? ManagedObjectID } == [owners["Acme"], owners["Ada"]])
        }
    }

    @Test("A composite asked for whole is one dictionary of its elements, nested as value(forKey:) gives it")
    func wholeComposite() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        _ = try Self.seed(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Item")
            request.propertiesToFetch = ["title", "size"]
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let rows = try context.fetchDictionaries(request)
            let anvil = try #require(rows.first?["size"] as? [String: Any])
            #expect(anvil["width"] as? Double == 2.5)
            #expect((anvil["depth"] as? [String: Any])?["cm"] as? Double == 25)
            #expect(rows.first?["size.width"] == nil)
            #expect(Set(try #require(rows.first).keys) == ["title", "size"])

            request.propertiesToFetch = ["size", "size.width"]
            let both = try #require(try context.fetchDictionaries(request).first)
            #expect(both["size.width"] as? Double == 2.5)
            #expect((both["size"] as? [String: Any])?["width"] as? Double == 2.5)
        }
    }

    @Test("A batch insert takes a composite whole, nested or by dotted element keys; an unknown element is named")
    func batchInsertWholeComposite() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = try BatchInsertRequest(entityName: "Item", in: container.model, objects: [
                ["title": "cup", "size": ["width": 0.1, "depth": ["cm": 8.0]]],
                ["title": "mug", "size": ["width": 0.2, "depth.cm": 9.0]],
            ])
            _ = try context.execute(request)
            var fetch = FetchRequest(entityName: "Item")
            fetch.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let items = try context.fetch(fetch)
            #expect(items.map { $0.value(forKey: "size.width") as? Double } == [0.1, 0.2])
            #expect(items.map { $0.value(forKey: "size.depth.cm") as? Double } == [8.0, 9.0])
            #expect(throws: BatchError.unknownProperty(entity: "Item", key: "size.height")) {
                try context.execute(try BatchInsertRequest(
                    entityName: "Item", in: container.model, objects: [["size": ["height": 1.0]]]))
            }
        }
    }
}
