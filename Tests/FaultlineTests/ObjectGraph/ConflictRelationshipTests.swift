import Foundation
import Testing
@testable import Faultline

/// What a merge policy does with relationships when it resolves a conflict:
/// the object a uniqueness merge keeps takes the duplicate's to-ones under
/// object trump and overwrite and keeps its own under store trump and
/// rollback; members the duplicate gathered join it under every policy; and
/// the saving context, the store and other contexts agree afterwards.
@Suite("Merge policies and relationships")
struct ConflictRelationshipTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("isbn", .string).unique()
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                Relationship("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true)
            }
            Entity("Tag") {
                Attribute("label", .string).unique()
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
            }
            Entity("Chapter") {
                Attribute("heading", .string)
                Relationship("book", to: "Book", inverse: "chapters")
            }
        }
    }

    static let resolving: [MergePolicy] = [.mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback]

    private static func insert(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: entity)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }

    private static func text(_ object: ManagedObject?, _ key: String) -> String {
        object.flatMap { $0.value(forKey: key) as? String } ?? "nil"
    }

    private static func members(_ object: ManagedObject, _ key: String, by name: String) -> [String] {
        (object.value(forKey: key) as? [ManagedObject] ?? []).map { text($0, name) }
    }

    /// What a context of a new container reads: the store itself.
    private static func stored<T>(_ url: URL, _ read: (ManagedObjectContext) throws -> T) throws -> T {
        let context = try PersistentContainer(model: model(), location: .file(url)).newBackgroundContext()
        return try context.performAndWait { try read(context) }
    }

    private static func only(_ entity: String, _ format: String, in context: ManagedObjectContext) throws -> ManagedObject? {
        try context.fetch(FetchRequest(entityName: entity, predicate: FetchPredicate(format: format))).first
    }

    @Test("A duplicate's to-one goes to the object kept under object trump and overwrite",
          arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite])
    func duplicateToOneTrumps(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            let ann = try Self.insert("Author", ["name": "Ann"], in: context)
            let kept = try Self.insert("Book", ["isbn": "1", "title": "Old"], in: context)
            try context.save()
            let duplicate = try Self.insert("Book", ["isbn": "1", "title": "New"], in: context)
            try duplicate.setValue(ann, forKey: "author")
            // An author inserted in the same save goes the same way.
            let bob = try Self.insert("Author", ["name": "Bob"], in: context)
            let second = try Self.insert("Book", ["isbn": "2"], in: context)
            try context.save()
            let secondDuplicate = try Self.insert("Book", ["isbn": "2"], in: context)
            try secondDuplicate.setValue(bob, forKey: "author")
            try context.save()
            #expect(Self.text(kept, "title") == "New")
            #expect(kept.value(forKey: "author") as? ManagedObject === ann)
            #expect(Self.members(ann, "books", by: "isbn") == ["1"])
            #expect(second.value(forKey: "author") as? ManagedObject === bob)
            #expect(Self.members(bob, "books", by: "isbn") == ["2"])
        }
        let authors = try Self.stored(url) { reader in
            try ["1", "2"].map { try Self.text(Self.only("Book", "isbn == '\($0)'", in: reader)?.value(forKey: "author") as? ManagedObject, "name") }
        }
        #expect(authors == ["Ann", "Bob"])
    }

    @Test("The object kept keeps its own to-one under store trump and rollback",
          arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func keptToOneStands(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            let ann = try Self.insert("Author", ["name": "Ann"], in: context)
            let bob = try Self.insert("Author", ["name": "Bob"], in: context)
            let kept = try Self.insert("Book", ["isbn": "1", "title": "Old"], in: context)
            try kept.setValue(bob, forKey: "author")
            try context.save()
            let duplicate = try Self.insert("Book", ["isbn": "1", "title": "New"], in: context)
            try duplicate.setValue(ann, forKey: "author")
            try context.save()
            #expect(Self.text(kept, "title") == "Old")
            #expect(kept.value(forKey: "author") as? ManagedObject === bob)
            #expect(Self.members(ann, "books", by: "isbn") == [])
            #expect(Self.members(bob, "books", by: "isbn") == ["1"])
        }
        let author = try Self.stored(url) { reader in
            try Self.text(Self.only("Book", "isbn == '1'", in: reader)?.value(forKey: "author") as? ManagedObject, "name")
        }
        #expect(author == "Bob")
    }

    @Test("Members a duplicate gathered join the object kept, in the context as in the store",
          arguments: resolving)
    func gatheredMembersJoin(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            let tag = try Self.insert("Tag", ["label": "swift"], in: context)
            let first = try Self.insert("Book", ["isbn": "b1"], in: context)
            try first.addObject(tag, toRelationship: "tags")
            try context.save()
            let duplicate = try Self.insert("Tag", ["label": "swift"], in: context)
            let second = try Self.insert("Book", ["isbn": "b2"], in: context)
            try second.addObject(duplicate, toRelationship: "tags")
            try context.save()
            #expect(Self.members(tag, "books", by: "isbn").sorted() == ["b1", "b2"])
            #expect(Self.members(second, "tags", by: "label") == ["swift"])
            // Replacing the members leaves exactly the new one in the store.
            let third = try Self.insert("Book", ["isbn": "b3"], in: context)
            try tag.setValue([third], forKey: "books")
            try context.save()
        }
        let books = try Self.stored(url) { reader in
            try Self.only("Tag", "label == 'swift'", in: reader).map { Self.members($0, "books", by: "isbn").sorted() }
        }
        #expect(books == ["b3"])
    }

    @Test("Ordered members a duplicate gathered join the object kept, in order", arguments: resolving)
    func gatheredOrderedMembersJoin(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        try context.performAndWait {
            let kept = try Self.insert("Book", ["isbn": "1"], in: context)
            try context.save()
            let duplicate = try Self.insert("Book", ["isbn": "1"], in: context)
            for heading in ["one", "two", "three"] {
                let chapter = try Self.insert("Chapter", ["heading": heading], in: context)
                try chapter.setValue(duplicate, forKey: "book")
            }
            try context.save()
            #expect(Self.members(kept, "chapters", by: "heading") == ["one", "two", "three"])
        }
        let headings = try Self.stored(url) { reader in
            try Self.only("Book", "isbn == '1'", in: reader).map { Self.members($0, "chapters", by: "heading") }
        }
        #expect(headings == ["one", "two", "three"])
    }

    @Test("Two new duplicates in one save: the first takes the second's to-one under object trump")
    func duplicatesWithinSave() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            let ann = try Self.insert("Author", ["name": "Ann"], in: context)
            let first = try Self.insert("Book", ["isbn": "1"], in: context)
            let second = try Self.insert("Book", ["isbn": "1", "title": "Second"], in: context)
            try second.setValue(ann, forKey: "author")
            try context.save()
            #expect(first.value(forKey: "author") as? ManagedObject === ann)
            #expect(Self.members(ann, "books", by: "title") == ["Second"])
        }
        let author = try Self.stored(url) { reader in
            try Self.text(Self.only("Book", "isbn == '1'", in: reader)?.value(forKey: "author") as? ManagedObject, "name")
        }
        #expect(author == "Ann")
    }

    @Test("An insert, then a stored object changed onto its unique value: the stored one is kept and named existing",
          arguments: [MergePolicy.error] + resolving)
    func storedObjectKeptOverEarlierInsert(_ policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let storedID = try context.performAndWait {
            let tag = try Self.insert("Tag", ["label": "old"], in: context)
            try context.save()
            return tag.objectID
        }
        context.mergePolicy = policy
        try context.performAndWait {
            let book = try Self.insert("Book", ["isbn": "1", "title": "t"], in: context)
            let fresh = try Self.insert("Tag", ["label": "swift"], in: context)
            try fresh.setValue([book], forKey: "books")
            let stored = try context.existingObject(with: storedID)
            try stored.setValue("swift", forKey: "label")
            guard policy != .error else {
                #expect {
                    try context.save()
                } throws: { error in
                    guard case SaveError.conflicts(let conflicts) = error else { return false }
                    return conflicts == [.uniqueness(fresh.objectID, existing: storedID, constraint: ["label"])]
                }
                return
            }
            try context.save()
            #expect(Self.members(stored, "books", by: "title") == ["t"])
            #expect((book.value(forKey: "tags") as? [ManagedObject])?.map(\.objectID) == [storedID])
        }
        guard policy != .error else { return }
        let (labels, titles) = try Self.stored(url) { reader in
            let tags = try reader.fetch(FetchRequest(entityName: "Tag"))
            return (tags.map { Self.text($0, "label") }, tags.map { Self.members($0, "books", by: "title") })
        }
        #expect(labels == ["swift"])
        #expect(titles == [["t"]])
    }

    /// A book and two authors saved; returns their IDs.
    private static func seedBook(_ container: PersistentContainer) throws -> (book: ManagedObjectID, ann: ManagedObjectID, bob: ManagedObjectID) {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let book = try insert("Book", ["isbn": "1", "title": "t"], in: context)
            let ann = try insert("Author", ["name": "Ann"], in: context)
            let bob = try insert("Author", ["name": "Bob"], in: context)
            try context.save()
            return (book.objectID, ann.objectID, bob.objectID)
        }
    }

    @Test("After a version conflict, other contexts read the to-one the store holds",
          arguments: [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite])
    func versionConflictCachesStoredToOne(policy: MergePolicy) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seedBook(container)
        let stale = container.newBackgroundContext()
        stale.mergePolicy = policy
        let book = try stale.performAndWait { try stale.existingObject(with: ids.book) }
        let first = container.newBackgroundContext()
        try first.performAndWait {
            try first.existingObject(with: ids.book).setValue(try first.existingObject(with: ids.ann), forKey: "author")
            try first.save()
        }
        try stale.performAndWait {
            try book.setValue("changed", forKey: "title")
            try stale.save()
        }
        let other = container.newBackgroundContext()
        let seen = try other.performAndWait {
            (Self.text(try other.existingObject(with: ids.book).value(forKey: "author") as? ManagedObject, "name"),
             try other.count(for: FetchRequest(entityName: "Book", predicate: FetchPredicate(format: "author == nil"))))
        }
        #expect(seen.0 == "Ann")
        #expect(seen.1 == 0)
        let inStore = try Self.stored(url) { reader in
            try Self.text(Self.only("Book", "isbn == '1'", in: reader)?.value(forKey: "author") as? ManagedObject, "name")
        }
        #expect(inStore == "Ann")
    }

    @Test("Under store trump the store's change of a to-one wins over the context's")
    func storeTrumpToOne() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let ids = try Self.seedBook(container)
        let stale = container.newBackgroundContext()
        stale.mergePolicy = .mergeByPropertyStoreTrump
        let book = try stale.performAndWait { try stale.existingObject(with: ids.book) }
        let first = container.newBackgroundContext()
        try first.performAndWait {
            let book = try first.existingObject(with: ids.book)
            try book.setValue(try first.existingObject(with: ids.ann), forKey: "author")
            try book.setValue("first", forKey: "title")
            try first.save()
        }
        try stale.performAndWait {
            let bob = try stale.existingObject(with: ids.bob)
            try book.setValue(bob, forKey: "author")
            try book.setValue("stale", forKey: "title")
            try stale.save()
            #expect(Self.text(book, "title") == "first")
            #expect(Self.text(book.value(forKey: "author") as? ManagedObject, "name") == "Ann")
            #expect(Self.members(bob, "books", by: "isbn") == [])
            #expect(Self.members(try stale.existingObject(with: ids.ann), "books", by: "isbn") == ["1"])
        }
        let author = try Self.stored(url) { reader in
            try Self.text(Self.only("Book", "isbn == '1'", in: reader)?.value(forKey: "author") as? ManagedObject, "name")
        }
        #expect(author == "Ann")
    }
}
