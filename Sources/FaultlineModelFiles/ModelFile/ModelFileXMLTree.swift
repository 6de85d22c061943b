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
        if let (line, column) = firstInvalidUTF8(in: data) {
            throw ModelFileError(.malformedXML, "the file is not valid UTF-8 (model files are UTF-8)",
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

    /// The 1-based line and column of the first byte that is not valid UTF-8, or
    /// nil when all of `data` is valid UTF-8.
    static func firstInvalidUTF8(in data: Data) -> (Int, Int)? {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var (line, column) = (1, 1)
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
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
