import Foundation
import FaultlineSQLite

/// Core Data's encoding of binary attributes that allow external storage
/// (`allowsExternalBinaryDataStorage`), in a store Core Data wrote and in
/// Faultline's own file stores (those record `StoreBootstrap.externalDataFormatKey`).
///
/// The BLOB's first byte says where the bytes are:
/// - 1: the bytes follow inline;
/// - 2: an ASCII UUID follows (possibly NUL-terminated), naming a file in the
///   store's `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` folder.
///
/// Reading strips the marker (and reads the file). Writing does what Core
/// Data does: a value larger than `externalThreshold` (the 100 KB Apple's
/// engineers give) goes to a new file named by a UUID, written (atomically,
/// not fsynced) before the transaction that refers to it, and removed again
/// when that transaction fails; smaller values are stored inline (marker 1). A
/// reference whose file is missing reads as nil and is listed in
/// `missingFiles`; an unchanged reference is never rewritten (updates write
/// only changed attributes), so it stays intact in the store. When a save
/// replaces an external value or deletes its row, the old file's name is read
/// inside the transaction and the file is removed once the transaction has
/// committed (never before: a rolled-back save still refers to it).
///
/// In Faultline's own stores (`writesFiles` false) every value is written
/// inline after marker 1, whatever its size — Core Data reads inline values
/// of any size — so batch requests can write the column directly with the
/// marker prefixed; marker-2 references a Core Data process wrote later are
/// still read, and their files removed as above.
final class CoreDataValueAdapter: StoreValueAdapter {
    static let inlineMarker = MarkedDataAttributes.inlineMarker
    static let externalMarker: UInt8 = 2
    /// Values larger than this many bytes are written to a file.
    static let externalThreshold = MarkedDataAttributes.externalThreshold

    /// Per entity index, the attribute indexes stored with markers.
    let externalAttributes: [[Int]]
    /// Per entity index, the statement reading its external-storage columns
    /// by `Z_PK` (built once: saves run it per replaced or deleted row), and
    /// the attribute index of each column it reads.
    private let externalReads: [(sql: String, attributes: [Int])?]
    /// `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`.
    let externalDataDirectory: URL
    /// False for Faultline's own stores: values are always stored inline.
    let writesFiles: Bool
    private let missing = Locked<Set<String>>([])

    /// Nil when no attribute of `model` allows external storage.
    init?(model: CheckedModel, schema: StoreSchema, storeURL: URL, writesFiles: Bool = true) {
        let attributes = model.entities.map { entity in
            entity.attributes.filter(\.storesExternalDataMarker).map(\.index)
        }
        guard attributes.contains(where: { !$0.isEmpty }) else { return nil }
        externalAttributes = attributes
        externalReads = model.entities.map { entity in
            let mapping = schema.entities[entity.index]
            let read = attributes[entity.index].compactMap { index in mapping.column(forAttributeAt: index).map { (index, $0) } }
            guard !read.isEmpty else { return nil }
            return (EntityReadStatements.columns(read.map(\.1), ofRowIn: mapping.table), read.map(\.0))
        }
        externalDataDirectory = Self.externalDataDirectory(forStoreAt: storeURL)
        self.writesFiles = writesFiles
    }

    /// Whether any attribute of `model` is stored with markers.
    static func marksValues(of model: CheckedModel) -> Bool {
        model.entities.contains { entity in
            entity.attributes.contains(where: \.storesExternalDataMarker)
        }
    }

