import Foundation
import Testing
import FaultlinePredicate
import FaultlineSQLite
@testable import Faultline

/// A Swift error's `localizedDescription` on Linux is "The operation could not
/// be completed" unless the error says otherwise; a service logs exactly that.
/// Faultline's errors say what their descriptions say.
@Suite("Errors say what happened through localizedDescription")
struct ErrorDescriptionTests {
    @Test("A save's, a fetch's, a store's, a predicate's, an access's and SQLite's errors read as their descriptions")
    func localizedDescriptions() throws {
        let errors: [any Error & CustomStringConvertible] = [
            SaveError.refusedAccess([.unknownKey(entity: "Item", key: "nope")]),
            FetchError.negativeFetchWindow(offset: -1, limit: 0),
            StoreError.objectNotFound("x-coredata://store/Item/p1"),
            ObjectAccessError.deleted("Item p1"),
            FetchPredicateError.invalidNumber(offset: 9, text: "12abc"),
            SQLiteError(extendedCode: 1, message: "no such table: t"),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect(!error.localizedDescription.contains("could not be completed"))
        }
        // Thrown by a real save: the validation issue is in the message.
        let (container, _) = try LibraryModel.container(ManagedObjectModel {
            Entity("Item") { Attribute("name", .string).required() }
        })
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            _ = try context.insertNewObject(forEntityName: "Item")
            let error = try #require(throws: SaveError.self) { try context.save() }
            #expect((error as any Error).localizedDescription == error.description)
            #expect((error as any Error).localizedDescription.contains("name"))
        }
    }
}
