// What Faultline does not interpret is reported with its path and line; what
// would change the model's meaning is an error with file, line and column.

import Foundation
import Testing
import Faultline

@Suite("Model files: unsupported content becomes a warning with its path")
struct ModelFileWarningTests {
    @Test("an unknown XML attribute is reported at /model/entity[@name]/attribute[@name]/@key with its line")
    func unknownAttribute() throws {
        let read = try ModelFileTestSupport.read("""
            <model>
                <entity name="Item">
                    <attribute name="x" optional="YES" attributeType="String" bar="YES" foo="1"/>
                </entity>
            </model>
            """)
        #expect(read.warnings.map(\.path) == [
            "/model/entity[@name='Item']/attribute[@name='x']/@bar",
            "/model/entity[@name='Item']/attribute[@name='x']/@foo",
        ])
        #expect(read.warnings.allSatisfy { $0.line == 3 && $0.file == "test.xml" })
        #expect(read.warnings.first?.description.hasPrefix("test.xml:3:") == true)
    }

    @Test("code-generation-only attributes are ignored without a warning")
    func codeGenerationOnly() throws {
        let read = try ModelFileTestSupport.read("""
            <model><entity name="E" syncable="YES"><attribute name="n" optional="YES" attributeType="Integer 16" usesScalarValueType="YES" syncable="YES"/></entity></model>
            """)
        #expect(read.warnings.isEmpty)
    }

    @Test("unknown elements at every level are reported, numbered when unnamed")
    func unknownElements() throws {
        let read = try ModelFileTestSupport.read("""
            <model>
                <entity name="E">
                    <attribute name="a" optional="YES" attributeType="String"><gadget/></attribute>
                    <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E"><gizmo/></relationship>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="a"/><other/></uniquenessConstraint></uniquenessConstraints>
                    <widget/>
                </entity>
                <thing/>
            </model>
            """)
        let paths = read.warnings.map(\.path)
        #expect(paths.contains("/model/entity[@name='E']/attribute[@name='a']/gadget[1]"))
        #expect(paths.contains("/model/entity[@name='E']/relationship[@name='r']/gizmo[1]"))
        #expect(paths.contains("/model/entity[@name='E']/uniquenessConstraints[1]/uniquenessConstraint[1]/other[1]"))
        #expect(paths.contains("/model/entity[@name='E']/widget[1]"))
        #expect(paths.contains("/model/thing[1]"))
        #expect(read.model.entitiesByName["E"]?.uniquenessConstraints == [["a"]])
    }

    @Test("things kept but not evaluated or checked later are reported too")
    func keptButUnsupported() throws {
        let read = try ModelFileTestSupport.read("""
            <model>
                <entity name="E">
                    <attribute name="id" optional="YES" attributeType="ObjectID"/>
                    <attribute name="loose" optional="YES" attributeType="Undefined"/>
                    <attribute name="s" optional="YES" attributeType="String" derivationExpression="x"/>
                    <fetchIndex name="byExpression"><fetchIndexElement expression="s" expressionType="String" type="Binary" order="ascending"/></fetchIndex>
                </entity>
                <composite name="Unused"><attribute name="u" optional="YES" attributeType="String"/></composite>
                text that means nothing
            </model>
            """)
        let messages = read.warnings.map(\.message).joined(separator: "\n")
        #expect(messages.contains("ObjectID attributes only exist in fetch results"))
        #expect(messages.contains("Undefined attributes must be transient"))
        #expect(messages.contains("derivationExpression without derived"))
        #expect(messages.contains("expressions are not supported"))
        #expect(messages.contains("has no property elements"))
        #expect(messages.contains("composite definition 'Unused' is used by no attribute"))
        #expect(messages.contains("text inside <model>"))
        #expect(read.model.entitiesByName["E"]?.indexes.isEmpty == true)
    }
}

@Suite("Model files: unreadable or meaning-changing content is an error with file, line and column")
struct ModelFileErrorTests {
    private func error(_ xml: String) -> ModelFileError? {
        do {
            _ = try ModelFileTestSupport.read(xml)
            return nil
        } catch {
            return error
        }
    }

    @Test("malformed XML reports libxml2's line and column")
    func malformed() throws {
        let failure = try #require(error("<model>\n  <entity name=\"A\">\n  <attribute name=\"x\" attributeType=\"String\"\n</model>"))
        #expect(failure.kind == .malformedXML)
        #expect(failure.file == "test.xml")
        #expect(failure.line >= 3 && failure.column > 0)
        #expect(error("")?.kind == .malformedXML)
        #expect(error("not xml at all")?.kind == .malformedXML)
        #expect(error("<model></model><model></model>")?.kind == .malformedXML)
    }

