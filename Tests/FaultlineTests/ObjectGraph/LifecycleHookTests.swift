import Foundation
import Testing
@testable import Faultline

/// `willSave` and `didSave` as Core Data apps use them: a primitive set in
/// `willSave` reaches the store, deleted objects get both calls with
/// `isDeleted` true, and a save from inside a save is a typed error.
// Serialized: the hooks count into static state the tests share.
@Suite("willSave and didSave hooks", .serialized)
struct LifecycleHookTests {
    /// The seed's own pattern (shared/seeds/000), written as Apple documents it.
    final class Article: ManagedObject {
        nonisolated(unsafe) static var willSaveDeleted: [String] = []
        nonisolated(unsafe) static var didSaveDeleted: [String] = []
        nonisolated(unsafe) static var saveInside: ((ManagedObjectContext) throws -> Void)?
        nonisolated(unsafe) static var insideError: Error?
        /// Each willSave that stamps writes the next date, so every save's stamp differs.
        nonisolated(unsafe) static var stamps = 0

        override func willSave() {
            if !isDeleted && changedValues().keys.contains("name") {
                Self.stamps += 1
                try? setPrimitiveValue(Date(timeIntervalSinceReferenceDate: Double(Self.stamps)), forKey: "lastModified")
            }
            if isDeleted, let name = value(forKey: "name") as? String { Self.willSaveDeleted.append(name) }
            if let saveInside = Self.saveInside, let context = managedObjectContext {
                do { try saveInside(context) } catch { Self.insideError = error }
            }
        }

        override func didSave() {
            if isDeleted, let name = value(forKey: "name") as? String { Self.didSaveDeleted.append(name) }
        }
    }

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Article", className: "Article") {
                Attribute("name", .string)
                Attribute("lastModified", .date)
            }
        }
    }

    private func container() throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(Self.model())
        try container.register(Article.self, forEntityName: "Article")
        return (container, url)
    }

    private func storedDate(_ container: PersistentContainer, _ id: ManagedObjectID) throws -> Date? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.existingObject(with: id).value(forKey: "lastModified") as? Date }
    }

    @Test("A primitive set in willSave on an update is written to the store, and nothing is left unsaved")
    func primitiveInWillSaveIsSaved() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        Article.stamps = 0
        let context = container.newBackgroundContext()
        let id: ManagedObjectID = try context.performAndWait {
            let article = try context.insertObject(Article.self)
            try article.setPrimitiveValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "lastModified")
            try article.setValue("First", forKey: "name")
            try context.save()
            try article.setPrimitiveValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "lastModified")
            try context.save()
            try article.setValue("Second", forKey: "name")
            try context.save()
            #expect(!context.hasChanges)
            #expect(article.value(forKey: "lastModified") as? Date == Date(timeIntervalSinceReferenceDate: 2))
            return article.objectID
        }
        #expect(Article.stamps == 2)
        #expect(try storedDate(container, id) == Date(timeIntervalSinceReferenceDate: 2))
    }

    @Test("Deleted objects get willSave and didSave, with isDeleted true and their values readable")
    func deletedObjectsGetHooks() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        Article.willSaveDeleted = []
        Article.didSaveDeleted = []
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let kept = try context.insertObject(Article.self)
            try kept.setValue("Kept", forKey: "name")
            let gone = try context.insertObject(Article.self)
            try gone.setValue("Gone", forKey: "name")
            let never = try context.insertObject(Article.self)
            try never.setValue("Never saved", forKey: "name")
            try context.save()
            context.delete(gone)
            let unsaved = try context.insertObject(Article.self)
            try unsaved.setValue("Inserted then deleted", forKey: "name")
            context.delete(unsaved)
            try context.save()
            #expect(gone.isDeleted)
            #expect(gone.managedObjectContext == nil)
        }
        #expect(Article.willSaveDeleted == ["Gone"])
        #expect(Article.didSaveDeleted == ["Gone"])
    }

    @Test("save() called from willSave is refused with SaveError.recursiveSave, and the outer save completes")
    func recursiveSaveIsTyped() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        Article.insideError = nil
        Article.saveInside = { try $0.save() }
        defer { Article.saveInside = nil }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let article = try context.insertObject(Article.self)
            try article.setValue("Loop", forKey: "name")
            try context.save()
            #expect(!context.hasChanges)
            #expect(try context.count(for: FetchRequest(entityName: "Article")) == 1)
        }
        guard case SaveError.recursiveSave? = Article.insideError else {
            Issue.record("expected SaveError.recursiveSave, got \(String(describing: Article.insideError))")
            return
        }
    }
}
