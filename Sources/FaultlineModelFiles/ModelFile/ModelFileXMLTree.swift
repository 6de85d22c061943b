// A model file's XML as a flat element tree, built with Foundation's `XMLParser`
// (libxml2's SAX parser; `FoundationXML` on Linux).
//
// Invariants.
//  1. Nodes live in one array and refer to children by index, so no input —
//     however deep — makes building, walking or freeing the tree recurse.
//  2. Nesting deeper than `maximumDepth` aborts the parse with `.tooDeep`:
//     real model files nest at most six levels.
//  3. Every node knows its line, column and path (see ModelFileDiagnostics.swift),
//     so every later warning or error can point into the file.
//  4. External entities are never resolved; text content is recorded only as
//     "this element had text" (the format keeps everything in attributes).
//  5. Only valid UTF-8 reaches `XMLParser`. swift-corelibs-foundation runs
//     libxml2 in recover mode and force-unwraps element, attribute, comment and
//     processing-instruction names decoded as UTF-8, so a name with an invalid
//     byte traps inside Foundation. Invalid input is rejected first (with its
//     line and column), and the first error libxml2 reports ends the parse.
// Parsing is serialized process-wide: libxml2's global state is not something to
// race from parallel tests.

import Foundation
import FaultlineModel
import FaultlineSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element.
struct ModelFileXMLNode {
    let name: String
    let attributes: [String: String]
    fileprivate(set) var children: [Int] = []
    let line: Int
    let column: Int
    /// `/model/entity[@name='Item']`.
    let path: String
    /// Whether the element held non-whitespace text or CDATA.
    fileprivate(set) var hasText = false
}

/// A parsed XML document; `nodes[0]` is the root element.
struct ModelFileXMLTree {
    static let maximumDepth = 48

    let nodes: [ModelFileXMLNode]

    var root: ModelFileXMLNode { nodes[0] }

    func children(of node: ModelFileXMLNode) -> [ModelFileXMLNode] {
        node.children.map { nodes[$0] }
    }

    private static let parseLock = Locked<Int>(0)

    /// Parses `data`; `file` names the source in errors.
    ///
    /// - Throws: `.malformedXML` (with libxml2's position), `.tooDeep`.
    static func parse(_ data: Data, file: String) throws(ModelFileError) -> ModelFileXMLTree {
        guard !data.isEmpty else {
            throw ModelFileError(.malformedXML, "the file is empty", file: file, line: 1, column: 1)
        }
        if let (line, column, problem) = firstUnreadableCharacter(in: data) {
            throw ModelFileError(.malformedXML, problem, file: file, line: line, column: column)
        }
        // The bytes are UTF-8, so a declaration naming another encoding is
        // false, and libxml2 (under Foundation's XMLParser) crashes decoding
        // some (UTF-7, UTF-32, EBCDIC; found by the model-file fuzz target).
        if let encoding = declaredEncoding(in: data), !["utf-8", "utf8"].contains(encoding.lowercased()) {
            throw ModelFileError(.malformedXML, "the XML declaration names encoding \"\(encoding)\"; model files are UTF-8",
                                 file: file, line: 1, column: 1)
        }
        // Foundation's XMLParser on Linux reads a processing instruction's
        // data with strlen even when there is none, and crashes (found by the
        // model-file fuzz target).
        if let offset = emptyProcessingInstruction(in: data) {
            let (line, column) = position(of: offset, in: data)
            throw ModelFileError(.malformedXML, "a processing instruction without data (<?name?>), which model files never hold",
                                 file: file, line: line, column: column)
        }
        let builder = TreeBuilder(file: file)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let succeeded = parseLock.withLock { count in
            count += 1
            return parser.parse()
        }
        parser.delegate = nil
        if let failure = builder.failure { throw failure }
        guard succeeded, builder.errorPosition == nil, builder.stack.isEmpty, !builder.nodes.isEmpty else {
            let (line, column) = builder.errorPosition ?? (0, 0)
            throw ModelFileError(.malformedXML, builder.errorMessage ?? "the XML is not well formed",
                                 file: file, line: line, column: column)
        }
        return ModelFileXMLTree(nodes: builder.nodes)
    }

    /// The 1-based line and column (in characters) of the byte at `offset`.
    static func position(of offset: Int, in data: Data) -> (Int, Int) {
        let before = data.prefix(offset)
        let line = 1 + before.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        return (line, String(decoding: before[lineStart...], as: UTF8.self).unicodeScalars.count + 1)
    }

    /// The offset of the first `<?target?>` with nothing but space after its
    /// target, the XML declaration aside.
    static func emptyProcessingInstruction(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { continue }
            var cursor = index + 2
            let nameStart = cursor
            while cursor < bytes.count, ![UInt8(ascii: "?"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
            while cursor < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
            if name.lowercased() != "xml", cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "?"), bytes[cursor + 1] == UInt8(ascii: ">") {
                return index
            }
        }
        return nil
    }

