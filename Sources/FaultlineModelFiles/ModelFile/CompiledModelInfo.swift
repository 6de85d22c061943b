// The compiled form of a model bundle: Xcode's `momc` turns `Name.xcdatamodeld`
// into `Name.momd/`, whose `VersionInfo.plist` (usually a binary plist) lists,
// per version name, the 32-byte entity version hashes Core Data computed
// (`NSManagedObjectModel_VersionHashes`), the version checksums and the current
// version name. Faultline cannot recompute Core Data's hashes (Apple documents
// their inputs, not the algorithm), so these are what lets a store written by
// Core Data be matched to its model exactly. The `.mom` files themselves (keyed
// archives) are read by `CompiledModelReader`, which attaches these hashes.

import Foundation
import FaultlineModel

/// What `VersionInfo.plist` in a compiled `.momd` says.
public struct CompiledModelInfo: Hashable, Sendable {
    /// Entity name → 32-byte hash, per version name (`"Model 6"`).
    public var entityVersionHashes: [String: [String: Data]]
    /// Base64 version checksums per version name (recent Xcode only).
    public var versionChecksums: [String: String]
    /// `NSManagedObjectModel_CurrentVersionName`.
    public var currentVersionName: String?

    public init(entityVersionHashes: [String: [String: Data]], versionChecksums: [String: String] = [:],
                currentVersionName: String? = nil) {
        self.entityVersionHashes = entityVersionHashes
        self.versionChecksums = versionChecksums
        self.currentVersionName = currentVersionName
    }

    /// Reads `momd/VersionInfo.plist`.
    ///
    /// - Throws: `.compiledModel` when the plist is missing, unreadable, or does not
    ///   have the expected shape (a hash that is not 32 bytes included).
    public static func read(momd: URL) throws(ModelFileError) -> CompiledModelInfo {
        let plistURL = momd.appendingPathComponent("VersionInfo.plist")
        guard let data = try? Data(contentsOf: plistURL) else {
            throw ModelFileError(.compiledModel, "the compiled model has no readable VersionInfo.plist", file: plistURL.path)
        }
        return try parse(data, file: plistURL.path)
    }

    /// Parses the contents of a `VersionInfo.plist`.
    public static func parse(_ data: Data, file: String) throws(ModelFileError) -> CompiledModelInfo {
        let object: Any
        do {
            object = try PropertyListReader.object(from: data)
        } catch {
            throw ModelFileError(.compiledModel, "VersionInfo.plist is not a property list: \(error.reason)", file: file)
        }
        guard let root = object as? [String: Any],
              let versions = root["NSManagedObjectModel_VersionHashes"] as? [String: Any] else {
            throw ModelFileError(.compiledModel, "VersionInfo.plist has no NSManagedObjectModel_VersionHashes dictionary", file: file)
        }
        var hashes: [String: [String: Data]] = [:]
        for (version, value) in versions {
            guard let entities = value as? [String: Any] else {
                throw ModelFileError(.compiledModel, "the hashes of version '\(version)' are not a dictionary", file: file,
                                     path: "NSManagedObjectModel_VersionHashes/\(version)")
            }
            var byEntity: [String: Data] = [:]
            for (entity, hashValue) in entities {
                guard let hash = hashValue as? Data, hash.count == 32 else {
                    throw ModelFileError(.compiledModel, "the hash of entity '\(entity)' in version '\(version)' is not 32 bytes",
                                         file: file, path: "NSManagedObjectModel_VersionHashes/\(version)/\(entity)")
                }
                byEntity[entity] = hash
            }
            hashes[version] = byEntity
        }
        let checksums = (root["NSManagedObjectModel_VersionChecksums"] as? [String: Any])?
            .compactMapValues { $0 as? String } ?? [:]
        return CompiledModelInfo(entityVersionHashes: hashes, versionChecksums: checksums,
                                 currentVersionName: root["NSManagedObjectModel_CurrentVersionName"] as? String)
    }
}

extension ModelBundle {
    /// Attaches the compiled hashes to the versions of the same name and reports
    /// where the compiled model and the source disagree (a stale `.momd`).
    mutating func attach(_ info: CompiledModelInfo, file: String) {
        let names = Set(versions.map(\.name))
        for index in versions.indices {
            let version = versions[index]
            guard let hashes = info.entityVersionHashes[version.name] else {
                bundleWarnings.append(warning(file, "the compiled model has no hashes for version '\(version.name)'"))
                continue
            }
            versions[index].coreDataEntityVersionHashes = hashes
            versions[index].coreDataVersionChecksum = info.versionChecksums[version.name]
            let sourceEntities = Set(version.model.entities.compactMap(\.name))
            let compiledEntities = Set(hashes.keys)
            if sourceEntities != compiledEntities {
                let missing = sourceEntities.subtracting(compiledEntities).sorted().joined(separator: ", ")
                let extra = compiledEntities.subtracting(sourceEntities).sorted().joined(separator: ", ")
                bundleWarnings.append(warning(file, "the compiled model of version '\(version.name)' lists other entities than the source "
                                              + "(only in source: [\(missing)]; only compiled: [\(extra)]); it may be stale"))
            }
        }
        for name in info.entityVersionHashes.keys.sorted() where !names.contains(name) {
            bundleWarnings.append(warning(file, "the compiled model has a version '\(name)' that the source does not"))
        }
        if let compiledCurrent = info.currentVersionName, let current = current?.name, compiledCurrent != current {
            bundleWarnings.append(warning(file, "the compiled model's current version is '\(compiledCurrent)', the source's is '\(current)'"))
        }
    }

    private func warning(_ file: String, _ message: String) -> ModelFileWarning {
        ModelFileWarning(file: file, line: 0, column: 0, path: "/plist", message: message)
    }
}
