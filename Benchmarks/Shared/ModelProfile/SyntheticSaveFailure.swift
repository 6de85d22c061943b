import Faultline
import Foundation

/// Synthetic data the store refused, told in a few lines. A save of 1,000
/// root objects and their destinations fails on every one of them alike — a
/// required relationship off the key paths is missing on all 100,000 — so the
/// save error's own text, one line per object, would bury the cause: each
/// distinct problem is listed once with how many objects have it.
public struct SyntheticSaveFailure: Error, CustomStringConvertible {
    /// Distinct problems shown; the rest are counted.
    static let shown = 3

    /// Each distinct problem with the number of objects that have it, most frequent first.
    public let problems: [(problem: String, objects: Int)]
    public let entity: String
    let hint: String?

    init(_ error: SaveError, entity: String, model: CheckedModel) {
        self.entity = entity
        var counts: [String: Int] = [:]
        var order: [String] = []
        func count(_ problem: String) {
            if counts[problem] == nil { order.append(problem) }
            counts[problem, default: 0] += 1
        }
        var missing = false
        switch error {
        case .validation(let issues):
            for issue in issues {
                count("\(issue.entity)\(issue.key.map { ".\($0)" } ?? ""): \(issue.code) — \(issue.message)")
                missing = missing || issue.code == .missingMandatoryProperty
            }
        case .conflicts(let conflicts):
            for conflict in conflicts { count(Self.kind(of: conflict, model)) }
        default:
            count(error.description)
        }
        problems = order.enumerated()
            .sorted { (counts[$0.element] ?? 0, -$0.offset) > (counts[$1.element] ?? 0, -$1.offset) }
            .map { ($0.element, counts[$0.element] ?? 0) }
        hint = missing
            ? "a required relationship off the key paths cannot be made up: add it to --keypaths, or profile a copy of a store (--store)"
            : nil
    }

    /// A conflict without its object IDs, so that alike ones count as one.
    static func kind(of conflict: SaveConflict, _ model: CheckedModel) -> String {
        switch conflict {
        case .uniqueness(let object, _, let constraint):
            let entity = model.entities.indices.contains(object.entityIndex) ? model.entities[object.entityIndex].name : "an object"
            return "\(entity): uniqueness constraint \(constraint) already held by another object"
        default:
            return String(describing: conflict)
        }
    }

    public var description: String {
        let objects = problems.reduce(0) { $0 + $1.objects }
        var lines = ["the synthetic data of \(entity) could not be saved: \(problems.count) problem(s) over \(objects) object(s)"]
        lines += problems.prefix(Self.shown).map { "  \($0.problem) (\($0.objects) object(s))" }
        let rest = problems.dropFirst(Self.shown)
        if !rest.isEmpty {
            lines.append("  and \(rest.count) more (\(rest.reduce(0) { $0 + $1.objects }) object(s))")
        }
        return (lines + (hint.map { [$0] } ?? [])).joined(separator: "\n")
    }
}