    /// `<dir>/.<StoreName>_SUPPORT/_EXTERNAL_DATA` for `<dir>/<StoreName>.sqlite`.
    static func externalDataDirectory(forStoreAt url: URL) -> URL {
        PersistentStoreCoordinator.supportDirectory(forStoreAt: url).appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Attributes allowing external storage, when values may go to files: a
    /// direct write cannot. Inline-only (Faultline's stores), none: a batch
    /// request writes marker 1 and the bytes itself (`markedAttributes`).
    func adapts(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> Bool {
        writesFiles && entity.index < externalAttributes.count && externalAttributes[entity.index].contains(attribute.index)
    }

    /// External-data file names whose files were missing when read.
    var missingFiles: Set<String> { missing.withLock { $0 } }

    /// Decodes the external-storage values of a row its statement is
    /// decoding; returns the bytes the decoded values own.
    func decode(_ values: AttributeValues, entityIndex: Int) -> Int {
        guard entityIndex < externalAttributes.count else { return 0 }
        var payload = 0
        for index in externalAttributes[entityIndex] where index < values.count {
            guard case .data(let stored) = values[index] else { continue }
            let decoded = decode(stored)
            payload &+= decoded.payloadBytes
            values.assign(decoded, at: index)
        }
        return payload
    }

    var markedAttributes: MarkedDataAttributes {
        MarkedDataAttributes(byEntity: externalAttributes, writesInline: !writesFiles)
    }

    func decode(_ stored: AttributeValue) -> AttributeValue {
        guard case .data(let bytes) = stored else { return stored }
        return decode(bytes)
    }

    /// The value of one stored BLOB.
    func decode(_ stored: Data) -> AttributeValue {
        guard let marker = stored.first else { return .data(stored) }
        let payload = stored.dropFirst()
        switch marker {
        case Self.inlineMarker:
            return .data(Data(payload))
        case Self.externalMarker:
            let name = Self.fileName(payload)
            guard let name, let bytes = try? Data(contentsOf: externalDataDirectory.appendingPathComponent(name)) else {
                missing.withLock { _ = $0.insert(name ?? String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)) }
                return .null
            }
            return .data(bytes)
        default:
            // Not a marker Core Data writes: kept as stored rather than guessed at.
            return .data(stored)
        }
    }

    /// `request` with every external-storage value in Core Data's form: a
    /// marker and the bytes, or a marker and the name of a file written now.
    /// The files of values it replaces or deletes are noted for removal.
    func encoded(_ request: SaveRequest, on connection: Connection) throws -> AdaptedSave {
        var save = AdaptedSave(request: request)
        // Cleared if this throws: the files written so far go with it.
        var written: [URL] = []
        do {
            for update in request.updates {
                let replaced = update.attributes.map(\.index).filter { externalAttributes[update.id.entityIndex].contains($0) }
                save.released += try files(of: replaced, of: update.id, on: connection)
            }
            for delete in request.deletes {
                save.released += try files(of: externalAttributes[delete.id.entityIndex], of: delete.id, on: connection)
            }
            save.request.inserts = try request.inserts.map { insert in
                let attributes = externalAttributes[insert.id.entityIndex]
                guard !attributes.isEmpty else { return insert }
                var values = insert.values
                for index in attributes where index < values.count { values[index] = try store(values[index], written: &written) }
                return SaveRequest.Insert(id: insert.id, values: values, toOne: insert.toOne)
            }
            save.request.updates = try request.updates.map { update in
                let attributes = externalAttributes[update.id.entityIndex]
                guard !attributes.isEmpty else { return update }
                return SaveRequest.Update(
                    id: update.id, version: update.version,
                    attributes: try update.attributes.map {
                        attributes.contains($0.index) ? ($0.index, try store($0.value, written: &written)) : $0
                    },
                    toOne: update.toOne)
            }
        } catch {
            for file in written { try? FileManager.default.removeItem(at: file) }
            throw error
        }
        save.written = written
        return save
    }

    /// The external files of the external-storage attributes of `ids`' rows
    /// (those of `attributes` only, when given).
    func files(ownedBy ids: [ManagedObjectID], attributes: Set<Int>?, on connection: Connection) throws -> [URL] {
        var files: [URL] = []
        for id in ids where id.entityIndex < externalAttributes.count && !externalAttributes[id.entityIndex].isEmpty {
            let external = externalAttributes[id.entityIndex]
            files += try self.files(of: attributes.map { wanted in external.filter(wanted.contains) } ?? external, of: id, on: connection)
        }
        return files
    }

    func release(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// After the save's transaction: a committed one removes the files it
    /// replaced or deleted; a failed one, the files it wrote.
    func saveEnded(_ save: AdaptedSave, committed: Bool) {
        release(committed ? save.released : save.written)
    }

    /// The external files of `attributes` of the row `id`, as stored before this save.
    private func files(of attributes: [Int], of id: ManagedObjectID, on connection: Connection) throws -> [URL] {
        guard !attributes.isEmpty, !id.isTemporaryID else { return [] }
        guard let read = externalReads[id.entityIndex],
              let row = try connection.rows(read.sql, [.integer(id.primaryKey)]).first else { return [] }
        return zip(read.attributes, row).compactMap { attribute, value in
            guard attributes.contains(attribute), case .blob(let stored) = value, stored.first == Self.externalMarker,
                  let name = Self.fileName(stored.dropFirst()) else { return nil }
            return externalDataDirectory.appendingPathComponent(name)
        }
    }

    /// The file a marker-2 payload names: a UUID, as Core Data names them;
    /// anything else (`..`, a path) is never read or removed.
    static func fileName(_ payload: Data) -> String? {
        let name = String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
        return UUID(uuidString: name) != nil ? name : nil
    }

    /// One value as stored: inline up to the threshold, a new file above it.
    private func store(_ value: AttributeValue, written: inout [URL]) throws -> AttributeValue {
        guard writesFiles else { return Self.inline(value) }
        guard case .data(let bytes) = value else { return value }
        let (stored, file) = try Self.stored(bytes, in: externalDataDirectory)
        if let file { written.append(file) }
        return .data(stored)
    }

    /// `bytes` as Core Data stores them: marker 1 and the bytes up to the
    /// threshold; above it, a new file in `directory` (returned: the caller
    /// removes it if its transaction fails) and marker 2 with its name.
    static func stored(_ bytes: Data, in directory: URL) throws -> (stored: Data, file: URL?) {
        guard bytes.count > externalThreshold else { return (Data([inlineMarker]) + bytes, nil) }
        let name = UUID().uuidString
        let file = directory.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try bytes.write(to: file, options: .atomic)
        } catch {
            throw StoreError.externalDataUnwritable(path: file.path, reason: "\(error)")
        }
        var stored = Data([externalMarker])
        stored.append(contentsOf: Array(name.utf8))
        stored.append(0)
        return (stored, file)
    }

    static func inline(_ value: AttributeValue) -> AttributeValue {
        guard case .data(let bytes) = value else { return value }
        var stored = Data([inlineMarker])
        stored.append(bytes)
        return .data(stored)
    }
}
