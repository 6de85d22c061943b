// Object IDs written down as Core Data writes them — `x-coredata://<store
// UUID>/<Entity>/p<Z_PK>` — resolve back after the store is closed and
// reopened, through `managedObjectID(forURIRepresentation:)` and through
// Codable; URIs of other stores, unknown entities, unsaved objects and
// malformed text resolve to nothing or to a typed error.

import FixtureSupport
import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("Object ID URIs and Codable IDs")
struct ObjectIDURITests {
    private struct Bookmark: Codable {
        let label: String
        let book: ManagedObjectID
    }

    /// A saved book titled `title` and its ID.
    private func savedBook(_ container: PersistentContainer, title: String) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(title, forKey: "title")
            try context.save()
            return book.objectID
        }
    }

    private func title(of id: ManagedObjectID, in container: PersistentContainer) throws -> String? {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.existingObject(with: id).value(forKey: "title") as? String }
    }

    @Test("A saved object's URI is x-coredata://<Z_METADATA.Z_UUID>/<Entity>/p<Z_PK> and resolves after a restart")
    func uriSurvivesRestart() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try savedBook(container, title: "Dune")
        let uri = id.uriRepresentation()
        guard case .text(let storeUUID)? = try Connection(.file(url.path)).scalar("SELECT Z_UUID FROM Z_METADATA") else {
            Issue.record("no Z_UUID")
            return
        }
        #expect(uri.absoluteString == "x-coredata://\(storeUUID)/Book/p\(id.primaryKey)")
        #expect(container.coordinator.storeUUID == storeUUID)

        let reopened = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let resolved = try #require(reopened.coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(resolved != id, "a new coordinator's IDs are its own")
        #expect(resolved.primaryKey == id.primaryKey && resolved.entityIndex == id.entityIndex)
        #expect(try title(of: resolved, in: reopened) == "Dune")
        #expect(resolved.uriRepresentation() == uri)
    }

    @Test("URIs of another store, an unknown entity, an unsaved object or malformed text resolve to nil")
    func foreignAndMalformedURIs() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let coordinator = container.coordinator
        let id = try savedBook(container, title: "Dune")
        let uuid = coordinator.storeUUID
        let context = container.newBackgroundContext()
        let temporary = try context.performAndWait { try context.insertNewObject(forEntityName: "Book").objectID }
        #expect(temporary.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Book/t"))
        for text in ["x-coredata://\(UUID().uuidString)/Book/p\(id.primaryKey)", "x-coredata://\(uuid)/Nothing/p1",
                     "x-coredata://\(uuid)/Book/t5", "x-coredata://\(uuid)/Book/p0", "x-coredata://\(uuid)/Book/pxyz",
                     "x-coredata://\(uuid)/Book", "https://\(uuid)/Book/p1", temporary.uriRepresentation().absoluteString] {
            #expect(coordinator.managedObjectID(forURIRepresentation: try #require(URL(string: text))) == nil, "\(text)")
        }
        // The store UUID is matched without regard to case, as UUIDs are.
        let lower = try #require(URL(string: "x-coredata://\(uuid.lowercased())/Book/p\(id.primaryKey)"))
        #expect(coordinator.managedObjectID(forURIRepresentation: lower) == id)
    }

    @Test("Codable IDs encode as their URI and decode against the open store after a restart")
    func codableSurvivesRestart() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try savedBook(container, title: "Emma")
        let json = try JSONEncoder().encode(Bookmark(label: "to read", book: id))
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(id.uriRepresentation().absoluteString.replacingOccurrences(of: "/", with: "\\/")), "\(text)")

        let reopened = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        // Two coordinators on the same store: the decoder must be told which.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Bookmark.self, from: json) }
        let decoder = JSONDecoder()
        decoder.userInfo[ManagedObjectID.coordinatorKey] = reopened.coordinator
        let bookmark = try decoder.decode(Bookmark.self, from: json)
        #expect(try title(of: bookmark.book, in: reopened) == "Emma")
    }

    @Test("With one coordinator open the decoder finds it; with none, or for an unsaved ID, a typed error")
    func codableErrors() throws {
        let url = ScratchStores.url()
        defer { LibraryModel.remove(url) }
        var json = Data()
        do {
            let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
            json = try JSONEncoder().encode([try savedBook(container, title: "Kim")])
            let context = container.newBackgroundContext()
            let temporary = try context.performAndWait { try context.insertNewObject(forEntityName: "Book").objectID }
            #expect(throws: EncodingError.self) { try JSONEncoder().encode([temporary]) }
        }
        // Closed: nothing to decode against.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ManagedObjectID].self, from: json) }
        let reopened = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let ids = try JSONDecoder().decode([ManagedObjectID].self, from: json)
        #expect(try title(of: ids[0], in: reopened) == "Kim")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ManagedObjectID].self, from: Data(#"["not a uri"]"#.utf8)) }
    }
}
