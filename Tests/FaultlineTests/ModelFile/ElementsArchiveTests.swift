// Xcode 3's `elements` archives, hand-made with Foundation's NSKeyedArchiver
// under Xcode's class names, read to the same model as the XML `contents` that
// says the same thing; settings Faultline does not read are warnings, and an
// archive that is not an Xcode 3 model is a typed error. The fixtures' two real
// `elements` files are read by the model-file walk (ModelFileWalkTests).

import Foundation
import Testing
@testable import Faultline

/// Xcode 3's archived classes, one stand-in each (the archive names the
/// Swift class; the XML form is rewritten to Xcode's name).
class XDStandIn: NSObject, NSCoding {
    var fields: [String: Any]
    init(_ fields: [String: Any] = [:]) { self.fields = fields }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        for (key, value) in fields { coder.encode(value, forKey: key) }
    }
    class var xcodeName: String { "" }
}
final class XDPMModelStandIn: XDStandIn { override class var xcodeName: String { "XDPMModel" } }
final class XDModelPackageStandIn: XDStandIn { override class var xcodeName: String { "XDModelPackage" } }
final class XDPMEntityStandIn: XDStandIn { override class var xcodeName: String { "XDPMEntity" } }
final class XDPMAttributeStandIn: XDStandIn { override class var xcodeName: String { "XDPMAttribute" } }
final class XDPMRelationshipStandIn: XDStandIn { override class var xcodeName: String { "XDPMRelationship" } }
final class XDUMLStereotypeStandIn: XDStandIn { override class var xcodeName: String { "XDUMLStereotypeImp" } }
final class XDUMLPropertyStandIn: XDStandIn { override class var xcodeName: String { "XDUMLPropertyImp" } }
final class XDUMLGeneralizationStandIn: XDStandIn { override class var xcodeName: String { "XDUMLGeneralizationImp" } }

@Suite("Xcode 3 elements archives")
struct ElementsArchiveTests {
    /// One stereotype holding `settings` (Xcode splits them over several; one reads the same).
    private func stereotypes(_ settings: [String: Any]) -> NSDictionary {
        let properties = NSMutableDictionary()
        for (key, value) in settings { properties[key] = XDUMLPropertyStandIn(["_name": key, "_default": value]) }
        return ["XD_PPropStereotype": XDUMLStereotypeStandIn(["XDBucketForOwnedAttributesstorage": properties])]
    }

    private func entity(_ name: String, className: String, settings: [String: Any] = [:]) -> XDPMEntityStandIn {
        XDPMEntityStandIn(["_name": name, "XDBucketForStereotypesstorage": stereotypes(
            ["XD_PSK_entityClassName": className, "XD_PSK_isAbstract": false, "XD_PSK_fetchRequestsArray": NSArray(),
             "XD_PSK_userInfo": ["note": "kept", "com.apple.syncservices.Syncable": "NO"] as NSDictionary]
                .merging(settings) { _, new in new })])
    }

    private func attribute(_ settings: [String: Any]) -> XDPMAttributeStandIn {
        XDPMAttributeStandIn(["XDBucketForStereotypesstorage": stereotypes(
            ["XD_PPSK_isOptional": true, "XD_PPSK_isTransient": false, "XD_PPSK_isIndexed": false,
             "XD_PPSK_userInfo": ["policy": ["nested": "dropped"] as NSDictionary] as NSDictionary]
                .merging(settings) { _, new in new })])
    }

