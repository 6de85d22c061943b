// Damaged compiled models: truncated and bit-flipped model-cache blobs and
// `.mom` property lists, and hand-made archives of the wrong shape, give a
// typed `CompiledModelError` (or, when the damage misses what Faultline reads,
// a model) and never crash. Seeded, so a failure reproduces.

import Foundation
import Testing
@testable import Faultline
@testable import FaultlineModelFiles

@Suite("Compiled model corruption")
struct CompiledModelCorruptionTests {
    /// Reads `data` as a model cache blob (`compressed`) or a `.mom`; true when it decoded.
    private func decodes(_ data: Data, compressed: Bool) -> Bool {
        do {
            _ = compressed ? try CompiledModelReader.model(fromModelCache: data)
                : try CompiledModelReader.model(fromArchive: data, versionName: "fuzz", file: "fuzz")
            return true
        } catch {
            return false
        }
    }

    @Test("Every truncation of a model cache blob and of a .mom is an error")
    func truncations() throws {
        let blob = try CompiledModelFixtures.modelCacheBlob(CoreDataStoreFixture.recipesStore)
        for length in 0..<blob.count {
            #expect(!decodes(blob.prefix(length), compressed: true), "prefix \(length) decoded")
        }
        let mom = try Data(contentsOf: try CompiledModelFixtures.url(CompiledModelFixtures.cartKitMOM))
        for length in stride(from: 0, to: mom.count, by: 7) {
            #expect(!decodes(mom.prefix(length), compressed: false), "prefix \(length) decoded")
        }
    }

    @Test("Thousands of bit flips and byte overwrites in blobs and .mom files never crash")
    func bitFlips() throws {
        var generator = SeededGenerator(seed: 0x6d6f_6d63)
        let inputs: [(Data, Bool)] = [
            (try CompiledModelFixtures.modelCacheBlob(CoreDataStoreFixture.groceryStore), true),
            (try CompiledModelFixtures.modelCacheBlob("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite"), true),
            (try Data(contentsOf: try CompiledModelFixtures.url(CompiledModelFixtures.cartKitMOM)), false),
        ]
        var decoded = 0
        var mutations = 0
        for (original, compressed) in inputs {
            for round in 0..<1_000 {
                var bytes = [UInt8](original)
                for _ in 0..<(1 + round % 4) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    if round % 2 == 0 {
                        bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
                    } else {
                        bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    }
                }
                mutations += 1
                if decodes(Data(bytes), compressed: compressed) { decoded += 1 }
            }
        }
        #expect(mutations == 3_000)
        // Most damage is caught; what is not must still be a usable model.
        #expect(decoded < mutations)
    }

    @Test("Each layer reports its own kind of error")
    func errorKinds() throws {
        func kind(_ body: () throws -> Void) -> CompiledModelError.Kind? {
            do { try body() } catch let error as CompiledModelError { return error.kind } catch { return nil }
            return nil
        }
        let blob = try CompiledModelFixtures.modelCacheBlob(CoreDataStoreFixture.recipesStore)
        let archive = try Inflate.rawDeflate(blob)
        #expect(kind { _ = try CompiledModelReader.model(fromModelCache: Data([0xFF, 0xFF, 0xFF])) } == .corruptCompression)
        #expect(kind { _ = try CompiledModelReader.model(fromModelCache: blob + Data([0])) } == .corruptCompression)
        #expect(kind { _ = try CompiledModelReader.model(fromModelCache: blob.prefix(blob.count / 2)) } == .corruptCompression)
        #expect(kind { _ = try CompiledModelReader.model(fromArchive: Data("bplist00".utf8), versionName: "x", file: "x") } == .malformedPropertyList)
        #expect(kind { _ = try CompiledModelReader.model(fromArchive: archive.prefix(archive.count - 1), versionName: "x", file: "x") } == .malformedPropertyList)
        // A valid property list that is not a keyed archive.
        let plain = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect(kind { _ = try CompiledModelReader.model(fromArchive: plain, versionName: "x", file: "x") } == .malformedArchive)
        // A keyed archive whose root is not a model.
        let string = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["x"]), requiringSecureCoding: false)
        #expect(kind { _ = try CompiledModelReader.model(fromArchive: string, versionName: "x", file: "x") } == .notAModel)
    }

    @Test("Inflating is capped")
    func inflateCap() throws {
        let blob = try CompiledModelFixtures.modelCacheBlob(CoreDataStoreFixture.recipesStore)
        #expect(throws: Inflate.Failure.tooLarge(limit: 1_000)) { try Inflate.rawDeflate(blob, maximumOutput: 1_000) }
        #expect(try Inflate.rawDeflate(blob).starts(with: Data("bplist00".utf8)))
    }
}
