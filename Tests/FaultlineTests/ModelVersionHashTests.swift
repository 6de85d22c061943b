import Foundation
import Testing
@testable import Faultline

/// Runs `change` on a fresh blog model and returns (hash before, hash after).
private func hashes(_ change: (ManagedObjectModel) throws -> Void) rethrows -> (before: Data, after: Data) {
    let before = BlogModel.handBuilt().versionHash
    let model = BlogModel.handBuilt()
    try change(model)
    return (before, model.versionHash)
}

private func entity(_ model: ManagedObjectModel, _ name: String) throws -> EntityDescription {
    try #require(model.entitiesByName[name])
}

@Suite("Version hashes are stable and track exactly what affects storage")
struct ModelVersionHashTests {
    /// The blog model's hash, computed once and pinned: a change here means stores
    /// written before the change would no longer be recognised.
    static let goldenBlogHash = "de7dfd7710a7d4693dbe8f6e52da380e97dd8296e6a399076326468a0d6dd7c5"

    @Test("the same model built twice (by hand or with the builder) hashes the same")
    func deterministic() throws {
        let a = BlogModel.handBuilt(), b = BlogModel.handBuilt(), c = BlogModel.declarative()
        #expect(a.versionHash == b.versionHash)
        #expect(a.versionHash == c.versionHash)
        #expect(a.versionHash.count == 32)
        #expect(a.entityVersionHashes.keys.sorted() == ["Article", "Category", "Content", "Page", "Tag"])
        #expect(a.entityVersionHashes.values.allSatisfy { $0.count == 32 })
        let checked = try a.checked()
        #expect(checked.versionHash == b.versionHash)
        #expect(checked.versionChecksum == b.versionChecksum)
    }

    @Test("the blog model's hash matches the pinned golden value")
    func golden() {
        #expect(SHA256.hex(BlogModel.handBuilt().versionHash) == Self.goldenBlogHash)
    }

    @Test("the model hash is SHA-256 over entity hashes in entity-name order")
    func modelHashRecipe() {
        let model = BlogModel.handBuilt()
        let hashes = model.entityVersionHashes
        let concatenated = hashes.keys.sorted().reduce(into: Data()) { $0.append(hashes[$1] ?? Data()) }
        #expect(model.versionHash == SHA256.hash(concatenated))
    }

    @Test("storage changes change the hash")
    func storageChangesChangeTheHash() throws {
        let changes: [(String, (ManagedObjectModel) throws -> Void)] = [
            ("attribute type", { try entity($0, "Tag").attributesByName["label"]?.attributeType = .integer32AttributeType }),
            ("optionality", { try entity($0, "Tag").attributesByName["label"]?.isOptional = false }),
            ("transient", { try entity($0, "Tag").attributesByName["label"]?.isTransient = true }),
            ("added attribute", { try entity($0, "Tag").properties.append(BlogModel.attribute("color", .stringAttributeType)) }),
            ("renamed attribute", { try entity($0, "Tag").attributesByName["label"]?.name = "title" }),
            ("relationship to-many → bounded", { try entity($0, "Article").relationshipsByName["tags"]?.maxCount = 5 }),
            ("relationship ordered", { try entity($0, "Article").relationshipsByName["tags"]?.isOrdered = true }),
            ("relationship min count", { try entity($0, "Article").relationshipsByName["category"]?.minCount = 1 }),
            ("constraint added", { try entity($0, "Page").uniquenessConstraints = [["slug"]] }),
            ("constraint made compound", { try entity($0, "Category").uniquenessConstraints = [["name", "articleCount"]] }),
            ("fetch index direction", { try entity($0, "Category").indexes.first?.elements.first?.isAscending = false }),
            ("entity made abstract", { try entity($0, "Tag").isAbstract = true }),
            ("hash modifier", { try entity($0, "Tag").versionHashModifier = "v2" }),
            ("derivation", { (try entity($0, "Category").attributesByName["totalViews"] as? DerivedAttributeDescription)?.derivationExpression = "@max.articles.views" }),
            ("composite element type", {
                let scheme = try entity($0, "Article").attributesByName["colorScheme"] as? CompositeAttributeDescription
                (scheme?.elements.first as? AttributeDescription)?.attributeType = .integer16AttributeType
            }),
            ("indexed", { try entity($0, "Tag").attributesByName["label"]?.isIndexed = true }),
        ]
        for (label, change) in changes {
            let (before, after) = try hashes(change)
            #expect(before != after, "\(label) should change the model hash")
        }
    }

