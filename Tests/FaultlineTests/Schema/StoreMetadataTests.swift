import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Z_METADATA holds Core Data's binary property list, written and read back.
@Suite("Store metadata")
struct StoreMetadataTests {
    @Test("A created store records its UUID, entity hashes, checksum, digest and the model's version hash")
    func created() throws {
        let schema = try ShopModel.schema()
        let store = try TestStore(schema)
        let metadata = try StoreBootstrap.metadata(on: store.connection)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.hashesVersion == 3)
        #expect(metadata.entityVersionHashes == schema.model.entityVersionHashes)
        #expect(metadata.checksum == StoreMetadata.checksum(of: schema.model.entityVersionHashes))
        #expect(metadata.digest == StoreMetadata.digest(of: schema.model.entityVersionHashes))
        #expect(metadata.additional[StoreBootstrap.modelVersionHashKey]
                == .string(schema.model.versionHash.base64EncodedString()))
        #expect(UUID(uuidString: metadata.uuid) != nil)
        #expect(metadata.uuid == metadata.uuid.uppercased())
        let plist = try #require(try store.value("SELECT Z_PLIST FROM Z_METADATA"))
        guard case .blob(let bytes) = plist else { Issue.record("Z_PLIST is not a blob"); return }
        #expect(bytes.prefix(8) == Data("bplist00".utf8))
        #expect(try store.isIntact())
    }

    @Test("Unknown keys survive a round trip")
    func roundTrip() throws {
        var metadata = StoreMetadata(uuid: "ABC", entityVersionHashes: ["A": Data(repeating: 7, count: 32)])
        metadata.additional["AppKey"] = .array([.string("x"), .integer(3), .data(Data([1]))])
        metadata.additional["AppFlags"] = .dictionary(["on": .boolean(true), "ratio": .real(2), "big": .integer(.min)])
        let read = try StoreMetadata(uuid: "ABC", propertyList: metadata.propertyList())
        #expect(read == metadata)
    }

    @Test("Garbage and plists without hashes are typed errors")
    func badPlists() throws {
        #expect(throws: StoreMetadataError.self) { try StoreMetadata(uuid: "", propertyList: Data("nope".utf8)) }
        let noHashes = try PropertyListSerialization.data(fromPropertyList: ["NSStoreType": "SQLite"], format: .binary, options: 0)
        #expect(throws: StoreMetadataError.missingKey("NSStoreModelVersionHashes")) {
            try StoreMetadata(uuid: "", propertyList: noHashes)
        }
    }

    @Test("A Z_PLIST that is not a blob is a typed error naming what it holds")
    func notABlob() throws {
        let store = try TestStore(try ShopModel.schema())
        for (value, kind) in [(SQLValue.text("bplist00"), "text"), (.integer(3), "an integer"), (.real(1.5), "a real")] {
            try store.run("UPDATE Z_METADATA SET Z_PLIST = ?", [value])
            #expect(throws: StoreMetadataError.notAPropertyList("it holds \(kind), not a blob")) {
                try StoreBootstrap.metadata(on: store.connection)
            }
        }
    }

    @Test("Checksum and digest are computed as Core Data computes them (values from the CartKit fixture store)")
    func coreDataChecksum() {
        // NSStoreModelVersionHashes of CartStorage_v1.sqlite, written by Core Data 1523.
        let hashes: [String: Data] = [
            "CDCart": Data(base64Encoded: "TZSxbCYl/BXQ6r/i1iCrDdHJ8uRaYOZrlsYZVe7gCS4=") ?? Data(),
            "CDCartItem": Data(base64Encoded: "l2cEvT24O4YsDkevVSljwsLQ/nTelUPcokXtagA8ImY=") ?? Data(),
            "CDCartItemModifier": Data(base64Encoded: "z9kMF7x+Ve/VazcV1z7J9XEyWjsHhSK+yqrhgnPxz5o=") ?? Data(),
        ]
        #expect(StoreMetadata.checksum(of: hashes) == "bJ3Beeu82SfItHuJX6v4oDiSoYHGR2y7J8qEru+Q3fc=")
        #expect(StoreMetadata.digest(of: hashes)
                == "CT4L7Iwdo5eWLpFNxXjIbvrO8Y3HmLfIx/A3X84JPkUcFlS3eaDPsVLz3SjKaHvFIGo1Xm/oxUqu2WHn2+2EFQ==")
    }
}
