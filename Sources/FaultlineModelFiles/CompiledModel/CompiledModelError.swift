import Foundation
// What reading a compiled model reports when it cannot: a typed error whose kind
// says which layer failed (the file, the compression, the property list, the
// keyed archive, the model in it) and whose path says where inside the archive
// (`/NSEntities/Item/NSProperties/name/NSAttributeType`). What Faultline only
// leaves uninterpreted is a `ModelFileWarning` instead, as for model files.

/// A compiled model (`.mom`, `Z_MODELCACHE`) that cannot be read without
/// changing its meaning.
public struct CompiledModelError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file or store could not be opened or read.
        case unreadable
        /// The store has no `Z_MODELCACHE` table or no row in it.
        case noModelCache
        /// The deflate stream is corrupt or truncated.
        case corruptCompression
        /// Inflating would exceed the output cap: no real model is that large.
        case tooLarge
        /// The bytes are not a well-formed binary property list (`bplist00`).
        case malformedPropertyList
        /// The property list is not a well-formed keyed archive (`$objects`,
        /// `$top`, `CF$UID` references, `$class`).
        case malformedArchive
        /// The archive's root is not an `NSManagedObjectModel`, or a part of it
        /// has the wrong class or type.
        case notAModel
        /// The model contradicts itself (a relationship into no entity, an
        /// inheritance cycle, two entities of one name).
        case inconsistent
    }

    public let kind: Kind
    /// A sentence saying what is wrong.
    public let message: String
    /// The `.mom` file or the store.
    public let file: String
    /// Where in the archive, when the problem is in one object.
    public let path: String?

    public init(_ kind: Kind, _ message: String, file: String, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.path = path
    }

    /// `file: error: message (path)`.
    public var description: String {
        guard let path else { return "\(file): error: \(message)" }
        return "\(file): error: \(message) (\(path))"
    }
}

extension CompiledModelError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
