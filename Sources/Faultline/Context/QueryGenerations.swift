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
    /// The generation this context reads, or nil when it reads the newest.
    public var queryGenerationToken: QueryGenerationToken? {
        pinnedGeneration.map { QueryGenerationToken(reader: $0) }
    }

    /// Pins the context's reads to `token`'s generation (`.current`: the store
    /// now), or, with nil, unpins them. Throws for an in-memory store and for
    /// another store's token.
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
        pinnedGeneration = reader
        queue.setSpecific(key: PinnedReader.key, value: reader)
    }

    /// A save, a reset or a merge moves a pinned context to the current
    /// generation, as Core Data's does; if no new one can be opened, the
    /// context reads unpinned.
    func advanceQueryGeneration() {
        guard pinnedGeneration != nil else { return }
        pin(try? PinnedReader(coordinator: coordinator))
    }
}
