import Foundation
import Testing
@testable import Faultline

/// Core Data's unit tests give their store the URL `/dev/null` for a
/// throwaway store (Core Data by Tutorials' TestCoreDataStack); SQLite on
/// Linux cannot open the device as a database.
@Suite("A store at /dev/null is a throwaway in-memory store")
struct NullDeviceStoreTests {
    @Test("It opens, saves and fetches in memory, and each container's store starts empty")
    func throwaway() throws {
        for path in ["/dev/null", "/dev/../dev/null"] {
            let container = try PersistentContainer(model: LibraryModel.model(), location: .file(URL(fileURLWithPath: path)))
            #expect(container.coordinator.location == .inMemory)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                #expect(try context.count(for: FetchRequest(entityName: "Author")) == 0)
                try context.insertNewObject(forEntityName: "Author").setValue("Ursula", forKey: "name")
                try context.save()
                #expect(try context.count(for: FetchRequest(entityName: "Author")) == 1)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }
}
