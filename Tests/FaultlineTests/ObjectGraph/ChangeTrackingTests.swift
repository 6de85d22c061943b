import Foundation
import Testing
@testable import Faultline

/// Change flags are bits with no stored count: the first 64 properties in one
/// word, the rest in words grown on demand. These prove both halves, that an
/// object's attribute and relationship masks (which share their overflow
/// words) stay apart, and that an object's change state follows its values
/// on either side of bit 64.
@Suite("Change tracking past 64 properties")
struct ChangeTrackingTests {
    @Test("A mask sets, clears and lists bits on both sides of 64, growing only for a set bit")
    func maskBits() {
        var mask = ChangeMask()
        #expect(mask.isEmpty)
        mask[200] = false
        #expect(mask.isEmpty && Array(mask.setIndices).isEmpty)
        for index in [0, 63, 64, 127, 128, 200] { mask[index] = true }
        #expect(Array(mask.setIndices) == [0, 63, 64, 127, 128, 200])
        #expect(mask[200] && mask[64] && !mask[65] && !mask[500])
        for index in [0, 63, 64, 127, 128, 200] { mask[index] = false }
        #expect(mask.isEmpty)
        mask[70] = true
        mask.clearAll()
        #expect(mask.isEmpty && !mask[70])
        mask[130] = true
        #expect(Array(mask.setIndices) == [130], "a word of zeros between set bits is skipped")
    }

    @Test("An object's two masks share their words past 64 and never see each other's bits")
    func objectMasks() {
        var masks = ChangeMasks()
        #expect(masks.isEmpty)
        masks[relationship: 130] = false
        #expect(masks.isEmpty, "clearing a bit past the words held grows nothing")
        for index in [1, 64, 130] { masks[attribute: index] = true }
        for index in [2, 65, 200] { masks[relationship: index] = true }
        #expect(Array(masks.attributeMask.setIndices) == [1, 64, 130])
        #expect(Array(masks.relationshipMask.setIndices) == [2, 65, 200])
        #expect(!masks[attribute: 65] && !masks[attribute: 200] && !masks[relationship: 64] && !masks[relationship: 130])

        var attributes = ChangeMask()
        attributes[3] = true
        attributes[260] = true
        masks.attributeMask = attributes
        #expect(Array(masks.attributeMask.setIndices) == [3, 260])
        #expect(Array(masks.relationshipMask.setIndices) == [2, 65, 200], "replacing one mask keeps the other")
        masks.attributeMask = ChangeMask()
        for index in [2, 65, 200] { masks[relationship: index] = false }
        #expect(masks.isEmpty)
        masks[attribute: 70] = true
        masks.clearAll()
        #expect(masks.isEmpty && !masks[attribute: 70])
    }

    @Test("A managed object takes at most 160 bytes: jemalloc's 160-byte size class, not the 192-byte one")
    func objectSize() {
        // A class's instance size is a 32-bit field of its metadata, after
        // the kind, the superclass and the flags (the Swift ABI's class
        // metadata layout without Objective-C interop).
        let metadata = unsafeBitCast(ManagedObject.self as AnyClass, to: UnsafeRawPointer.self)
        let instanceSize = metadata.load(fromByteOffset: 24, as: UInt32.self)
        #expect(instanceSize > 100, "the field read is the instance size")
        #expect(instanceSize <= 160)
    }

    @Test("An object with 70 attributes tracks, saves and reverts a change to attribute 66")
    func wideEntity() throws {
        let model = ManagedObjectModel {
            Entity("Wide") {
                for index in 0..<70 { Attribute("a\(index)", .integer64).optional() }
            }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let object = try context.insertNewObject(forEntityName: "Wide")
            try object.setValue(Int64(1), forKey: "a66")
            try context.save()
            #expect(!object.hasChanges)

            try object.setValue(Int64(2), forKey: "a66")
            #expect(object.isUpdated)
            #expect(object.changedValues().keys.sorted() == ["a66"])
            try object.setValue(Int64(1), forKey: "a66")
            #expect(!object.isUpdated && object.changedValues().isEmpty)

            try object.setValue(Int64(3), forKey: "a66")
            try object.setValue(Int64(4), forKey: "a2")
            #expect(object.changedValues().keys.sorted() == ["a2", "a66"])
            try context.save()
            #expect(!object.hasChanges)
            let stored = try container.coordinator.withReader { try $0.rows("SELECT ZA2, ZA66 FROM ZWIDE") }
            #expect(stored == [[.integer(4), .integer(3)]])
        }
    }
}
