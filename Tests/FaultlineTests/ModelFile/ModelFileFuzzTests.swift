// Thousands of damaged model files: deleted, duplicated and swapped characters,
// truncations, dropped closing tags, injected attributes and elements. Every one
// either reads or fails with a ModelFileError; what reads also survives
// `checked()` and the writer. Seeded, so a failure reproduces.

import Foundation
import Testing
import Faultline

@Suite("Model files: mutated files never crash the reader, the checker or the writer")
struct ModelFileFuzzTests {
    static let injectedAttributes = [
        #" foo="bar""#, #" optional="maybe""#, #" attributeType="Integer 99""#, #" attributeType="Composite""#,
        #" maxCount="-1""#, #" maxCount="7""#, #" toMany="YES""#, #" minValueString="x""#, #" composite="Nope""#,
        #" composite="ColorScheme""#, #" parentEntity="Item""#, #" parentEntity="Base""#, #" destinationEntity="Nope""#,
        #" inverseName="ghost""#, #" defaultValueString="99999999999999999999""#, #" defaultDateTimeInterval="inf""#,
        #" derived="YES""#, #" name="""#, #" name="Item""#, #" isAbstract="YES""#, #" minCount="3""#,
        #" regularExpressionString="([""#, #" type="RTree""#, #" entity="Nope""#, #" value="""#,
    ]

    static let injectedElements = [
        #"<entity name="X"/>"#, #"<attribute/>"#, #"<attribute name="z" attributeType="String"/>"#,
        #"<relationship name="r" destinationEntity="Item" inverseName="zzz"/>"#,
        #"<composite name="ColorScheme"><attribute name="c" attributeType="Composite" composite="ColorScheme"/></composite>"#,
        #"<userInfo><entry key="k"/><entry/></userInfo>"#, #"<fetchIndex name="f"/>"#,
        #"<uniquenessConstraints><uniquenessConstraint/></uniquenessConstraints>"#,
        #"<configuration name="C"><memberEntity name="Nope"/></configuration>"#,
        String(repeating: "<a>", count: 60) + String(repeating: "</a>", count: 60),
        "<![CDATA[x]]>", "<!-- comment -->", "&amp;", "&bogus;", "<?pi x?>",
    ]

    private static func mutate(_ input: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return bytes }
        func position() -> Int { Int.random(in: 0..<max(1, bytes.count), using: &rng) }
        switch Int.random(in: 0..<9, using: &rng) {
        case 8:
            let junk = (0..<Int.random(in: 1...4, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            bytes.insert(contentsOf: junk, at: position())
        case 0:
            let start = position()
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...12, using: &rng)))
        case 1:
            let start = position()
            let slice = bytes[start..<min(bytes.count, start + Int.random(in: 1...40, using: &rng))]
            bytes.insert(contentsOf: slice, at: position())
        case 2:
            let (i, j) = (position(), position())
            if i < bytes.count, j < bytes.count { bytes.swapAt(i, j) }
        case 3:
            bytes = Array(bytes.prefix(position()))
        case 4:
            let closings = bytes.indices.filter { $0 + 1 < bytes.count && bytes[$0] == UInt8(ascii: "<") && bytes[$0 + 1] == UInt8(ascii: "/") }
            if let start = closings.randomElement(using: &rng), let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) {
                bytes.removeSubrange(start...end)
            }
        case 5:
            let tags = bytes.indices.filter { bytes[$0] == UInt8(ascii: "<") && $0 + 1 < bytes.count && bytes[$0 + 1] != UInt8(ascii: "/") && bytes[$0 + 1] != UInt8(ascii: "?") }
            if let start = tags.randomElement(using: &rng),
               let nameEnd = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/") }),
               let attribute = injectedAttributes.randomElement(using: &rng) {
                bytes.insert(contentsOf: Array(attribute.utf8), at: nameEnd)
            }
        case 6:
            let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: ">") }
            if let end = ends.randomElement(using: &rng), let element = injectedElements.randomElement(using: &rng) {
                bytes.insert(contentsOf: Array(element.utf8), at: end + 1)
            }
        default:
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            if let quote = quotes.randomElement(using: &rng) {
                let junk = (0..<Int.random(in: 0...6, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                bytes.insert(contentsOf: junk, at: quote + 1)
            }
        }
        return bytes
    }

    @Test("6000 mutations of the kitchen-sink and fixture files: read, check, write, no crash")
    func mutations() throws {
        ModelFileTestSupport.registerTransformers()
        var seeds: [[UInt8]] = [Array(KitchenSinkModelFile.xml.utf8)]
        for fixture in [ModelFileTestSupport.Fixture.groceryDude, .cartKit] {
            let bundle = try ModelFileTestSupport.fixture(fixture)
            let reader = try ModelFileReader().read(at: bundle)
            for version in reader.versions.suffix(1) {
                if let url = version.sourceURL { seeds.append(Array(try Data(contentsOf: url))) }
            }
        }
        var rng = SeededGenerator(seed: 0x5EED_F00D)
        var (readCount, errorCount, checkedCount, writtenCount) = (0, 0, 0, 0)
        for iteration in 0..<6000 {
            var bytes = seeds[iteration % seeds.count]
            for _ in 0..<Int.random(in: 1...3, using: &rng) { bytes = Self.mutate(bytes, using: &rng) }
            do {
                let version = try ModelFileReader().readContents(Data(bytes), versionName: "Fuzz", file: "fuzz-\(iteration)")
                readCount += 1
                if (try? ModelFileWriter().contentsText(of: version.model, extras: version.extras)) != nil { writtenCount += 1 }
                if (try? version.model.checked()) != nil { checkedCount += 1 }
            } catch {
                errorCount += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(readCount + errorCount == 6000)
        #expect(readCount > 100 && errorCount > 100, "both outcomes are exercised: \(readCount) read, \(errorCount) errors")
        #expect(checkedCount > 0 && writtenCount > 0)
    }
}
