import Dispatch

/// Core Data's `NSQueryGenerationToken`: a version of the store a context's
/// reads are pinned to. `.current` asks for the store as it is now; a pinned
/// context's `queryGenerationToken` pins another context to the same version.
public struct QueryGenerationToken: Sendable, Equatable {
    /// The store as it is when the token is used.
    public static let current = QueryGenerationToken(reader: nil)

    let reader: PinnedReader?

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.reader?.number == rhs.reader?.number
    }
}

/// Query generations: a pinned context's fetches and faults keep reading the
/// store as it was when it was pinned, while other contexts and processes
/// commit, until it saves, is reset, merges other saves, or is moved (to
/// `.current` again, or unpinned with `nil`).
///
/// A generation is a read transaction held open on a connection of its own
/// (PinnedReader.swift): one connection per generation, shared by the contexts
/// pinned to it, closed when the last of them moves on. There is no fixed
/// limit; each costs a file descriptor and, while it lasts, keeps the
/// write-ahead log from being checkpointed past it, so the log grows until the
/// generation ends. A pinned context's faults bypass the row cache (whose rows
/// may be newer), and what it reads is never cached for others.
extension ManagedObjectContext {
    /// The generation this context reads — its own, or its parent's for a
    /// child — or nil when it reads the newest.
    public var queryGenerationToken: QueryGenerationToken? {
        generation.effective.map { QueryGenerationToken(reader: $0) }
    }

    /// Pins the context's reads to `token`'s generation (`.current`: the store
    /// now), or, with nil, unpins them: a child then reads its parent's
    /// generation again. Its children follow it. Throws for an in-memory
    /// store and for another store's token.
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        guard let token else { return pin(nil) }
        guard coordinator.supportsQueryGenerations else {
            throw StoreError.queryGenerationsUnavailable(reason: "an in-memory store has a single connection")
        }
        if let reader = token.reader {
            guard reader.coordinator == ObjectIdentifier(coordinator) else { throw StoreError.foreignQueryGeneration }
            pin(reader)
        } else {
            pin(try PinnedReader(coordinator: coordinator))
        }
    }

    private func pin(_ reader: PinnedReader?) {
        let (effective, children) = generation.pin(reader)
        read(effective, passingTo: children)
    }

    /// The parent's generation, read unless the context pinned its own.
    func inheritGeneration(_ reader: PinnedReader?) {
        guard let (effective, children) = generation.inherit(reader) else { return }
        read(effective, passingTo: children)
    }

    /// Every read on the context's queue goes to `reader` (nil: the newest
    /// store), and its children's too unless they pinned their own.
    private func read(_ reader: PinnedReader?, passingTo children: [ManagedObjectContext]) {
        generation.isPinned.store(reader != nil, ordering: .relaxed)
        queue.setSpecific(key: PinnedReader.key, value: reader)
        for child in children { child.inheritGeneration(reader) }
    }

    /// A save, a reset or a merge moves a context pinned itself to the
    /// current generation, as Core Data's does (its children follow); if no
    /// new one can be opened, the context reads unpinned.
    func advanceQueryGeneration() {
        guard generation.isPinned.load(ordering: .relaxed), generation.own != nil else { return }
        pin(try? PinnedReader(coordinator: coordinator))
    }
}
