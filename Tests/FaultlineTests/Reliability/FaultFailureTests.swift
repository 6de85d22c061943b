import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A fault the store cannot fulfil because a read fails is not taken for an
/// empty or missing object: it stays unfired, is read again at the next
/// access, and the next save throws the failure once and writes nothing.
@Suite("A fault that cannot be read is retried, and the save after it refuses to write", .serialized)
final class FaultFailureTests {
    let directory: URL
    let scope: IOScope
    let store: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-fault-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = directory.appendingPathComponent("store.sqlite")
        try IOFaultTests.populate(store)
        scope = try IOScope(directory: directory.path)
    }

    /// Each test has its own folder, removed with it.
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func firstAuthor(_ context: ManagedObjectContext) throws -> ManagedObject {
        var request = FetchRequest(entityName: "Author")
        request.predicate = try FetchPredicate(format: "name == 'Author 0'")
        return try #require(try context.fetch(request).first)
    }

    @Test("A to-many whose read fails stays unloaded; the save throws once; the next access reads every member")
    func toMany() throws {
        let container = try PersistentContainer(model: IOFaultTests.model(), location: .file(store))
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let author = try firstAuthor(context)
            try author.setValue("Renamed", forKey: "name")
            scope.inject(IOFault(.read, occurrence: 1, persistent: true))
            let books = try #require(author.value(forKey: "books") as? [ManagedObject])
            #expect(books.isEmpty)
            scope.clearFault()
            let error = try #require(throws: SaveError.self) { try context.save() }
            guard case .unfulfilledFaults(let failures) = error else {
                Issue.record("expected unfulfilledFaults, got \(error)")
                return
            }
            #expect(failures.map(\.relationship) == ["books"])
            #expect((failures.first?.underlying as? SQLiteError)?.code == .ioError)
            #expect(try IOFaultTests.names(in: store).contains("Author 0"))
            #expect((author.value(forKey: "books") as? [ManagedObject])?.count == IOFaultTests.booksPerAuthor)
            try context.save()
        }
        #expect(try IOFaultTests.names(in: store).contains("Renamed"))
    }

    @Test("An object fault whose read fails stays a fault and fires at the next access")
    func objectFault() throws {
        let uri: URL = try {
            let container = try PersistentContainer(model: IOFaultTests.model(), location: .file(store))
            let context = container.newBackgroundContext()
            return try context.performAndWait { try firstAuthor(context).objectID.uriRepresentation() }
        }()
        // A new container: nothing of the store in its row cache.
        let container = try PersistentContainer(model: IOFaultTests.model(), location: .file(store))
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let author = try context.object(with: try #require(container.coordinator.managedObjectID(forURIRepresentation: uri)))
            scope.inject(IOFault(.read, occurrence: 1, persistent: true))
            #expect(author.value(forKey: "name") == nil)
            #expect(author.isFault)
            scope.clearFault()
            #expect(throws: SaveError.self) { try context.save() }
            #expect(author.value(forKey: "name") as? String == "Author 0")
            try context.save()
        }
    }
}
