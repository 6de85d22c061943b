import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// A to-many changed in one context while another changes it too: a merge of
/// the other's save, a child's save into its parent and a merged deletion
/// each combine the two sets of additions and removals — what this context
/// changed stays changed, what it did not takes the other's — as Core Data's
/// merges do, instead of one list replacing the other.
@Suite("To-many changes combine across contexts")
struct ToManyAcrossContextsTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Team") {
                Attribute("name", .string)
                Relationship("members", to: "Person", inverse: "team", toMany: true, deleteRule: .cascade)
                Relationship("tags", to: "Tag", inverse: "teams", toMany: true)
                Relationship("queue", to: "Person", inverse: "queuedIn", toMany: true, ordered: true)
            }
            Entity("Person") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "members")
                Relationship("queuedIn", to: "Team", inverse: "queue")
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("teams", to: "Team", inverse: "tags", toMany: true)
            }
        }
    }

    /// Team T, people p1…p4, tags t1…t4; `members`, `tags` and `queue` as given.
    static func seed(
        _ container: PersistentContainer, members: [String] = [], tags: [String] = [], queue: [String] = []
    ) throws -> [String: ManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let team = try context.insertNewObject(forEntityName: "Team")
            try team.setValue("T", forKey: "name")
            var objects = ["T": team]
            for name in ["p1", "p2", "p3", "p4"] {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(name, forKey: "name")
                objects[name] = person
            }
            for name in ["t1", "t2", "t3", "t4"] {
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue(name, forKey: "name")
                objects[name] = tag
            }
            for name in members { try team.addObject(try #require(objects[name]), toRelationship: "members") }
            for name in tags { try team.addObject(try #require(objects[name]), toRelationship: "tags") }
            for name in queue { try team.addObject(try #require(objects[name]), toRelationship: "queue") }
            try context.save()
            return objects.mapValues(\.objectID)
        }
    }

    static func names(_ object: ManagedObject, _ key: String, sorted: Bool = true) -> [String] {
        let names = ((object.value(forKey: key) as? [ManagedObject]) ?? []).compactMap { $0.value(forKey: "name") as? String }
        return sorted ? names.sorted() : names
    }

    /// T's `key` as a fresh context reads it from the store.
    static func stored(_ container: PersistentContainer, _ key: String, sorted: Bool = true) throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let team = try #require(try reader.fetch(FetchRequest(entityName: "Team")).first)
            return names(team, key, sorted: sorted)
        }
    }

    /// `body` saves `context`; returns what its did-save notification carried.
    static func saving(_ context: ManagedObjectContext, _ body: () throws -> Void) throws -> ContextDidSave {
        final class Received: @unchecked Sendable { var changes: ContextDidSave? }
        let received = Received()
        let observer = NotificationCenter.default.addObserver(
            forName: .managedObjectContextDidSave, object: context, queue: nil
        ) { received.changes = $0.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave }
        defer { NotificationCenter.default.removeObserver(observer) }
        try body()
        return try #require(received.changes)
    }

    @Test("A merge keeps this context's additions to a loaded to-many and takes the other save's changes to the rest",
          arguments: [false, true])
    func mergeRebasesLoadedToMany(byRefresh: Bool) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container, members: ["p1", "p2"])
        let a = container.newBackgroundContext()
        a.mergePolicy = .mergeByPropertyObjectTrump
        let b = container.newBackgroundContext()
        try a.performAndWait {
            let team = try a.existingObject(with: try #require(ids["T"]))
            #expect(Self.names(team, "members") == ["p1", "p2"])
            try team.addObject(try a.existingObject(with: try #require(ids["p3"])), toRelationship: "members")
        }
        let saved = try Self.saving(b) {
            try b.performAndWait {
                let team = try b.existingObject(with: try #require(ids["T"]))
                try team.removeObject(try b.existingObject(with: try #require(ids["p1"])), fromRelationship: "members")
                try team.addObject(try b.existingObject(with: try #require(ids["p4"])), toRelationship: "members")
                try b.save()
            }
        }
        try a.performAndWait {
            let team = try a.existingObject(with: try #require(ids["T"]))
            let p1 = try a.existingObject(with: try #require(ids["p1"]))
            if byRefresh {
                a.refresh(team, mergeChanges: true)
                a.refresh(p1, mergeChanges: true)
            } else {
                a.mergeChanges(fromContextDidSave: saved)
            }
            #expect(Self.names(team, "members") == ["p2", "p3", "p4"])
            #expect(p1.value(forKey: "team") == nil)
            // The cascade follows the members as they are now: p1 left the team.
            a.delete(team)
            try a.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let people = try reader.fetch(FetchRequest(entityName: "Person")).compactMap { $0.value(forKey: "name") as? String }
            #expect(people == ["p1"])
        }
    }

    @Test("A save resolving a conflict by its merge policy shows the to-many the store then holds",
          arguments: [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite])
    func conflictRebasesLoadedToMany(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container, members: ["p1", "p2"], tags: ["t1", "t2"])
        let a = container.newBackgroundContext()
        a.mergePolicy = policy
        let b = container.newBackgroundContext()
        try a.performAndWait {
            let team = try a.existingObject(with: try #require(ids["T"]))
            #expect(Self.names(team, "members") == ["p1", "p2"] && Self.names(team, "tags") == ["t1", "t2"])
            try team.setValue("T2", forKey: "name")
            try team.addObject(try a.existingObject(with: try #require(ids["p3"])), toRelationship: "members")
            try team.addObject(try a.existingObject(with: try #require(ids["t3"])), toRelationship: "tags")
        }
        try b.performAndWait {
            let team = try b.existingObject(with: try #require(ids["T"]))
            try team.setValue("T3", forKey: "name")
            try team.removeObject(try b.existingObject(with: try #require(ids["p1"])), fromRelationship: "members")
            try team.addObject(try b.existingObject(with: try #require(ids["p4"])), toRelationship: "members")
            try team.removeObject(try b.existingObject(with: try #require(ids["t1"])), fromRelationship: "tags")
            try b.save()
        }
        try a.performAndWait {
            try a.save()
            let team = try a.existingObject(with: try #require(ids["T"]))
            #expect(Self.names(team, "members") == ["p2", "p3", "p4"], "\(policy)")
            #expect(Self.names(team, "tags") == ["t2", "t3"], "\(policy)")
        }
        #expect(try Self.stored(container, "members") == ["p2", "p3", "p4"], "\(policy)")
        #expect(try Self.stored(container, "tags") == ["t2", "t3"], "\(policy)")
    }

    @Test("A child's many-to-many additions combine with the parent's unsaved and saved changes; siblings' both stay")
    func childPushCombinesManyToMany() throws {
        for parentSaves in [false, true] {
            let (container, url) = try LibraryModel.container(Self.model())
            defer { LibraryModel.remove(url) }
            let ids = try Self.seed(container, tags: ["t1", "t2"])
            let parent = container.newBackgroundContext()
            let child = parent.newChildContext()
            try child.performAndWait {
                let team = try child.existingObject(with: try #require(ids["T"]))
                try team.addObject(try child.existingObject(with: try #require(ids["t3"])), toRelationship: "tags")
                #expect(Self.names(team, "tags") == ["t1", "t2", "t3"])
            }
            try parent.performAndWait {
                let team = try parent.existingObject(with: try #require(ids["T"]))
                try team.addObject(try parent.existingObject(with: try #require(ids["t4"])), toRelationship: "tags")
                try team.removeObject(try parent.existingObject(with: try #require(ids["t1"])), fromRelationship: "tags")
                if parentSaves { try parent.save() }
            }
            try child.performAndWait { try child.save() }
            try parent.performAndWait {
                let team = try parent.existingObject(with: try #require(ids["T"]))
                #expect(Self.names(team, "tags") == ["t2", "t3", "t4"], "parent saved first: \(parentSaves)")
                try parent.save()
            }
            #expect(try Self.stored(container, "tags") == ["t2", "t3", "t4"], "parent saved first: \(parentSaves)")
        }

        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container, tags: ["t1"])
        let parent = container.newBackgroundContext()
        let first = parent.newChildContext(), second = parent.newChildContext()
        for (child, tag) in [(first, "t2"), (second, "t3")] {
            try child.performAndWait {
                let team = try child.existingObject(with: try #require(ids["T"]))
                _ = Self.names(team, "tags")
                try team.addObject(try child.existingObject(with: try #require(ids[tag])), toRelationship: "tags")
            }
        }
        try first.performAndWait { try first.save() }
        second.mergePolicy = .mergeByPropertyObjectTrump
        try second.performAndWait { try second.save() }
        try parent.performAndWait { try parent.save() }
        #expect(try Self.stored(container, "tags") == ["t1", "t2", "t3"])
    }

    @Test("A child's new order of an ordered to-many reaches its parent and the store")
    func childPushesOrder() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container, queue: ["p1", "p2", "p3"])
        let parent = container.newBackgroundContext()
        let child = parent.newChildContext()
        try child.performAndWait {
            let team = try child.existingObject(with: try #require(ids["T"]))
            try team.moveObjects(at: IndexSet(integer: 2), to: 0, inOrderedRelationship: "queue")
            try team.insertObject(try child.existingObject(with: try #require(ids["p4"])), at: 1, inOrderedRelationship: "queue")
            #expect(Self.names(team, "queue", sorted: false) == ["p3", "p4", "p1", "p2"])
            try child.save()
        }
        try parent.performAndWait {
            let team = try parent.existingObject(with: try #require(ids["T"]))
            #expect(Self.names(team, "queue", sorted: false) == ["p3", "p4", "p1", "p2"])
            #expect(parent.hasChanges)
            try parent.save()
        }
        #expect(try Self.stored(container, "queue", sorted: false) == ["p3", "p4", "p1", "p2"])
    }

    @Test("A merged deletion leaves the to-manys and pending join rows of this context: no link to a missing row")
    func mergedDeletionLeavesPendingLinks() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seed(container)
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        try a.performAndWait {
            let team = try a.existingObject(with: try #require(ids["T"]))
            try team.addObject(try a.existingObject(with: try #require(ids["t1"])), toRelationship: "tags")
            try team.addObject(try a.existingObject(with: try #require(ids["t2"])), toRelationship: "tags")
        }
        let saved = try Self.saving(b) {
            try b.performAndWait {
                b.delete(try b.existingObject(with: try #require(ids["t1"])))
                try b.save()
            }
        }
        try a.performAndWait {
            a.mergeChanges(fromContextDidSave: saved)
            let team = try a.existingObject(with: try #require(ids["T"]))
            #expect(Self.names(team, "tags") == ["t2"])
            try a.save()
        }
        let joinRows = try container.coordinator.withReader { connection in
            let table = try connection.scalar("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TEAMS' ESCAPE '\\'")
            guard case .text(let name)? = table else { return SQLValue?.none }
            return try connection.scalar("SELECT COUNT(*) FROM \(name)")
        }
        #expect(joinRows == .integer(1))
        #expect(try Self.stored(container, "tags") == ["t2"])
    }
}
