import Foundation

/// Core Data's encoding of binary attributes that allow external storage
/// (`allowsExternalBinaryDataStorage`), which Faultline's own stores do not use.
///
/// The BLOB's first byte says where the bytes are:
/// - 1: the bytes follow inline;
/// - 2: an ASCII UUID follows (possibly NUL-terminated), naming a file in the
///   store's `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` folder.
///
/// Reading strips the marker (and reads the file). Writing does what Core
/// Data does: a value larger than `externalThreshold` (the 100 KB Apple's
/// engineers give) goes to a new file named by a UUID, written and synced
/// before the transaction that refers to it, and removed again when that
/// transaction fails; smaller values are stored inline (marker 1). A
/// reference whose file is missing reads as nil and is listed in
/// `missingFiles`; an unchanged reference is never rewritten (updates write
/// only changed attributes), so it stays intact in the store. A file whose
/// value is later replaced or deleted is left in place (Core Data removes
/// such files in its own later clean-up; Faultline does not yet).
final class CoreDataValueAdapter: StoreValueAdapter {
    static let inlineMarker: UInt8 = 1
    static let externalMarker: UInt8 = 2
    /// Values larger than this many bytes are written to a file.
    static let externalThreshold = 100 * 1024

    /// Per entity index, the attribute indexes stored with markers.
    let externalAttributes: [[Int]]
    /// `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`.
    let externalDataDirectory: URL
    private let missing = Locked<Set<String>>([])
    /// Files written for the save in progress (writes are serialized).
    private let written = Locked<[URL]>([])

    /// Nil when no attribute of `model` allows external storage.
    init?(model: CheckedModel, storeURL: URL) {
        let attributes = model.entities.map { entity in
            entity.attributes.filter {
                $0.allowsExternalBinaryDataStorage && $0.attributeType == .binaryDataAttributeType
            }.map(\.index)
        }
        guard attributes.contains(where: { !$0.isEmpty }) else { return nil }
        externalAttributes = attributes
        externalDataDirectory = Self.externalDataDirectory(forStoreAt: storeURL)
    }

    /// `<dir>/.<StoreName>_SUPPORT/_EXTERNAL_DATA` for `<dir>/<StoreName>.sqlite`.
    static func externalDataDirectory(forStoreAt url: URL) -> URL {
        let storeName = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(storeName)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
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

    /// The value of one stored BLOB.
    func decode(_ stored: Data) -> AttributeValue {
        guard let marker = stored.first else { return .data(stored) }
        let payload = stored.dropFirst()
        switch marker {
        case Self.inlineMarker:
            return .data(Data(payload))
        case Self.externalMarker:
            let name = String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
            guard !name.isEmpty, !name.contains("/"),
                  let bytes = try? Data(contentsOf: externalDataDirectory.appendingPathComponent(name)) else {
                missing.withLock { _ = $0.insert(name) }
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
    func encoded(_ request: SaveRequest) throws -> SaveRequest {
        var copy = request
        copy.inserts = try request.inserts.map { insert in
            let attributes = externalAttributes[insert.id.entityIndex]
            guard !attributes.isEmpty else { return insert }
            var values = insert.values
            for index in attributes where index < values.count { values[index] = try store(values[index]) }
            return SaveRequest.Insert(id: insert.id, values: values, toOne: insert.toOne)
        }
        copy.updates = try request.updates.map { update in
            let attributes = externalAttributes[update.id.entityIndex]
            guard !attributes.isEmpty else { return update }
            return SaveRequest.Update(
                id: update.id, version: update.version,
                attributes: try update.attributes.map { attributes.contains($0.index) ? ($0.index, try store($0.value)) : $0 },
                toOne: update.toOne)
        }
        return copy
    }

    /// After the save's transaction: a failed one leaves no files of its own behind.
    func saveEnded(committed: Bool) {
        let files = written.withLock { files in
            defer { files = [] }
            return files
        }
        guard !committed else { return }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// One value as stored: inline up to the threshold, a new file above it.
    private func store(_ value: AttributeValue) throws -> AttributeValue {
        guard case .data(let bytes) = value else { return value }
        guard bytes.count > Self.externalThreshold else { return Self.inline(value) }
        let name = UUID().uuidString
        let file = externalDataDirectory.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: externalDataDirectory, withIntermediateDirectories: true)
            try bytes.write(to: file, options: .atomic)
        } catch {
            throw StoreError.externalDataUnwritable(path: file.path, reason: "\(error)")
        }
        written.withLock { $0.append(file) }
        var stored = Data([Self.externalMarker])
        stored.append(contentsOf: Array(name.utf8))
        stored.append(0)
        return .data(stored)
    }

    static func inline(_ value: AttributeValue) -> AttributeValue {
        guard case .data(let bytes) = value else { return value }
        var stored = Data([inlineMarker])
        stored.append(bytes)
        return .data(stored)
    }
}

extension PersistentStoreCoordinator {
    /// Whether a value of `attribute` must pass through the store's value
    /// adapter (Core Data's external-storage markers and files). Batch
    /// requests write SQL values directly, so they refuse such attributes
    /// rather than store bytes Core Data would misread.
    func writesThroughValueAdapter(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> Bool {
        guard let adapter = valueAdapter as? CoreDataValueAdapter, entity.index < adapter.externalAttributes.count else { return false }
        return adapter.externalAttributes[entity.index].contains(attribute.index)
    }
}
