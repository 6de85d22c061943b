import Foundation
import Testing
@testable import Faultline

/// Containers created at the same moment on a file that does not exist yet
/// all open it: one bootstraps the store, the others find it whole — never
/// half made between two of their reads.
@Suite("Opening a new store from several threads at once")
struct ConcurrentStoreCreationTests {
    static func model() -> ManagedObjectModel { ManagedObjectModel { Entity("Item") { Attribute("name", .string) } } }

    @Test("Four threads opening the same new file, two hundred times: every open succeeds and every insert is stored")
    func racingOpens() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let failures = Locked<[String]>([])
        for round in 0..<200 {
            let url = directory.appendingPathComponent("\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                do {
                    let container = try PersistentContainer(model: Self.model(), location: .file(url))
                    let context = container.newBackgroundContext()
                    try context.performAndWait {
                        try context.insertNewObject(forEntityName: "Item").setValue("\(thread)", forKey: "name")
                        try context.save()
                    }
                } catch {
                    failures.withLock { $0.append("round \(round), thread \(thread): \(error)") }
                }
            }
            let reader = try PersistentContainer(model: Self.model(), location: .file(url)).newBackgroundContext()
            let count = try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Item")) }
            if count != 4 { failures.withLock { $0.append("round \(round): \(count) items stored") } }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
