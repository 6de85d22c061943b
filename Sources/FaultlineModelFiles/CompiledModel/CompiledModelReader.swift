// MARK: - Compiled models: design note
//
// What this is. Reading the model Core Data compiled, where no model file is at
// hand: a `.momd/Name.mom` file (what `momc` makes of a `.xcdatamodel`), and the
// copy of the model Core Data keeps inside each SQLite store it writes
// (`Z_MODELCACHE.Z_CONTENT`, stores from about 2015 on). With the latter a
// store opens, or at least explains itself, without its app's sources.
//
// The format, as found in the fixtures. A `.mom` is an NSKeyedArchiver archive
// in a binary property list (`bplist00`). `Z_CONTENT` is the same archive,
// compressed as a raw deflate stream (no zlib or gzip wrapper; zlib window bits
// -15), one row. The root object is an `NSManagedObjectModel` (`NSEntities`,
// `NSVersionIdentifiers`, `NSConfigurations`, `NSFetchRequestTemplates`);
// entities, attributes and relationships are archived with their `NS…` keys.
// The fixture archives hold no entity version hashes: a `.mom` gets them from
// the `VersionInfo.plist` beside it, and a store's cache needs none (the store
// is matched by its schema, and its own metadata holds the hashes).
//
// Invariants.
//  1. No input crashes: every layer (inflate, property list, archive, model)
//     bounds-checks and throws `CompiledModelError` with the layer as its kind;
//     there are no force unwraps or `try!` on paths fed by the file.
//  2. Nothing is dropped silently: a key or class that is not mapped to the
//     model is either known and documented as carrying nothing
//     (`ArchivedFields.ignoredKeys`) or reported as a `ModelFileWarning` whose
//     path names it in the archive (`/NSEntities/Item/NSProperties/x/NSFoo`).
//  3. The result is what `ModelFileReader` gives for the same model's file: a
//     `ModelBundleVersion` whose model is editable, not checked, with the
//     defaults Core Data fills in (renaming identifiers, value classes) left
//     unset, so both readers' models compare equal once checked.
//
// Where things are: Inflate (zlib), BinaryPropertyList (bplist00),
// KeyedArchive (references, Foundation values), ArchivedModelDecoder (+
// Properties, + Values) and ArchivedFields (archive → model),
// CompiledModelError.

import Foundation
import FaultlineModel
import FaultlineSQLite

