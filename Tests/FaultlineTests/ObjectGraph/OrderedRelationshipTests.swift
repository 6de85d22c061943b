import Foundation
import Testing
@testable import Faultline

/// An ordered to-many takes the order it is given and keeps it through a save:
/// `setValue` with the same members reordered, and the `NSMutableOrderedSet`
/// operations (insert at, remove at, replace at, move), one-to-many and
/// many-to-many alike.
@Suite("Reordering ordered to-many relationships")
struct OrderedRelationshipTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Playlist") {
                Attribute("name", .string)
                Relationship("songs", to: "Song", inverse: "playlist", toMany: true, ordered: true)
                Relationship("tags", to: "Tag", inverse: "playlists", toMany: true, ordered: true)
            }
            Entity("Song") {
                Attribute("title", .string)
                Relationship("playlist", to: "Playlist", inverse: "songs")
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("playlists", to: "Playlist", inverse: "tags", toMany: true)
            }
        }
    }

    private func names(_ object: ManagedObject, _ key: String, _ attribute: String) -> [String] {
        (object.value(forKey: key) as? [ManagedObject])?.compactMap { $0.value(forKey: attribute) as? String } ?? []
    }

    /// A saved playlist with songs a–e and tags t1–t3; returns the store's order after `change`, read in a new context.
    private func afterSave(_ change: (ManagedObject, ManagedObjectContext) throws -> Void) throws -> (songs: [String], tags: [String]) {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let playlist = try context.insertNewObject(forEntityName: "Playlist")
            for title in ["a", "b", "c", "d", "e"] {
                let song = try context.insertNewObject(forEntityName: "Song")
                try song.setValue(title, forKey: "title")
                try playlist.addObject(song, toRelationship: "songs")
            }
            for label in ["t1", "t2", "t3"] {
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue(label, forKey: "label")
                try playlist.addObject(tag, toRelationship: "tags")
            }
            try context.save()
            try change(playlist, context)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let playlist = try #require(try reader.fetch(FetchRequest(entityName: "Playlist")).first)
            return (names(playlist, "songs", "title"), names(playlist, "tags", "label"))
        }
    }

    @Test("setValue with the same members in a new order keeps the new order, one-to-many and many-to-many")
    func setValueReorders() throws {
        let stored = try afterSave { playlist, _ in
            let songs = try #require(playlist.value(forKey: "songs") as? [ManagedObject])
            try playlist.setValue(Array(songs.reversed()), forKey: "songs")
            let tags = try #require(playlist.value(forKey: "tags") as? [ManagedObject])
            try playlist.setValue([tags[2], tags[0], tags[1]], forKey: "tags")
            #expect(playlist.changedValues()["songs"] != nil)
        }
        #expect(stored.songs == ["e", "d", "c", "b", "a"])
        #expect(stored.tags == ["t3", "t1", "t2"])
    }

    @Test("Move, insert at, remove at and replace at, as NSMutableOrderedSet's operations")
    func orderedSetOperations() throws {
        let stored = try afterSave { playlist, context in
            try playlist.moveObjects(at: IndexSet([3, 4]), to: 0, inOrderedRelationship: "songs")
            #expect(names(playlist, "songs", "title") == ["d", "e", "a", "b", "c"])
            let song = try context.insertNewObject(forEntityName: "Song")
            try song.setValue("new", forKey: "title")
            try playlist.insertObject(song, at: 2, inOrderedRelationship: "songs")
            try playlist.removeObject(at: 0, fromOrderedRelationship: "songs")
            let replacement = try context.insertNewObject(forEntityName: "Song")
            try replacement.setValue("replaced", forKey: "title")
            try playlist.replaceObject(at: 3, with: replacement, inOrderedRelationship: "songs")
            #expect(names(playlist, "songs", "title") == ["e", "new", "a", "replaced", "c"])
            try playlist.moveObjects(at: IndexSet([0]), to: 2, inOrderedRelationship: "tags")
        }
        #expect(stored.songs == ["e", "new", "a", "replaced", "c"])
        #expect(stored.tags == ["t2", "t3", "t1"])
    }

    @Test("A position out of range or an unordered relationship throws and changes nothing")
    func badPositions() throws {
        let stored = try afterSave { playlist, _ in
            #expect(throws: ObjectAccessError.indexOutOfRange(entity: "Playlist", key: "songs", index: 9, count: 5)) {
                try playlist.removeObject(at: 9, fromOrderedRelationship: "songs")
            }
            #expect(throws: ObjectAccessError.indexOutOfRange(entity: "Playlist", key: "songs", index: 7, count: 5)) {
                try playlist.moveObjects(at: IndexSet([7]), to: 0, inOrderedRelationship: "songs")
            }
            #expect(throws: ObjectAccessError.wrongType(entity: "Playlist", key: "name", expected: "an ordered to-many relationship")) {
                try playlist.removeObject(at: 0, fromOrderedRelationship: "name")
            }
            #expect(playlist.changedValues().isEmpty)
        }
        #expect(stored.songs == ["a", "b", "c", "d", "e"])
    }
}
