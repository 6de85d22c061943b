import Foundation
// What reading or writing a model file reports: warnings for what Faultline
// does not interpret (the file still reads), errors for what would change the
// model's meaning or cannot be read at all. Both carry the file, the 1-based
// line and column libxml2 reported for the element (the end of its start tag),
// and the element's path in the file in an XPath-like spelling:
//
//     /model/entity[@name='Item']/attribute[@name='x']/@foo
//
// Elements without a name attribute are numbered among their same-named
// siblings, from 1 (`uniquenessConstraints/uniquenessConstraint[2]`).

/// Something in a model file that Faultline keeps out of the model (or keeps
/// without interpreting). The file still reads; nothing is dropped silently.
public struct ModelFileWarning: Hashable, Sendable, CustomStringConvertible {
    /// The file the warning is about (a `contents` file, a plist).
    public let file: String
    /// 1-based line of the element, 0 when unknown.
    public let line: Int
    /// 1-based column of the element, 0 when unknown.
    public let column: Int
    /// Where in the file: `/model/entity[@name='Item']/attribute[@name='x']/@foo`.
    public let path: String
    /// What was found and what Faultline does with it.
    public let message: String

    public init(file: String, line: Int, column: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `file:line:column: warning: message (path)`, as compilers print.
    public var description: String {
        "\(file):\(line):\(column): warning: \(message) (\(path))"
    }
}

/// A model file that cannot be read (or a model that cannot be written) without
/// changing its meaning.
public struct ModelFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The family of the problem, for `catch` and tests.
    public enum Kind: Hashable, Sendable {
        /// The file or folder could not be read.
        case unreadable
        /// The XML is not well formed (including truncated files).
        case malformedXML
        /// The XML is well formed but not a Core Data model (no `<model>` root).
        case notAModel
        /// A bundle has several versions and no (or an unknown) current version.
        case missingCurrentVersion
        /// A required attribute (`name`, `attributeType`, …) is missing.
        case missingAttribute
        /// An attribute value cannot be read (`optional="maybe"`, `minCount="x"`).
        case invalidValue
        /// An attribute type name the format does not define.
        case unknownAttributeType
        /// A name refers to an entity that is not in the model.
        case unknownEntity
        /// A relationship's inverse is not a relationship of its destination.
        case unknownInverse
        /// An attribute refers to a composite definition that does not exist.
        case unknownComposite
        /// Two entities (or composite definitions) share a name.
        case duplicateName
        /// Attributes contradict each other or form a cycle.
        case inconsistent
        /// The file nests elements deeper than any model file does.
        case tooDeep
        /// The compiled model (`.momd/VersionInfo.plist`) cannot be read.
        case compiledModel
        /// The writer cannot express this model in the file format.
        case notRepresentable
    }

    public let kind: Kind
    /// A sentence saying what is wrong and why it is an error.
    public let message: String
    public let file: String
    /// 1-based line, 0 when the problem has no position (a missing file).
    public let line: Int
    /// 1-based column, 0 when unknown.
    public let column: Int
    /// The element's path in the file, when the problem is in one element.
    public let path: String?

    public init(_ kind: Kind, _ message: String, file: String, line: Int = 0, column: Int = 0, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.path = path
    }

    /// `file:line:column: error: message (path)`.
    public var description: String {
        let location = "\(file):\(line):\(column)"
        guard let path else { return "\(location): error: \(message)" }
        return "\(location): error: \(message) (\(path))"
    }
}

extension ModelFileError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
