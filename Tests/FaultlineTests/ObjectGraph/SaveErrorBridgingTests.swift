import Foundation
import Testing
@testable import Faultline

/// A failed save read as an `NSError`, as Core Data code reads it: the
/// domain, Core Data's code and its user-info keys.
@Suite("A save's error read as an NSError carries Core Data's codes and keys")
struct SaveErrorBridgingTests {
    /// The error of saving `change` in a fresh context of a library store.
    private func saveError(_ change: (ManagedObjectContext) throws -> Void) throws -> NSError {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> NSError in
            try context.insertNewObject(forEntityName: "Author").setValue("Ursula", forKey: "name")
            try context.save()
            try change(context)
            do {
                try context.save()
            } catch {
                return error as NSError
            }
            Issue.record("the save succeeded")
            return NSError(domain: "none", code: 0)
        }
    }

    @Test("One missing required value: code 1570, the key and the object's ID")
    func oneValidationFailure() throws {
        var id: ManagedObjectID?
        let error = try saveError { context in
            let book = try context.insertNewObject(forEntityName: "Book")
            try context.obtainPermanentIDs(for: [book])
            id = book.objectID
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 1570)
        #expect(error.userInfo[CoreDataErrorCode.validationKeyErrorKey] as? String == "title")
        #expect(error.userInfo[CoreDataErrorCode.validationObjectErrorKey] as? ManagedObjectID == id)
        #expect(error.localizedDescription.contains("title"))
    }

    @Test("Two failures: code 1560, each an NSError of its own under NSDetailedErrors")
    func multipleValidationFailures() throws {
        let error = try saveError { context in
            _ = try context.insertNewObject(forEntityName: "Book")
            try context.insertNewObject(forEntityName: "Author").setValue("Al", forKey: "name")
        }
        #expect(error.code == CoreDataErrorCode.validationMultipleErrors)
        let details = try #require(error.userInfo[CoreDataErrorCode.detailedErrorsKey] as? [NSError])
        #expect(Set(details.map(\.code)) == [1570, ValidationCode.tooShort.rawValue])
        #expect(Set(details.compactMap { $0.userInfo[CoreDataErrorCode.validationKeyErrorKey] as? String }) == ["title", "name"])
        #expect(details.allSatisfy { $0.domain == NSCocoaErrorDomain })
    }

    @Test("A uniqueness conflict: the constraint merge error, the conflicts under conflictList")
    func constraintConflict() throws {
        let error = try saveError { context in
            try context.insertNewObject(forEntityName: "Author").setValue("Ursula", forKey: "name")
        }
        #expect(error.code == CoreDataErrorCode.managedObjectConstraintMerge)
        let conflicts = try #require(error.userInfo[CoreDataErrorCode.saveConflictsErrorKey] as? [SaveConflict])
        #expect(conflicts.count == 1)
        #expect(conflicts.allSatisfy { $0.isUniqueness })
    }

    @Test("Errors that are not validation or conflicts: NSCoreDataError, described")
    func otherErrors() {
        let error = SaveError.willSaveDidNotSettle(passes: 100) as NSError
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == CoreDataErrorCode.coreData)
        #expect(error.localizedDescription.contains("willSave"))
    }
}
