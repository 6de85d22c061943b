// Derived attributes in a compiled model (`NSDerivedAttributeDescription`): the
// derivation is an archived `NSExpression`, read back into the text form a model
// file's `derivationExpression` holds. CoreDataPlus archives `pages.@count` as
// `NSFunctionExpression` (selector `count:`, operand `_NSPredicateUtilities`)
// over an `NSKeyPathExpression` (`valueForKey:` on SELF with an
// `NSKeyPathSpecifierExpression` holding `pages`).

import FaultlineModel

extension ArchivedModelDecoder {
    /// The derivation's text, or nil (with the reason) when it is a form
    /// Faultline's derivations do not have.
    func derivationText(_ reference: PropertyListObject?, path: String) throws(CompiledModelError) -> (text: String?, problem: String?) {
        guard let expression = try attempt(path, { () throws(KeyedArchive.Failure) in try archive.object(reference) }) else {
            return (nil, "it has no derivation expression")
        }
        return try attempt(path) { () throws(KeyedArchive.Failure) in try text(of: expression) }
    }

    private func text(of expression: KeyedArchive.Object) throws(KeyedArchive.Failure) -> (text: String?, problem: String?) {
        switch expression.className {
        case "NSKeyPathExpression", "NSKeyPathSpecifierExpression":
            guard let keyPath = try keyPath(of: expression) else { return (nil, "a key path expression names no key path") }
            return (keyPath, nil)
        case "NSFunctionExpression":
            guard let selector = try archive.string(expression.fields["NSSelectorName"]) else {
                return (nil, "a function expression names no function")
            }
            let arguments = try archive.collection(expression.fields["NSArguments"]) ?? []
            if selector == "now", arguments.isEmpty { return ("now()", nil) }
            guard arguments.count == 1, let argument = try archive.object(arguments[0]),
                  let keyPath = try keyPath(of: argument) else {
                return (nil, "function '\(selector)' is not applied to one key path")
            }
            switch selector {
            case "canonical:", "lowercase:", "uppercase:":
                return ("\(selector)(\(keyPath))", nil)
            case "count:":
                return ("\(keyPath).@count", nil)
            case "sum:", "min:", "max:", "average:":
                let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return (nil, "'\(selector)' of '\(keyPath)' names no attribute") }
                let function = selector == "average:" ? "avg" : String(selector.dropLast())
                return ("\(parts[0]).@\(function).\(parts[1])", nil)
            default:
                return (nil, "function '\(selector)' is not one Faultline derives")
            }
        default:
            return (nil, "an \(expression.className) is not an expression Faultline derives")
        }
    }

    /// `NSKeyPath` of a specifier, or of a `valueForKey:` on SELF.
    private func keyPath(of expression: KeyedArchive.Object) throws(KeyedArchive.Failure) -> String? {
        if let keyPath = try archive.string(expression.fields["NSKeyPath"]) { return keyPath }
        guard expression.className == "NSKeyPathExpression" else { return nil }
        if let operand = try archive.object(expression.fields["NSOperand"]), operand.className != "NSSelfExpression" {
            return nil
        }
        let arguments = try archive.collection(expression.fields["NSArguments"]) ?? []
        guard arguments.count == 1, let specifier = try archive.object(arguments[0]) else { return nil }
        return try archive.string(specifier.fields["NSKeyPath"])
    }
}