/// Reads Core Data's compiled models: `.mom` files and stores' model caches.
public enum CompiledModelReader {
    /// Reads a compiled `.mom` file. When it sits in a `.momd` with a
    /// `VersionInfo.plist`, the Core Data entity version hashes listed there for
    /// the version of the same name are attached; an unreadable plist is a warning.
    ///
    /// - Complexity: linear in the size of the file.
    public static func model(fromMOM url: URL) throws(CompiledModelError) -> ModelBundleVersion {
        guard let data = try? Data(contentsOf: url) else {
            throw CompiledModelError(.unreadable, "cannot read the compiled model", file: url.path)
        }
        let name = url.deletingPathExtension().lastPathComponent
        var version = try model(fromArchive: data, versionName: name, file: url.path)
        let momd = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: momd.appendingPathComponent("VersionInfo.plist").path) else { return version }
        do throws(ModelFileError) {
            let info = try CompiledModelInfo.read(momd: momd)
            if let hashes = info.entityVersionHashes[name] {
                version.coreDataEntityVersionHashes = hashes
                version.coreDataVersionChecksum = info.versionChecksums[name]
            } else {
                version.warnings.append(ModelFileWarning(file: momd.path, line: 0, column: 0, path: "/plist",
                                                         message: "VersionInfo.plist lists no hashes for version '\(name)'"))
            }
        } catch {
            version.warnings.append(ModelFileWarning(file: error.file, line: 0, column: 0, path: "/plist",
                                                     message: "the version hashes beside the compiled model are ignored: \(error.message)"))
        }
        return version
    }

    /// A compiled `.mom` as a one-version bundle, that version current.
    public static func bundle(fromMOM url: URL) throws(CompiledModelError) -> ModelBundle {
        var version = try model(fromMOM: url)
        version.isCurrent = true
        return ModelBundle(name: version.name, versions: [version])
    }

    /// Reads every version of a compiled `.momd` bundle (each `*.mom` in it),
    /// marking the one `VersionInfo.plist` names current (the only one, when
    /// the bundle holds one version).
    public static func bundle(fromMOMD url: URL) throws(CompiledModelError) -> ModelBundle {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".mom") }.sorted()
        } catch {
            throw CompiledModelError(.unreadable, "cannot list the compiled bundle", file: url.path)
        }
        guard !names.isEmpty else { throw CompiledModelError(.unreadable, "the bundle holds no .mom file", file: url.path) }
        var versions: [ModelBundleVersion] = []
        for name in names { versions.append(try model(fromMOM: url.appendingPathComponent(name))) }
        let current = (try? CompiledModelInfo.read(momd: url))?.currentVersionName
        for index in versions.indices {
            versions[index].isCurrent = versions.count == 1 || versions[index].name == current
        }
        return ModelBundle(name: url.deletingPathExtension().lastPathComponent, versions: versions)
    }

    /// Reads the model Core Data cached in the store at `storeURL`, opened
    /// read-only. The version is named `Z_MODELCACHE`.
    ///
    /// - Throws: `.noModelCache` when the store has no cache (stores written
    ///   before about 2015), `.unreadable` when it is not a readable SQLite file.
    public static func model(fromModelCacheOf storeURL: URL) throws(CompiledModelError) -> ModelBundleVersion {
        let path = storeURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CompiledModelError(.unreadable, "no store at this path", file: path)
        }
        let blob: Data
        var storeHashes: [String: Data]?
        do {
            let connection = try Connection(.file(path), configuration: .inspecting(path))
            storeHashes = try? entityVersionHashes(inMetadataOf: connection)
            let table = try connection.scalar("SELECT name FROM sqlite_master WHERE type = 'table' AND upper(name) = ?", [.text("Z_MODELCACHE")])
            guard case .text(let name)? = table else {
                throw CompiledModelError(.noModelCache, "the store has no Z_MODELCACHE table", file: path)
            }
            let rows = try connection.rows("SELECT Z_CONTENT FROM \"\(name)\"")
            guard let row = rows.first, case .blob(let content)? = row.first else {
                throw CompiledModelError(.noModelCache, "Z_MODELCACHE holds no model", file: path)
            }
            if rows.count > 1 { throw CompiledModelError(.noModelCache, "Z_MODELCACHE holds \(rows.count) rows, not one model", file: path) }
            blob = content
        } catch let error as CompiledModelError {
            throw error
        } catch {
            throw CompiledModelError(.unreadable, "cannot read the store: \(error)", file: path)
        }
        var version = try model(fromModelCache: blob, versionName: "Z_MODELCACHE", file: path)
        // The cache is the model that wrote the store: the store's hashes are Core Data's for it.
        if let storeHashes, Set(storeHashes.keys) == Set(version.model.entities.compactMap(\.name)) {
            version.coreDataEntityVersionHashes = storeHashes
        }
        return version
    }

    /// `NSStoreModelVersionHashes` of `Z_METADATA`'s binary property list.
    private static func entityVersionHashes(inMetadataOf connection: Connection) throws -> [String: Data]? {
        guard case .blob(let plist)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
              case .dictionary(let metadata) = try BinaryPropertyList.parse(plist),
              case .dictionary(let hashes)? = metadata["NSStoreModelVersionHashes"] else { return nil }
        var result: [String: Data] = [:]
        for (name, value) in hashes {
            guard case .data(let hash) = value else { return nil }
            result[name] = hash
        }
        return result
    }

    /// Reads the contents of a `Z_MODELCACHE.Z_CONTENT` blob (raw deflate).
    public static func model(fromModelCache blob: Data, versionName: String = "Z_MODELCACHE",
                             file: String = "Z_MODELCACHE") throws(CompiledModelError) -> ModelBundleVersion {
        let archive: Data
        do {
            archive = try Inflate.rawDeflate(blob)
        } catch {
            switch error {
            case .tooLarge(let limit):
                throw CompiledModelError(.tooLarge, "the model cache inflates to more than \(limit) bytes", file: file, path: "/Z_CONTENT")
            case .corrupt(let reason):
                throw CompiledModelError(.corruptCompression, "the model cache is not a valid deflate stream: \(reason)", file: file, path: "/Z_CONTENT")
            case .trailingBytes(let count):
                throw CompiledModelError(.corruptCompression, "\(count) bytes follow the end of the deflate stream", file: file, path: "/Z_CONTENT")
            }
        }
        return try model(fromArchive: archive, versionName: versionName, file: file)
    }

    /// Reads an archived model (the contents of a `.mom` file).
    public static func model(fromArchive data: Data, versionName: String, file: String) throws(CompiledModelError) -> ModelBundleVersion {
        let plist: PropertyListObject
        do {
            plist = try BinaryPropertyList.parse(data)
        } catch {
            switch error {
            case .malformed(let reason): throw CompiledModelError(.malformedPropertyList, reason, file: file)
            }
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(plist)
        } catch {
            throw CompiledModelError(.malformedArchive, error.message, file: file)
        }
        var decoder = ArchivedModelDecoder(archive: archive, file: file)
        let model = try decoder.decode()
        return ModelBundleVersion(name: versionName, isCurrent: true, model: model, extras: decoder.extras,
                                  warnings: decoder.warnings, sourceURL: URL(fileURLWithPath: file))
    }
}