    /// The `encoding` of a leading XML declaration (`<?xml … encoding="…"?>`), if any.
    static func declaredEncoding(in data: Data) -> String? {
        var bytes = Array(data.prefix(1_024))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let declaration = text.range(of: "?>").map { String(text[..<$0.lowerBound]) } ?? text
        guard let name = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst()
        return String(value.prefix { $0 != quote })
    }

    /// The 1-based line and column of the first byte that is not valid UTF-8,
    /// or of the first NUL (XML forbids it, and libxml2 reads leading NULs as
    /// UTF-32 or UTF-16), with what is wrong; nil when there is neither.
    static func firstUnreadableCharacter(in data: Data) -> (Int, Int, String)? {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var (line, column) = (1, 1)
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" {
                    return (line, column, "the file contains a NUL character, which XML forbids")
                } else if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, column, "the file is not valid UTF-8 (model files are UTF-8)")
            }
        }
    }
}

/// `XMLParser` delegate that records elements into the flat node array.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let file: String
    var nodes: [ModelFileXMLNode] = []
    var stack: [Int] = []
    /// Per open element: how many children of each name it has so far.
    var siblingCounts: [[String: Int]] = [[:]]
    var failure: ModelFileError?
    var errorPosition: (Int, Int)?
    var errorMessage: String?

    init(file: String) {
        self.file = file
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil, errorPosition == nil else { return }
        if stack.count >= ModelFileXMLTree.maximumDepth {
            failure = ModelFileError(.tooDeep, "elements nest deeper than \(ModelFileXMLTree.maximumDepth) levels",
                                     file: file, line: parser.lineNumber, column: parser.columnNumber)
            parser.abortParsing()
            return
        }
        if stack.isEmpty, !nodes.isEmpty {
            failure = ModelFileError(.malformedXML, "the document has more than one root element",
                                     file: file, line: parser.lineNumber, column: parser.columnNumber)
            parser.abortParsing()
            return
        }
        let parentPath = stack.last.map { nodes[$0].path } ?? ""
        let ordinal = (siblingCounts[siblingCounts.count - 1][elementName] ?? 0) + 1
        siblingCounts[siblingCounts.count - 1][elementName] = ordinal
        let step: String
        if let name = attributeDict["name"] {
            step = "\(elementName)[@name='\(name)']"
        } else if stack.isEmpty {
            step = elementName
        } else {
            step = "\(elementName)[\(ordinal)]"
        }
        let node = ModelFileXMLNode(name: elementName, attributes: attributeDict,
                                    line: parser.lineNumber, column: parser.columnNumber,
                                    path: parentPath + "/" + step)
        nodes.append(node)
        if let parent = stack.last { nodes[parent].children.append(nodes.count - 1) }
        stack.append(nodes.count - 1)
        siblingCounts.append([:])
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard failure == nil, errorPosition == nil, !stack.isEmpty else { return }
        stack.removeLast()
        siblingCounts.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let current = stack.last,
              string.contains(where: { !$0.isWhitespace }) else { return }
        nodes[current].hasText = true
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard let current = stack.last else { return }
        nodes[current].hasText = true
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard errorPosition == nil else { return }
        errorPosition = (parser.lineNumber, parser.columnNumber)
        // Recover mode would go on calling back with whatever it salvages.
        parser.abortParsing()
        let code = (parseError as NSError).code
        errorMessage = "the XML is not well formed (libxml2 error \(code)); the file may be truncated or damaged"
    }
}

extension ModelFileXMLTree {
    /// Builds a tree from elements made in code rather than parsed (Xcode 3's
    /// `elements` archive, translated), with paths as the parser spells them.
    /// Nodes have no line or column.
    struct Assembler {
        private(set) var nodes: [ModelFileXMLNode] = []
        private var siblingCounts: [[String: Int]] = []

        /// Appends an element under `parent` (nil: the root); returns its index.
        mutating func add(_ name: String, _ attributes: [String: String], under parent: Int?) -> Int {
            let step: String
            if let named = attributes["name"] {
                step = "\(name)[@name='\(named)']"
            } else if let parent {
                let ordinal = (siblingCounts[parent][name] ?? 0) + 1
                siblingCounts[parent][name] = ordinal
                step = "\(name)[\(ordinal)]"
            } else {
                step = name
            }
            let path = (parent.map { nodes[$0].path } ?? "") + "/" + step
            nodes.append(ModelFileXMLNode(name: name, attributes: attributes, line: 0, column: 0, path: path))
            siblingCounts.append([:])
            if let parent { nodes[parent].children.append(nodes.count - 1) }
            return nodes.count - 1
        }

        var tree: ModelFileXMLTree { ModelFileXMLTree(nodes: nodes) }
    }
}
