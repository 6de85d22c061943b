import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("A new uniqueness constraint that existing rows violate fails and changes nothing")
struct ConstraintViolationTests {
    typealias S = MigrationSupport

    @Test("The error names the entity, the properties and the duplicated values; the store's content is unchanged")
    func violationLeavesStoreUnchanged() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        let v1 = S.model {
            Entity("Account") {
                Attribute("email", .string)
                Attribute("region", .string)
            }
        }
        try S.populate(url, v1) { context in
            for (email, region) in [("a@x", "eu"), ("b@x", "us"), ("a@x", "eu"), ("c@x", "eu"), ("b@x", "us"), ("a@x", "us")] {
                let account = try context.insertNewObject(forEntityName: "Account")
                try account.setValue(email, forKey: "email")
                try account.setValue(region, forKey: "region")
            }
        }
        let before = try S.content(url)
        // Also a rebuild (a new column in the middle) so the failure comes after real work.
        let v2 = S.model {
            Entity("Account") {
                Attribute("email", .string)
                Attribute("name", .string)
                Attribute("region", .string)
                Unique("email", "region")
            }
        }
        #expect {
            _ = try PersistentContainer(model: v2, location: .file(url),
                                        migration: MigrationOptions(path: .lightweight([try ModelVersion(v1)])))
        } throws: { error in
            guard case MigrationError.constraintViolation(let entity, let properties, let duplicates) = error else { return false }
            return entity == "Account" && properties == ["email", "region"]
                && duplicates == [[.text("a@x"), .text("eu")], [.text("b@x"), .text("us")]]
                && "\(error)".contains("a@x")
        }
        #expect(try S.content(url) == before)
        #expect(try S.rows(url, "PRAGMA integrity_check") == [[.text("ok")]])
        // Still the old store: it opens with the old model.
        _ = try PersistentContainer(model: v1, location: .file(url))
    }
}