    @Test("property hashes: equal for equal properties, different when a stored detail differs")
    func propertyHashes() {
        let a = BlogModel.attribute("name", .stringAttributeType)
        let b = BlogModel.attribute("name", .stringAttributeType)
        #expect(a.versionHash == b.versionHash && a.versionHash.count == 32)
        b.isOptional = false
        #expect(a.versionHash != b.versionHash)
        b.isOptional = true
        b.versionHashModifier = "2"
        #expect(a.versionHash != b.versionHash)
        let derived = BlogModel.derived("name", .stringAttributeType, "now()")
        #expect(derived.isReadOnly && derived.versionHash != a.versionHash)
    }

    @Test("a change in a parent entity changes its sub-entities' hashes")
    func parentChangePropagates() throws {
        let before = BlogModel.handBuilt().entityVersionHashes
        let model = BlogModel.handBuilt()
        try entity(model, "Content").properties.append(BlogModel.attribute("summary", .stringAttributeType))
        let after = model.entityVersionHashes
        #expect(after["Content"] != before["Content"])
        #expect(after["Article"] != before["Article"])
        #expect(after["Page"] != before["Page"])
        #expect(after["Tag"] == before["Tag"])
    }

    @Test("non-storage details do not change the hash")
    func nonStorageChangesKeepTheHash() throws {
        let changes: [(String, (ManagedObjectModel) throws -> Void)] = [
            ("userInfo", { try entity($0, "Tag").userInfo = ["note": "x"]; try entity($0, "Tag").attributesByName["label"]?.userInfo = ["a": 1] }),
            ("class name", { try entity($0, "Tag").managedObjectClassName = "TagObject" }),
            ("renaming identifier", { try entity($0, "Tag").attributesByName["label"]?.renamingIdentifier = "oldLabel" }),
            ("validation rules", { try entity($0, "Tag").attributesByName["label"]?.validationRules = [.minimumLength(3)] }),
            ("default value", { try entity($0, "Tag").attributesByName["label"]?.defaultValue = "untitled" }),
            ("delete rule", { try entity($0, "Category").relationshipsByName["articles"]?.deleteRule = .denyDeleteRule }),
            ("declaration order", { let e = try entity($0, "Category"); e.properties = e.properties.reversed() }),
            ("entity order", { $0.entities = $0.entities.reversed() }),
            ("derivation spelling", { (try entity($0, "Category").attributesByName["totalViews"] as? DerivedAttributeDescription)?.derivationExpression = " articles.@sum.views " }),
        ]
        for (label, change) in changes {
            let (before, after) = try hashes(change)
            #expect(before == after, "\(label) should not change the model hash")
        }
    }

    @Test("the order of uniqueness constraints does not matter; the order inside one does")
    func constraintOrder() throws {
        func hash(_ constraints: [[String]]) throws -> Data {
            let model = BlogModel.handBuilt()
            try entity(model, "Category").uniquenessConstraints = constraints
            return model.versionHash
        }
        #expect(try hash([["name"], ["articleCount"]]) == hash([["articleCount"], ["name"]]))
        #expect(try hash([["name", "articleCount"]]) != hash([["articleCount", "name"]]))
    }
}

/// Runs one test of this binary in a child process and reads back the hash it
/// computed: proves the hash does not depend on per-process state (such as
/// Swift's seeded `Hasher`).
@Suite("Version hashes agree across processes")
struct ModelVersionHashChildProcessTests {
    static let outputVariable = "FAULTLINE_HASH_CHILD_OUTPUT"

    /// In the child (variable set) writes the blog model's hash to the named file.
    /// In a normal run it only checks the hash is well formed.
    @Test("child: write the blog model's hash when asked")
    func writeHashForParentProcess() throws {
        let hash = BlogModel.handBuilt().versionHash
        #expect(hash.count == 32)
        if let path = ProcessInfo.processInfo.environment[Self.outputVariable] {
            try SHA256.hex(hash).write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @Test("parent: a child process computes the same hash")
    func childProcessAgrees() throws {
        guard ProcessInfo.processInfo.environment[Self.outputVariable] == nil else { return }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-hash-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try TestChildProcess.start(filter: "ModelVersionHashChildProcessTests/writeHashForParentProcess", variable: Self.outputVariable, value: output.path)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        let written = try String(contentsOf: output, encoding: .utf8)
        #expect(written == SHA256.hex(BlogModel.handBuilt().versionHash))
    }
}
