import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

private typealias S = MigrationSupport

/// A version that adds a required to-one (wibosco's CoreDataMigration-Example:
/// `Post.color` becomes a required `Color`) leaves every existing row
/// without a destination: Core Data refuses such a lightweight migration when
/// it validates the migrated objects (error 134110); a custom stage's
/// `didMigrate` can give each row one.
@Suite("Migrating to a required to-one relationship")
struct RequiredRelationshipMigrationTests {
    static func posts(_ version: Int) -> ManagedObjectModel {
        S.model {
            Entity("Post") {
                Attribute("hexColor", .string)
                if version >= 2 { Relationship("color", to: "Color", inverse: "posts", optional: false) }
            }
            if version >= 2 {
                Entity("Color") {
                    Attribute("hex", .string)
                    Relationship("posts", to: "Post", inverse: "color", toMany: true)
                }
            }
        }
    }

    static func populated() throws -> URL {
        let url = S.temporaryStore()
        try S.populate(url, posts(1)) { context in
            for hex in ["#FF0000", "#00FF00", "#0000FF"] {
                try context.insertNewObject(forEntityName: "Post").setValue(hex, forKey: "hexColor")
            }
        }
        return url
    }

    @Test("Lightweight: refused, naming the relationship and the rows without one; the store is unchanged and the preflight lists them")
    func lightweightRefused() throws {
        let url = try Self.populated()
        defer { S.remove(url) }
        let before = try S.content(url)
        let v1 = try ModelVersion(Self.posts(1), label: "V1"), v2 = try ModelVersion(Self.posts(2), label: "V2")
        do {
            _ = try PersistentContainer(model: Self.posts(2), location: .file(url), migration: MigrationOptions(path: .lightweight([v1])))
            Issue.record("the migration left three posts without a color")
        } catch MigrationError.missingRelationship(let entity, let relationship, let rows) {
            #expect(entity == "Post" && relationship == "color" && rows == 3)
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(try S.content(url) == before)
        let preflight = try MigrationPreflight.run(on: Connection(.file(url.path)), from: v1, to: v2)
        #expect(preflight.emptyRelationships == [.init(entity: "Post", relationship: "color", rows: 3)])
        #expect(!preflight.isClean)
    }

    @Test("A custom stage whose didMigrate gives every row a destination migrates; one that leaves a row without fails the stage")
    func customStageFills() throws {
        let v1 = try ModelVersion(Self.posts(1), label: "V1"), v2 = try ModelVersion(Self.posts(2), label: "V2")
        func stage(fillingAll: Bool) -> StagedMigrationManager {
            StagedMigrationManager([.custom(from: v1, to: v2, label: "colors", didMigrate: { context in
                let posts = try context.fetch(FetchRequest(entityName: "Post"))
                for post in fillingAll ? posts : Array(posts.dropLast()) {
                    let color = try context.insertNewObject(forEntityName: "Color")
                    try color.setValue(post.value(forKey: "hexColor"), forKey: "hex")
                    try post.setValue(color, forKey: "color")
                }
                try context.save()
            })])
        }
        let partial = try Self.populated()
        defer { S.remove(partial) }
        let before = try S.content(partial)
        #expect(throws: MigrationError.self) {
            _ = try PersistentContainer(model: Self.posts(2), location: .file(partial),
                                        migration: MigrationOptions(path: .staged(stage(fillingAll: false))))
        }
        #expect(try S.content(partial) == before)

        let url = try Self.populated()
        defer { S.remove(url) }
        _ = try PersistentContainer(model: Self.posts(2), location: .file(url), migration: MigrationOptions(path: .staged(stage(fillingAll: true))))
        #expect(try S.rows(url, "SELECT p.ZHEXCOLOR = c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR") == Array(repeating: [.integer(1)], count: 3))
    }
}
