import Foundation

// Object IDs as Core Data writes them down: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`
// for a saved object, `x-coredata:///<Entity>/t<n>` for an unsaved one. A URI
// names the store by its UUID (`Z_METADATA.Z_UUID`) and the entity by name, so
// it survives a restart, a copy of the store file and a new model version that
// keeps the entity's name; the process-local store identifier never appears.

extension ManagedObjectID {
    /// The URI scheme Core Data uses for object IDs.
    public static let uriScheme = "x-coredata"

    /// Core Data's URI for this ID. A temporary ID's URI names no store and
    /// cannot be resolved later (save, then take the URI). An ID whose
    /// coordinator has closed keeps its `x-faultline` description form, which
    /// resolves nowhere.
    public func uriRepresentation() -> URL {
        guard let entry = OpenStores.entry(storeIdentifier), entry.entityNames.indices.contains(entityIndex),
              let url = URL(string: isTemporaryID
                  ? "\(Self.uriScheme):///\(Self.escaped(entry.entityNames[entityIndex]))/t\(-primaryKey)"
                  : "\(Self.uriScheme)://\(entry.storeUUID)/\(Self.escaped(entry.entityNames[entityIndex]))/p\(primaryKey)")
        else {
            return URL(string: description) ?? URL(fileURLWithPath: "/")
        }
        return url
    }

    /// Entity names are identifiers in practice; anything else is percent-encoded.
    private static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? name
    }

    /// The parts of a saved object's URI, or nil when `url` is not one.
    static func parse(_ url: URL) -> (storeUUID: String, entityName: String, primaryKey: Int64)? {
        guard url.scheme == uriScheme, let host = url.host, !host.isEmpty else { return nil }
        let parts = url.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, parts[1].hasPrefix("p"), let key = Int64(parts[1].dropFirst()), key > 0,
              let entity = parts[0].removingPercentEncoding, !entity.isEmpty else { return nil }
        return (host, entity, key)
    }
}

/// A saved object's ID encodes as its URI string. Decoding resolves the URI
/// against the open coordinator over the store it names: the one in the
/// decoder's `userInfo[ManagedObjectID.coordinatorKey]`, or else the only open
/// one with that store UUID.
extension ManagedObjectID: Codable {
    /// `userInfo` key for the `PersistentStoreCoordinator` that decodes IDs,
    /// needed when several coordinators have the same store open.
    public static let coordinatorKey = CodingUserInfoKey(rawValue: "Faultline.PersistentStoreCoordinator")!

    public func encode(to encoder: any Encoder) throws {
        guard !isTemporaryID else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "\(self) is a temporary ID: save the object before encoding its ID"))
        }
        guard OpenStores.entry(storeIdentifier) != nil else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "\(self) belongs to a coordinator that has closed: its store's UUID is no longer known"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(uriRepresentation().absoluteString)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        func failure(_ reason: String) -> DecodingError {
            DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: reason))
        }
        guard let url = URL(string: text), let (uuid, _, _) = Self.parse(url) else {
            throw failure("'\(text)' is not the URI of a saved object (x-coredata://<store UUID>/<Entity>/p<key>)")
        }
        if let coordinator = decoder.userInfo[Self.coordinatorKey] as? PersistentStoreCoordinator {
            guard let id = coordinator.managedObjectID(forURIRepresentation: url) else {
                throw failure("'\(text)' names another store or an unknown entity; the decoding coordinator's store is \(coordinator.storeUUID)")
            }
            self = id
            return
        }
        let open = OpenStores.identifiers(ofStoreUUID: uuid)
        guard open.count == 1, let entry = OpenStores.entry(open[0]), let (_, entityName, key) = Self.parse(url),
              let index = entry.entityNames.firstIndex(of: entityName) else {
            throw failure(open.isEmpty
                ? "no open store has UUID \(uuid): open it before decoding '\(text)'"
                : open.count > 1
                    ? "\(open.count) open coordinators have store \(uuid): name one in userInfo[ManagedObjectID.coordinatorKey]"
                    : "'\(text)' names no entity of store \(uuid)")
        }
        self.init(storeIdentifier: open[0], entityIndex: index, primaryKey: key)
    }
}
