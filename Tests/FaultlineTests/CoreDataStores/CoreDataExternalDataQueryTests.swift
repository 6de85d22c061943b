// Dictionary fetches and predicates over binary attributes a Core Data store
// keeps in Core Data's external-storage form (marker 1 and the bytes, marker 2
// and a file's name): they must see the values object fetches see, or refuse
// what SQL cannot answer, never answer from the stored form.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: dictionary fetches and predicates over external binary data")
struct CoreDataExternalDataQueryTests {
    typealias Store = CoreDataStoreValueTests

    private static func dictionaries(_ context: ManagedObjectContext, _ keys: [String]) throws -> [String: [String: Any]] {
        var request = FetchRequest(entityName: "Photo")
        request.resultType = .dictionaries
        request.propertiesToFetch = ["name"] + keys
        var byName: [String: [String: Any]] = [:]
        for row in try context.fetchDictionaries(request) { byName[row["name"] as? String ?? ""] = row }
        return byName
    }

    @Test("A dictionary fetch gives an external-storage attribute's value (inline or from its file), as an object fetch does")
    func dictionaryFetchDecodesMarkers() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Store.model()).newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            let rows = try Self.dictionaries(context, ["data"])
            #expect(rows["inline"]?["data"] as? Data == Data("inline bytes".utf8))
            #expect(rows["external"]?["data"] as? Data == Store.fileBytes)
            // A missing file reads as nil, which a dictionary leaves out.
            #expect(rows["missing"].map { $0["data"] == nil } == true)
        }
    }

    @Test("A dictionary fetch gives a transformable's decoded value, as value(forKey:) does, not its archive")
    func dictionaryFetchDecodesTransformables() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Store.model()).newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            let rows = try Self.dictionaries(context, ["tags"])
            #expect(rows["inline"]?["tags"] as? [String] == ["a", "b"])
            #expect(rows["external"].map { $0["tags"] == nil } == true)
        }
    }
}