    /// Library ⟵ books ⟶ Book (abstract) ⟵ Novel; Book.library to-one, nullify;
    /// Library.books to-many, cascade.
    private func libraryArchive(extraBookSetting: [String: Any] = [:]) throws -> Data {
        let library = entity("Library", className: "Library")
        let book = entity("Book", className: "Book", settings: ["XD_PSK_isAbstract": true])
        let novel = entity("Novel", className: "Novel")
        novel.fields["XDBucketForGeneralizationsstorage"] = NSArray(array: [XDUMLGeneralizationStandIn(["_general": book])])

        let books = XDPMRelationshipStandIn(["_name": "books", "_owner": library])
        let owner = XDPMRelationshipStandIn(["_name": "library", "_owner": book])
        books.fields["XDBucketForStereotypesstorage"] = stereotypes(
            ["XD_PPSK_isOptional": true, "XD_PRK_destination": book, "XD_PRK_inverseRelationship": owner,
             "XD_PRK_isToMany": true, "XD_PRK_minCount": 0, "XD_PRK_maxCount": 0, "XD_PRK_deleteRule": 2])
        owner.fields["XDBucketForStereotypesstorage"] = stereotypes(
            ["XD_PPSK_isOptional": true, "XD_PRK_destination": library, "XD_PRK_inverseRelationship": books,
             "XD_PRK_isToMany": false, "XD_PRK_minCount": 1, "XD_PRK_maxCount": 1, "XD_PRK_deleteRule": 1])

        library.fields["XDBucketForOwnedAttributesstorage"] = NSDictionary(dictionary: [
            "name": attribute(["XD_PAttK_attributeType": 700, "XD_PPSK_isOptional": false,
                               "XD_PAttK_defaultValueAsString": "Main", "XD_PAttK_minValueString": "1"]),
            "books": books,
        ])
        book.fields["XDBucketForOwnedAttributesstorage"] = NSDictionary(dictionary: [
            "title": attribute(["XD_PAttK_attributeType": 700, "XD_PPSK_isIndexed": true,
                                "XD_PAttK_regularExpressionString": "[A-Z].*"].merging(extraBookSetting) { _, new in new }),
            "pages": attribute(["XD_PAttK_attributeType": 200, "XD_PAttK_defaultValueAsString": "0",
                                "XD_PAttK_minValueString": "0", "XD_PAttK_maxValueString": "5000"]),
            "published": attribute(["XD_PAttK_attributeType": 900]),
            "price": attribute(["XD_PAttK_attributeType": 400, "XD_PAttK_defaultValueAsString": "9.99"]),
            "cover": attribute(["XD_PAttK_attributeType": 1000, "XD_PAttK_allowsExternalBinaryDataStorage": true]),
            "library": owner,
        ])
        novel.fields["XDBucketForOwnedAttributesstorage"] = NSDictionary(dictionary: [
            "genre": attribute(["XD_PAttK_attributeType": 700, "XD_PPSK_elementID": "kind"]),
        ])
        let package = XDModelPackageStandIn(["_name": "", "XDBucketForClassesstorage": NSDictionary(dictionary: [
            "Library": library, "Book": book, "Novel": novel,
        ])])
        let model = XDPMModelStandIn(["_xd_rootPackage": package, "_configurationsByName": NSDictionary()])
        return try archive(model)
    }