    @Test("every truncation of a valid file is an error, never a crash or a partial model")
    func truncated() {
        let xml = KitchenSinkModelFile.xml
        let bytes = Array(xml.utf8)
        let end = bytes.count - 1  // the last byte is '>' of </model>
        for length in stride(from: 0, to: end, by: 7) {
            let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
            #expect(error(prefix)?.kind == .malformedXML, "prefix of \(length) bytes")
        }
    }

    @Test("a root other than <model> is not a model file")
    func notAModel() {
        #expect(error("<plist version=\"1.0\"><dict/></plist>")?.kind == .notAModel)
    }

    @Test("a relationship to an unknown entity names the relationship's line and attribute")
    func unknownDestination() throws {
        let failure = try #require(error("""
            <model>
                <entity name="A">
                    <attribute name="x" optional="YES" attributeType="String"/>
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Ghost"/>
                </entity>
            </model>
            """))
        #expect(failure.kind == .unknownEntity)
        #expect(failure.line == 4 && failure.column > 0)
        #expect(failure.path == "/model/entity[@name='A']/relationship[@name='b']/@destinationEntity")
        #expect(failure.description.contains("Ghost"))
    }

    @Test("meaning-changing problems are errors of the right kind", arguments: [
        (#"<entity name="A"><attribute name="x" attributeType="Integer 99"/></entity>"#, ModelFileError.Kind.unknownAttributeType),
        (#"<entity name="A"><attribute name="x"/></entity>"#, .missingAttribute),
        (#"<entity name="A"><attribute attributeType="String"/></entity>"#, .missingAttribute),
        (#"<entity name="A"><attribute name="x" optional="maybe" attributeType="String"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="Integer 16" defaultValueString="seven"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="Boolean" defaultValueString="perhaps"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="UUID" defaultValueString="nope"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="Date" defaultDateTimeInterval="soon"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="Integer 32" minValueString="low"/></entity>"#, .invalidValue),
        (#"<entity name="A"><attribute name="x" attributeType="Binary" minValueString="1"/></entity>"#, .inconsistent),
        (#"<entity name="A"><attribute name="x" attributeType="Binary" defaultValueString="AA=="/></entity>"#, .inconsistent),
        (#"<entity name="A"><attribute name="x" attributeType="Integer 32" regularExpressionString="a+"/></entity>"#, .inconsistent),
        (#"<entity name="A"><attribute name="x" attributeType="String" defaultDateTimeInterval="1"/></entity>"#, .inconsistent),
        (#"<entity name="A"><attribute name="x" attributeType="Composite" composite="Nope"/></entity>"#, .unknownComposite),
        (#"<entity name="A"><attribute name="x" attributeType="Composite"/></entity>"#, .missingAttribute),
        (#"<entity name="A"><attribute name="x" attributeType="Composite" composite="C"/></entity><composite name="C"><attribute name="y" attributeType="Composite" composite="C"/></composite>"#, .inconsistent),
        (#"<entity name="A"/><entity name="A"/>"#, .duplicateName),
        (#"<entity/>"#, .missingAttribute),
        (#"<entity name="A" parentEntity="Ghost"/>"#, .unknownEntity),
        (#"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#, .inconsistent),
        (#"<entity name="A" isAbstract="sometimes"/>"#, .invalidValue),
        (#"<entity name="A"><relationship name="r" destinationEntity="A" inverseName="ghost"/></entity>"#, .unknownInverse),
        (#"<entity name="A"><relationship name="r" destinationEntity="A" inverseName="r" inverseEntity="Ghost"/></entity>"#, .unknownEntity),
        (#"<entity name="A"><relationship name="r" maxCount="5" destinationEntity="A"/></entity>"#, .inconsistent),
        (#"<entity name="A"><relationship name="r" toMany="YES" maxCount="1" destinationEntity="A"/></entity>"#, .inconsistent),
        (#"<entity name="A"><relationship name="r" minCount="-1" destinationEntity="A"/></entity>"#, .invalidValue),
        (#"<entity name="A"><relationship name="r" deletionRule="Explode" destinationEntity="A"/></entity>"#, .invalidValue),
        (#"<entity name="A"><relationship name="r"/></entity>"#, .missingAttribute),
        (#"<entity name="A"><fetchIndex name="i"><fetchIndexElement property="x" type="Hash"/></fetchIndex></entity>"#, .invalidValue),
        (#"<entity name="A"><fetchedProperty name="f"/></entity>"#, .missingAttribute),
        (#"<entity name="A"/><configuration name="C"><memberEntity name="Ghost"/></configuration>"#, .unknownEntity),
        (#"<entity name="A"/><fetchRequest name="F" entity="Ghost"/>"#, .unknownEntity),
        (#"<entity name="A"/><composite name="C"/><composite name="C"/>"#, .duplicateName),
    ])
    func meaningChanging(_ body: String, _ kind: ModelFileError.Kind) throws {
        let failure = try #require(error("<model>\(body)</model>"))
        #expect(failure.kind == kind, "\(failure)")
        #expect(failure.line == 1 && failure.column > 0)
        #expect(failure.path?.hasPrefix("/model") == true)
    }

    @Test("absurdly deep nesting is refused without recursion")
    func tooDeep() {
        let depth = 5000
        let xml = "<model>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</model>"
        #expect(error(xml)?.kind == .tooDeep)
    }

    @Test("long chains of composites or parents are refused before anything recurses over them")
    func deepChains() {
        let composites = (0..<40).map { #"<composite name="C\#($0)"><attribute name="x" optional="YES" attributeType="Composite" composite="C\#($0 + 1)"/></composite>"# }
        let compositeXML = #"<model><entity name="E"><attribute name="c" optional="YES" attributeType="Composite" composite="C0"/></entity>"#
            + composites.joined() + #"<composite name="C40"><attribute name="y" optional="YES" attributeType="String"/></composite></model>"#
        #expect(error(compositeXML)?.kind == .tooDeep)
        let entities = (1..<2000).map { #"<entity name="E\#($0)" parentEntity="E\#($0 - 1)"/>"# }
        #expect(error("<model><entity name=\"E0\"/>" + entities.joined() + "</model>")?.kind == .tooDeep)
    }

    @Test("invalid UTF-8 anywhere (names, comments, values) is an error with its position, not a trap in Foundation")
    func invalidUTF8() throws {
        let pieces: [[UInt8]] = [
            Array("<model>\n<ent".utf8) + [0xF2, 0x34] + Array("ity name=\"A\"/></model>".utf8),
            Array("<model><!-- ".utf8) + [0xC3] + Array(" --></model>".utf8),
            Array("<model><entity na".utf8) + [0xFF] + Array("me=\"A\"/></model>".utf8),
            Array("<model><?pi".utf8) + [0xE2, 0x82] + Array("?></model>".utf8),
        ]
        for bytes in pieces {
            do {
                _ = try ModelFileReader().readContents(Data(bytes), file: "bad.xml")
                Issue.record("invalid UTF-8 must be refused")
            } catch {
                #expect(error.kind == .malformedXML)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
    }

    @Test("a bundle with several versions and no current version is an error")
    func missingCurrentVersion() throws {
        let scratch = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("M.xcdatamodeld")
        let xml = "<model><entity name=\"A\"/></model>"
        _ = try ModelFileTestSupport.writeVersion(xml, named: "M", in: folder)
        _ = try ModelFileTestSupport.writeVersion(xml, named: "M 2", in: folder)
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: folder) }
        do {
            _ = try ModelFileReader().read(at: folder)
        } catch {
            #expect(error.kind == .missingCurrentVersion)
            #expect(error.file.hasSuffix(".xccurrentversion"))
        }
        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "M 9.xcdatamodel"],
                                                       format: .xml, options: 0)
        try plist.write(to: folder.appendingPathComponent(".xccurrentversion"))
        do {
            _ = try ModelFileReader().read(at: folder)
            Issue.record("a current version that is not in the bundle must be an error")
        } catch {
            #expect(error.kind == .missingCurrentVersion)
            #expect(error.message.contains("M 9.xcdatamodel"))
        }
        try Data("garbage".utf8).write(to: folder.appendingPathComponent(".xccurrentversion"))
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: folder) }
    }

    @Test("missing paths and version folders without contents are errors")
    func missingFiles() throws {
        let folder = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: folder.appendingPathComponent("None.xcdatamodeld")) }
        let empty = folder.appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: empty) }
        let bundle = folder.appendingPathComponent("B.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: bundle) }
    }
}
