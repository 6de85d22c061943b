// Core Data's Spotlight flag (`isIndexedBySpotlight`) is read from compiled
// models and model files and written back, instead of being warned about: it
// changes nothing in the store, but a model read and written must keep it.

import Foundation
import Testing
import FixtureSupport
@testable import Faultline

@Suite("Spotlight indexing flags")
struct SpotlightFlagTests {
    @Test("Apple's NoteStore cache: NSIndexedBySpotlight read on attributes and relationships, no warning")
    func archivedFlagIsRead() throws {
        let version = try CompiledModelReader.model(fromModelCacheOf: CoreDataFixtures.url("log2timeline__plaso/ios/NoteStore.sqlite"))
        #expect(!version.warnings.contains { $0.path.hasSuffix("NSIndexedBySpotlight") }, "\(version.warnings)")
        let attachment = try #require(version.model.entitiesByName["ICAttachment"])
        let flagged = attachment.properties.filter(\.isIndexedBySpotlight).map(\.name)
        #expect(flagged.contains("creationDate") && flagged.contains("location"), "\(flagged)")
        #expect(flagged.count < attachment.properties.count)
    }

    @Test("spotlightIndexingEnabled in a model file reads, writes back, and leaves the hash alone")
    func modelFileFlagRoundTrips() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Note" representedClassName="Note">
                    <attribute name="title" optional="YES" attributeType="String" spotlightIndexingEnabled="YES"/>
                    <attribute name="body" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """
        let version = try ModelFileReader().readContents(Data(text.utf8))
        #expect(version.warnings.isEmpty, "\(version.warnings)")
        let note = try #require(version.model.entitiesByName["Note"])
        #expect(note.properties.filter(\.isIndexedBySpotlight).map(\.name) == ["title"])
        let written = try ModelFileWriter().contentsText(of: version.model)
        #expect(written.contains("spotlightIndexingEnabled=\"YES\""))
        let reread = try ModelFileReader().readContents(Data(written.utf8))
        #expect(reread.model.entitiesByName["Note"]?.properties.filter(\.isIndexedBySpotlight).map(\.name) == ["title"])
        let plain = try ModelFileReader().readContents(Data(text.replacingOccurrences(of: " spotlightIndexingEnabled=\"YES\"", with: "").utf8))
        #expect(plain.model.entityVersionHashes == version.model.entityVersionHashes)
    }
}
