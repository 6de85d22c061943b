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

    private static func names(_ context: ManagedObjectContext, _ format: String, _ arguments: Any...) throws -> Set<String> {
        let request = FetchRequest(entityName: "Photo", predicate: try FetchPredicate(format: format, argumentArray: arguments))
        return Set(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String })
    }

    @Test("== and != and IN on an external-storage attribute find after the save what they found before it")
    func equalityComparesValues() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let small = Data([0xAA, 0xBB])
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Store.model())
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            let photo = try context.insertNewObject(forEntityName: "Photo")
            try photo.setValue("new", forKey: "name")
            try photo.setValue(small, forKey: "data")
            #expect(try Self.names(context, "data == %@", small) == ["new"])
            try context.save()
        }
        let fresh = try PersistentContainer(coreDataStoreAt: store.url, model: Store.model()).newBackgroundContext()
        try fresh.performAndWait { () throws -> Void in
            #expect(try Self.names(fresh, "data == %@", small) == ["new"])
            #expect(try Self.names(fresh, "data == %@", Data("inline bytes".utf8)) == ["inline"])
            #expect(try Self.names(fresh, "data != %@", small) == ["inline", "external", "missing"])
            #expect(try Self.names(fresh, "data IN %@", [small, Data("inline bytes".utf8)]) == ["new", "inline"])
            #expect(try Self.names(fresh, "data == nil") == [])
        }
        // A batch request's predicate compares values too.
        var delete = BatchDeleteRequest(entityName: "Photo", predicate: try FetchPredicate(format: "data == %@", small))
        delete.resultType = .count
        #expect(try container.coordinator.execute(delete).count == 1)
    }

    @Test("What SQL cannot answer over external storage (a value kept in a file, order, column to column) is refused")
    func unanswerableComparisonsAreRefused() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let large = Data(repeating: 9, count: CoreDataValueAdapter.externalThreshold + 1)
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Store.model()).newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            for format in ["data == %@", "data != %@", "data IN %@"] {
                let argument: Any = format.hasSuffix("IN %@") ? [large] : large
                #expect(throws: FetchError.self, "\(format)") { try Self.names(context, format, argument) }
            }
            #expect(throws: FetchError.self) { try Self.names(context, "data == tags") }
            #expect(throws: FetchPredicateError.self) { try Self.names(context, "data < %@", Data([1])) }
        }
    }
}
