import Foundation
import Testing
@testable import Faultline

/// The scenarios of Core Data's model-configuration guide (shared/seeds/000).
@Suite("Core Data model guide scenarios")
struct SeedScenarioTests {
    final class Category: ManagedObject {
        static let name = AttributeKey<String?>("name")
        static let lastModified = AttributeKey<Date?>("lastModified")
        static let createdAt = AttributeKey<Date?>("createdAt")
        var name: String? { get { self[Self.name] } set { self[Self.name] = newValue } }
        var lastModified: Date? { get { self[Self.lastModified] } set { self[Self.lastModified] = newValue } }

        override func awakeFromInsert() {
            try? setPrimitiveValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "createdAt")
        }

        override func willSave() {
            if changedValues()["name"] != nil, changedValues()["lastModified"] == nil {
                lastModified = Date()
            }
        }

        override func validateForDelete() throws {
            if name == "Protected" { throw ValidationIssue.custom("protected categories cannot be deleted") }
        }
    }

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Category", className: "Category") {
                Attribute("name", .string).validated(.minimumLength(3))
                Attribute("code", .string).validated(.pattern("[A-Z]{3}"))
                Attribute("rank", .integer32).validated(.minimumValue(.integer(1)), .maximumValue(.integer(10)))
                Attribute("lastModified", .date)
                Attribute("createdAt", .date)
                Unique("name")
            }
        }
    }

    private func container() throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(Self.model())
        try container.register(Category.self, forEntityName: "Category")
        return (container, url)
    }

    @Test("A unique name under store trump keeps the first and discards the second, without an error")
    func storeTrump() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.performAndWait {
            let first = try context.insertObject(Category.self)
            first.name = "Swift"
            try context.save()
            let second = try context.insertObject(Category.self)
            second.name = "Swift"
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Category")) == 1)
            #expect(second.managedObjectContext == nil)
            #expect(first.managedObjectContext === context)
        }
    }

    @Test("Under the error policy a duplicate fails the save and names both objects")
    func errorPolicy() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.insertObject(Category.self)
            first.name = "Swift"
            try context.save()
            let second = try context.insertObject(Category.self)
            second.name = "Swift"
            #expect {
                try context.save()
            } throws: { error in
                SaveError.failed(error, firstOn: .uniqueness(second.objectID, existing: first.objectID, constraint: ["name"]))
            }
            #expect(context.hasChanges)
            #expect(second.isInserted)
        }
    }

    @Test("Defaults set through primitives in awakeFromInsert leave no changed values")
    func awakeFromInsertPrimitives() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertObject(Category.self)
            #expect(category.value(forKey: "createdAt") as? Date == Date(timeIntervalSinceReferenceDate: 0))
            #expect(category.changedValues().isEmpty)
        }
    }

    @Test("willSave updates lastModified on every save that changes name, and only then")
    func willSave() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertObject(Category.self)
            category.name = "News"
            try context.save()
            let first = try #require(category.lastModified)
            category.setValueIgnoringErrors(2, forKey: "rank")
            try context.save()
            #expect(category.lastModified == first)
            category.name = "World"
            try context.save()
            #expect(try #require(category.lastModified) > first)
        }
    }

    @Test("A validateForDelete that refuses keeps the object in the store")
    func refusedDelete() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertObject(Category.self)
            category.name = "Protected"
            try context.save()
            context.delete(category)
            #expect(throws: SaveError.self) { try context.save() }
            context.rollback()
            #expect(try context.count(for: FetchRequest(entityName: "Category")) == 1)
            #expect(!category.isDeleted)
        }
    }

    @Test("A 2-letter name on a minimum length of 3 is too short; several failures come back together")
    func validationFailures() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let category = try context.insertObject(Category.self)
            category.name = "AB"
            try category.setValue("abc", forKey: "code")
            try category.setValue(11, forKey: "rank")
            do {
                try context.save()
                Issue.record("the save should have failed")
            } catch let error as SaveError {
                let codes = Set(error.validationIssues.map { "\($0.key ?? ""):\($0.code)" })
                #expect(codes == ["name:tooShort", "code:patternMismatch", "rank:tooLarge"])
            }
            // Nothing reached the store; the unsaved object is still pending in the context.
            var stored = FetchRequest(entityName: "Category")
            stored.includesPendingChanges = false
            #expect(try context.count(for: stored) == 0)
            #expect(try context.count(for: FetchRequest(entityName: "Category")) == 1)
            category.name = "ABC"
            try category.setValue("ABC", forKey: "code")
            try category.setValue(3, forKey: "rank")
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Category")) == 1)
        }
    }
}

extension ManagedObject {
    /// Test shorthand for values known to fit.
    func setValueIgnoringErrors(_ value: Any?, forKey key: String) {
        do { try setValue(value, forKey: key) } catch { Issue.record("setValue(\(key)) failed: \(error)") }
    }
}
