// Derived attributes in a compiled model (`NSDerivedAttributeDescription`): the
// derivation is an archived `NSExpression`, read into the `DerivationExpression`
// a model file's `derivationExpression` text parses to. CoreDataPlus archives
// `pages.@count` as `NSFunctionExpression` (selector `count:`, operand
// `_NSPredicateUtilities`) over an `NSKeyPathExpression` (`valueForKey:` on SELF
// with an `NSKeyPathSpecifierExpression` holding `pages`).

import FaultlineModel

extension ArchivedModelDecoder {
    /// The derivation, or why it is a form Faultline's derivations do not have.
    func derivation(_ reference: PropertyListObject?, path: String) throws(CompiledModelError) -> Result<DerivationExpression, DerivationUnread> {
        guard let expression = try attempt(path, { () throws(KeyedArchive.Failure) in try archive.object(reference) }) else {
            return .failure(DerivationUnread("it has no derivation expression"))
        }
        return try attempt(path) { () throws(KeyedArchive.Failure) in try derivation(of: expression) }
    }

    struct DerivationUnread: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private func derivation(of expression: KeyedArchive.Object) throws(KeyedArchive.Failure) -> Result<DerivationExpression, DerivationUnread> {
        if let path = try keyPath(expression), path != "SELF" {
            return .success(.keyPath(path.split(separator: ".").map(String.init)))
        }
        guard expression.className == "NSFunctionExpression" else {
            return .failure(DerivationUnread("an \(expression.className) is not an expression Faultline derives"))
        }
        guard let selector = try archive.string(expression.fields["NSSelectorName"]) else {
            return .failure(DerivationUnread("a function expression names no function"))
        }
        let arguments = try archive.collection(expression.fields["NSArguments"]) ?? []
        if selector == "now", arguments.isEmpty { return .success(.now) }
        guard arguments.count == 1, let argument = try archive.object(arguments[0]),
              let path = try keyPath(argument), path != "SELF" else {
            return .failure(DerivationUnread("function '\(selector)' is not applied to one key path"))
        }
        let components = path.split(separator: ".").map(String.init)
        switch selector {
        case "canonical:": return .success(.canonical(components))
        case "lowercase:": return .success(.lowercase(components))
        case "uppercase:": return .success(.uppercase(components))
        case "count:" where components.count == 1:
            return .success(.aggregate(function: .count, relationship: components[0], attribute: nil))
        case "sum:", "min:", "max:", "average:":
            guard components.count == 2 else { return .failure(DerivationUnread("'\(selector)' of '\(path)' names no attribute")) }
            let function: AggregateFunction = switch selector {
            case "sum:": .sum
            case "min:": .min
            case "max:": .max
            default: .avg
            }
            return .success(.aggregate(function: function, relationship: components[0], attribute: components[1]))
        default:
            return .failure(DerivationUnread("function '\(selector)' of '\(path)' is not one Faultline derives"))
        }
    }
}
