import Foundation

/// The contents of a store's `Z_METADATA` row: its UUID and the binary property
/// list Core Data keeps there.
///
/// Keys Faultline understands are typed fields; every other key (an app's own
/// metadata, keys of newer frameworks) is kept verbatim in `additional` and
/// written back, so opening and saving a store never drops metadata.
public struct StoreMetadata: Sendable, Equatable {
    /// `Z_UUID`: the store's identity, as Core Data writes it (upper-case UUID).
    public var uuid: String
    /// `NSStoreType`: "SQLite".
    public var storeType = "SQLite"
    /// `NSStoreModelVersionHashes`: entity name to its 32-byte version hash.
    public var entityVersionHashes: [String: Data]
    /// `NSStoreModelVersionHashesVersion`: 3 in every store seen.
    public var hashesVersion = 3
    /// `NSStoreModelVersionIdentifiers`: the model's version identifiers ([""] when unset).
    public var versionIdentifiers: [String] = [""]
    /// `NSPersistenceFrameworkVersion`: Core Data's framework build; Faultline
    /// writes the newest one observed in the fixtures.
    public var frameworkVersion: Int = StoreMetadata.observedFrameworkVersion
    /// `NSPersistenceMaximumFrameworkVersion`, when present.
    public var maximumFrameworkVersion: Int?
    /// `_NSAutoVacuumLevel`, a string in Core Data's stores ("2").
    public var autoVacuumLevel = "2"
    /// `NSStoreModelVersionChecksumKey`: base64 SHA-256 over the entity hashes in name order.
    public var checksum: String?
    /// `NSStoreModelVersionHashesDigest`: base64 SHA-512 over name + hash, in name order.
    public var digest: String?
    /// Every other key, kept as read.
    public var additional: [String: PropertyListValue] = [:]

    /// Framework 1523 wrote the newest fixture store (2026).
    public static let observedFrameworkVersion = 1523

    public init(uuid: String, entityVersionHashes: [String: Data]) {
        self.uuid = uuid
        self.entityVersionHashes = entityVersionHashes
        self.checksum = StoreMetadata.checksum(of: entityVersionHashes)
        self.digest = StoreMetadata.digest(of: entityVersionHashes)
        self.maximumFrameworkVersion = StoreMetadata.observedFrameworkVersion
    }

    /// What `NSStoreModelVersionIdentifiers` holds for a store of `model`: its
    /// identifiers, sorted (Core Data's are a set, so any order reads back the
    /// same). As Core Data writes them: [""] for a model file without an
    /// identifier (its reader gives the model the empty one), [] for a model
    /// built in code (CoreDataPlus's SampleModel2 stores).
    static func versionIdentifiers(of model: CheckedModel) -> [String] {
        model.versionIdentifiers.sorted()
    }

    /// base64(SHA-256(hash₁ ‖ hash₂ ‖ …)), entities in name order.
    public static func checksum(of hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted() { bytes.append(hashes[name] ?? Data()) }
        return SHA256.hash(bytes).base64EncodedString()
    }

    /// base64(SHA-512(name₁ ‖ hash₁ ‖ name₂ ‖ hash₂ ‖ …)), names in UTF-8, in name order.
    public static func digest(of hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted() {
            bytes.append(Data(name.utf8))
            bytes.append(hashes[name] ?? Data())
        }
        return SHA512.hash(bytes).base64EncodedString()
    }
}

/// Why a store's metadata could not be read.
public enum StoreMetadataError: Error, Equatable, CustomStringConvertible {
    case notAPropertyList(String)
    case missingKey(String)
    case wrongType(key: String, expected: String)

    public var description: String {
        switch self {
        case .notAPropertyList(let reason): return "Z_METADATA.Z_PLIST is not a property list: \(reason)"
        case .missingKey(let key): return "Z_METADATA.Z_PLIST lacks \(key)"
        case .wrongType(let key, let expected): return "Z_METADATA.Z_PLIST: \(key) is not \(expected)"
        }
    }
}

extension StoreMetadata {
    private enum Key {
        static let storeType = "NSStoreType"
        static let hashes = "NSStoreModelVersionHashes"
        static let hashesVersion = "NSStoreModelVersionHashesVersion"
        static let identifiers = "NSStoreModelVersionIdentifiers"
        static let framework = "NSPersistenceFrameworkVersion"
        static let maximumFramework = "NSPersistenceMaximumFrameworkVersion"
        static let autoVacuum = "_NSAutoVacuumLevel"
        static let checksum = "NSStoreModelVersionChecksumKey"
        static let digest = "NSStoreModelVersionHashesDigest"
        static let known: Set<String> = [
            storeType, hashes, hashesVersion, identifiers, framework, maximumFramework, autoVacuum, checksum, digest,
        ]
    }

    /// The binary property list for `Z_PLIST`.
    public func propertyList() throws -> Data {
        var plist: [String: Any] = additional.mapValues(\.foundation)
        plist[Key.storeType] = storeType
        plist[Key.hashes] = entityVersionHashes
        plist[Key.hashesVersion] = NSNumber(value: hashesVersion)
        plist[Key.identifiers] = versionIdentifiers
        plist[Key.framework] = NSNumber(value: frameworkVersion)
        if let maximumFrameworkVersion { plist[Key.maximumFramework] = NSNumber(value: maximumFrameworkVersion) }
        plist[Key.autoVacuum] = autoVacuumLevel
        if let checksum { plist[Key.checksum] = checksum }
        if let digest { plist[Key.digest] = digest }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Reads `Z_UUID` and `Z_PLIST`. Unknown keys are kept in `additional`.
    public init(uuid: String, propertyList data: Data) throws(StoreMetadataError) {
        let object: Any
        do { object = try PropertyListReader.object(from: data) } catch {
            throw .notAPropertyList(error.reason)
        }
        guard let plist = object as? [String: Any] else { throw .notAPropertyList("the root is not a dictionary") }
        guard let rawHashes = plist[Key.hashes] else { throw .missingKey(Key.hashes) }
        guard let hashDictionary = rawHashes as? [String: Any] else {
            throw .wrongType(key: Key.hashes, expected: "a dictionary")
        }
        var hashes: [String: Data] = [:]
        for (entity, value) in hashDictionary {
            guard let hash = value as? Data else { throw .wrongType(key: "\(Key.hashes).\(entity)", expected: "data") }
            hashes[entity] = hash
        }
        self.uuid = uuid
        self.entityVersionHashes = hashes
        storeType = plist[Key.storeType] as? String ?? "SQLite"
        hashesVersion = (plist[Key.hashesVersion] as? NSNumber)?.intValue ?? 3
        versionIdentifiers = (plist[Key.identifiers] as? [Any])?.compactMap { $0 as? String } ?? [""]
        frameworkVersion = (plist[Key.framework] as? NSNumber)?.intValue ?? 0
        maximumFrameworkVersion = (plist[Key.maximumFramework] as? NSNumber)?.intValue
        autoVacuumLevel = (plist[Key.autoVacuum] as? String) ?? (plist[Key.autoVacuum] as? NSNumber)?.stringValue ?? "2"
        checksum = plist[Key.checksum] as? String
        digest = plist[Key.digest] as? String
        for (key, value) in plist where !Key.known.contains(key) {
            additional[key] = PropertyListValue(foundation: value)
        }
    }
}

extension StoreMetadataError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
