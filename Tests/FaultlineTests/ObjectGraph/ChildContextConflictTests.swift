import Foundation
import Testing
@testable import Faultline

/// A child's save is checked against what its parent changed since the child
/// read an object, and the child's merge policy resolves it as it resolves a
/// store conflict.
@Suite("Child context conflicts")
struct ChildContextConflictTests {
    static let born = Date(timeIntervalSince1970: 1_000_000)

    /// The child reads Ann, then the parent renames her (unsaved); the child
    /// renames her too and sets her birth date.
    static func conflicting(_ policy: MergePolicy) throws -> (PersistentContainer, URL, ManagedObjectContext, ManagedObjectContext) {
        let (container, url, parent) = try ChildContextTests.seeded()
        let child = parent.newChildContext()
        child.mergePolicy = policy
        let ann = try child.performAndWait { () throws -> ManagedObject in
            let ann = try ChildContextTests.author("Ann", in: child)
            _ = ann.value(forKey: "name")
            return ann
        }
        try parent.performAndWait { try ChildContextTests.author("Ann", in: parent).setValue("Annabel", forKey: "name") }
        try child.performAndWait {
            try ann.setValue("Annie", forKey: "name")
            try ann.setValue(Self.born, forKey: "born")
        }
        return (container, url, parent, child)
    }

    /// The conflicts `body` throws (nil: it threw nothing, or something else).
    static func conflicts(_ body: () throws -> Void) -> [SaveConflict]? {
        do {
            try body()
        } catch SaveError.conflicts(let list) {
            return list
        } catch {
            return nil
        }
        return nil
    }

    static func parentAnn(_ parent: ManagedObjectContext) throws -> (name: String?, born: Date?) {
        try parent.performAndWait {
            let ann = try ChildContextTests.author("Annabel", in: parent)
            return (ann.value(forKey: "name") as? String, ann.value(forKey: "born") as? Date)
        }
    }

    @Test("Under .error the child's save fails with a parent-context conflict and pushes nothing")
    func errorPolicy() throws {
        let (container, url, parent, child) = try Self.conflicting(.error)
        defer { LibraryModel.remove(url) }
        let annID = try parent.performAndWait { try ChildContextTests.author("Annabel", in: parent).objectID }
        child.performAndWait {
            #expect(Self.conflicts { try child.save() } == [.parentContext(annID, parentDeleted: false)])
            #expect(child.hasChanges, "the child keeps its changes")
        }
        let ann = try Self.parentAnn(parent)
        #expect(ann.name == "Annabel" && ann.born == nil)
        _ = container
    }

    @Test("Object trump: the child's changed properties win over the parent's")
    func objectTrump() throws {
        let (container, url, parent, child) = try Self.conflicting(.mergeByPropertyObjectTrump)
        defer { LibraryModel.remove(url) }
        try child.performAndWait { try child.save() }
        try parent.performAndWait { () throws in
            let ann = try ChildContextTests.author("Annie", in: parent)
            #expect(ann.value(forKey: "born") as? Date == Self.born)
        }
        _ = container
    }

    @Test("Store trump: the parent's change wins where both changed a property; the child's other changes are pushed")
    func storeTrump() throws {
        let (container, url, parent, child) = try Self.conflicting(.mergeByPropertyStoreTrump)
        defer { LibraryModel.remove(url) }
        try child.performAndWait { try child.save() }
        let ann = try Self.parentAnn(parent)
        #expect(ann.name == "Annabel")
        #expect(ann.born == Self.born)
        _ = container
    }

    @Test("Rollback: the child's changes to the object give way to the parent's")
    func rollbackPolicy() throws {
        let (container, url, parent, child) = try Self.conflicting(.rollback)
        defer { LibraryModel.remove(url) }
        try child.performAndWait { try child.save() }
        let ann = try Self.parentAnn(parent)
        #expect(ann.name == "Annabel" && ann.born == nil)
        _ = container
    }

    @Test("An object the parent deleted since the child read it: .error reports it, another policy lets the deletion win and pushes the rest")
    func parentDeleted() throws {
        let (container, url, parent) = try ChildContextTests.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        try child.performAndWait { _ = try ChildContextTests.author("Bob", in: child).value(forKey: "name") }
        let bobID = try parent.performAndWait { () throws -> ManagedObjectID in
            let bob = try ChildContextTests.author("Bob", in: parent)
            parent.delete(bob)
            return bob.objectID
        }
        try child.performAndWait {
            let bob = try #require(child.registeredObject(for: bobID))
            try bob.setValue("Robert", forKey: "name")
            try ChildContextTests.author("Ann", in: child).setValue("Annie", forKey: "name")
            #expect(Self.conflicts { try child.save() } == [.parentContext(bobID, parentDeleted: true)])
            child.mergePolicy = .mergeByPropertyObjectTrump
            try child.save()
        }
        try parent.performAndWait { () throws in
            #expect(try ChildContextTests.names(parent) == ["Annie"])
            #expect(parent.deletedObjects.map(\.objectID) == [bobID])
        }
        _ = container
    }

    @Test("No conflict when the parent changed another property's object, or changed nothing the child read")
    func noConflict() throws {
        let (container, url, parent) = try ChildContextTests.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        try child.performAndWait { _ = try ChildContextTests.author("Ann", in: child).value(forKey: "name") }
        try parent.performAndWait { try ChildContextTests.author("Bob", in: parent).setValue("Bobby", forKey: "name") }
        try child.performAndWait {
            try ChildContextTests.author("Ann", in: child).setValue("Annie", forKey: "name")
            let statements = try ChildContextTests.statements(container) { try child.save() }
            #expect(statements == 0)
        }
        try parent.performAndWait { () throws in #expect(try ChildContextTests.names(parent) == ["Annie", "Bobby"]) }
    }
}