    /// The same model as Xcode 4 writes it.
    private let libraryContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel">
            <entity name="Book" representedClassName="Book" isAbstract="YES">
                <attribute name="cover" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" minValueString="0" maxValueString="5000"/>
                <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="9.99"/>
                <attribute name="published" optional="YES" attributeType="Date"/>
                <attribute name="title" optional="YES" attributeType="String" indexed="YES" regularExpressionString="[A-Z].*"/>
                <relationship name="library" optional="YES" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
            </entity>
            <entity name="Library" representedClassName="Library">
                <attribute name="name" attributeType="String" minValueString="1" defaultValueString="Main"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
            </entity>
            <entity name="Novel" representedClassName="Novel" parentEntity="Book">
                <attribute name="genre" optional="YES" attributeType="String" elementID="kind"/>
            </entity>
        </model>
        """

    private func archive(_ root: XDStandIn) throws -> Data {
        let kinds: [XDStandIn.Type] = [XDPMModelStandIn.self, XDModelPackageStandIn.self, XDPMEntityStandIn.self,
                                       XDPMAttributeStandIn.self, XDPMRelationshipStandIn.self, XDUMLStereotypeStandIn.self,
                                       XDUMLPropertyStandIn.self, XDUMLGeneralizationStandIn.self]
        return try ArchivedModelWarningTests.keyedArchive(
            root, classNames: Dictionary(uniqueKeysWithValues: kinds.map { (NSStringFromClass($0), $0.xcodeName) }))
    }

    /// What the two formats must agree on, entity by entity.
    private func summary(_ model: CheckedModel) -> [String] {
        model.entities.map { entity in
            let parent = entity.superentityIndex.map { model.entities[$0].name } ?? "-"
            let attributes = entity.attributes.map {
                "\($0.name) \($0.attributeType) optional \($0.isOptional) indexed \($0.isIndexed) default \(String(describing: $0.defaultValue)) "
                    + "rules \($0.validationRules) external \($0.allowsExternalBinaryDataStorage)"
            }
            let relationships = entity.relationships.map {
                "\($0.name) → \(model.entities[$0.destinationEntityIndex].name) toMany \($0.isToMany) min \($0.minCount) "
                    + "max \($0.maxCount) \($0.deleteRule) inverse \($0.inverseIndex.map { String($0) } ?? "-")"
            }
            return "\(entity.name) parent \(parent) abstract \(entity.isAbstract): " + (attributes + relationships).joined(separator: "; ")
        }
    }

    @Test("An elements archive reads to the model its XML contents describes: types, defaults, bounds, relationships, inheritance, hashes")
    func sameModelAsContents() throws {
        let fromElements = try ModelFileReader().readElements(try libraryArchive(), versionName: "Library")
        let fromContents = try ModelFileReader().readContents(Data(libraryContents.utf8), versionName: "Library")
        let elements = try fromElements.model.checked()
        let contents = try fromContents.model.checked()
        #expect(summary(elements) == summary(contents))
        #expect(elements.entityVersionHashes == contents.entityVersionHashes)
        #expect(fromElements.model.entitiesByName["Novel"]?.properties.first?.renamingIdentifier == "kind")
        let userInfo = fromElements.model.entitiesByName["Library"]?.userInfo ?? [:]
        #expect(userInfo as? [String: String] == ["note": "kept", "com.apple.syncservices.Syncable": "NO"])
        #expect(fromElements.warnings.isEmpty, "\(fromElements.warnings)")
    }

    @Test("A setting Faultline does not read is a warning naming it and its element; the archive still reads")
    func unknownSettingWarns() throws {
        let version = try ModelFileReader().readElements(try libraryArchive(extraBookSetting: ["XD_PAttK_mystery": "x"]),
                                                         versionName: "Library")
        #expect(version.warnings.map(\.path) == ["/model/entity[@name='Book']/attribute[@name='title']"])
        #expect(version.warnings.first?.message.contains("XD_PAttK_mystery") == true)
    }

    @Test("Bytes that are not an Xcode 3 model archive are a typed error, not a crash")
    func notAnArchive() throws {
        for bytes in [Data(), Data("bplist00".utf8), try archive(XDModelPackageStandIn())] {
            #expect { _ = try ModelFileReader().readElements(bytes) } throws: {
                ($0 as? ModelFileError)?.kind == .unreadable
            }
        }
    }

    @Test("A .xcdatamodel folder holding only elements reads through ModelFileReader and ModelBundle")
    func folderWithElements() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("elements-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try libraryArchive().write(to: folder.appendingPathComponent("elements"))
        let bundle = try ModelBundle.read(at: folder)
        #expect(bundle.versions.count == 1)
        #expect(bundle.current?.model.entities.compactMap(\.name).sorted() == ["Book", "Library", "Novel"])
        #expect(bundle.current?.sourceURL?.lastPathComponent == "elements")
    }
}
