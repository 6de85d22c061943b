import Foundation

/// One piece of advice from a context's fault profiler: what a fetch's objects
/// cost afterwards through one key path, and what would have avoided it.
///
///     Author fetch at Library/Report.swift:42: 1,000 relationship faults on `books` (2,000 statements);
///     relationshipKeyPathsForPrefetching = ["books"] would take 1
public struct FaultAdvice: Sendable, Equatable, CustomStringConvertible {
    /// The fetched entity and where the fetch was called from (`file:line`).
    public let entityName: String
    public let location: String
    /// The relationship key path the faults went through from the fetched
    /// objects; empty for faults of the fetched objects themselves.
    public let keyPath: String
    /// Relationship faults (to-manys loaded) and object faults (alone or for
    /// their batch) that went to the store through the path.
    public let faults: Int
    /// The statements those faults sent: one each, so as many as `faults`.
    public var statements: Int { faults }
    /// The change to the fetch request that would have avoided them.
    public let suggestion: String
    /// The statements the fetch would have sent for them with the suggestion.
    public let statementsWithSuggestion: Int

    public var description: String {
        let what = keyPath.isEmpty
            ? "\(Self.grouped(faults)) faults of the fetched objects"
            : "\(Self.grouped(faults)) faults through `\(keyPath)`"
        return "\(entityName) fetch at \(location): \(what) (\(Self.grouped(statements)) statements); "
            + "\(suggestion) would take \(Self.grouped(statementsWithSuggestion))"
    }

    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}

/// The fault profiler of one context (`recordsFaultAdvice`, or
/// `FAULTLINE_FAULT_ADVICE=1` for every context): it remembers which fetch
/// each object came from and through which relationship path it was reached,
/// and counts the faults that then went to the store. Off, a context has no
/// advisor and pays one nil check where a to-one first resolves, a to-many
/// loads, a fault goes to SQL and a fetch returns.
final class FaultAdvisor {
    /// Whether new contexts record advice and print it when they go away.
    static let isEnabledByEnvironment = ProcessInfo.processInfo.environment["FAULTLINE_FAULT_ADVICE"].map { !$0.isEmpty && $0 != "0" } ?? false

    struct Site {
        let entity: CheckedEntity
        var entityName: String { entity.name }
        let location: String
        let prefetched: [String]
        let batchSize: Int
        let includesPropertyValues: Bool
        let objectCount: Int
        /// Key path → faults that went to the store (one statement each).
        var faults: [String: Int] = [:]
    }

    private(set) var sites: [Site] = []
    /// The model the fetched entities belong to, for checking that a
    /// suggested key path is one a fetch accepts.
    private var model: CheckedModel?
    /// Each tracked object's fetch and the key path it was reached through ("" for the fetched ones).
    private var origins: [ObjectIdentifier: (site: Int, keyPath: String)] = [:]

    /// A fetch of `entity` returned `objects`; `prefetched`, `batchSize` and
    /// `includesPropertyValues` are its request's settings.
    func recordFetch(of entity: CheckedEntity, in model: CheckedModel, location: String, prefetched: [String],
                     batchSize: Int, includesPropertyValues: Bool, objects: [ManagedObject]) {
        self.model = model
        let site = sites.count
        sites.append(Site(entity: entity, location: location, prefetched: prefetched, batchSize: batchSize,
                          includesPropertyValues: includesPropertyValues, objectCount: objects.count))
        for object in objects where origins[ObjectIdentifier(object)] == nil {
            origins[ObjectIdentifier(object)] = (site, "")
        }
    }

    /// The fetch `source` came from and the path from it through `key`.
    private func origin(through key: String, from source: ManagedObject) -> (site: Int, keyPath: String)? {
        origins[ObjectIdentifier(source)].map { ($0.site, $0.keyPath.isEmpty ? key : $0.keyPath + "." + key) }
    }

    /// `destinations` were reached from `source` through its relationship `key`.
    func reached(_ destinations: [ManagedObject], from source: ManagedObject, key: String) {
        guard let origin = origin(through: key, from: source) else { return }
        for destination in destinations where origins[ObjectIdentifier(destination)] == nil {
            origins[ObjectIdentifier(destination)] = origin
        }
    }

    /// `source`'s to-many `key` was loaded from the store: one statement.
    func loadedToMany(of source: ManagedObject, key: String) {
        guard let origin = origin(through: key, from: source) else { return }
        sites[origin.site].faults[origin.keyPath, default: 0] += 1
    }

    /// `object`'s fault went to the store (one statement, alone or for its batch).
    func firedBySQL(_ object: ManagedObject) {
        guard let origin = origins[ObjectIdentifier(object)] else { return }
        sites[origin.site].faults[origin.keyPath, default: 0] += 1
    }

    /// Advice for every path whose faults sent more statements than its fix
    /// would, the fix being one the fetch accepts and does not follow already.
    var advice: [FaultAdvice] {
        var advice: [FaultAdvice] = []
        for site in sites {
            for (path, faults) in site.faults.sorted(by: { $0.key < $1.key }) {
                let fix: (suggestion: String, statements: Int)
                if path.isEmpty {
                    // Without property values the rows are not read, whatever else the request says.
                    fix = !site.includesPropertyValues ? ("includesPropertyValues = true", 0)
                        : site.batchSize > 0 ? ("fetchBatchSize = 0", 0) : ("returnsObjectsAsFaults = false", 0)
                } else {
                    guard !site.prefetched.contains(path), let fetched = prefetchingEntity(for: path, from: site.entity)
                    else { continue }
                    // One statement per level of the path, per batch with a batch size, as prefetching sends.
                    let paths = (site.prefetched + [path]).map { "\"\($0)\"" }.joined(separator: ", ")
                    let batches = site.batchSize > 0 ? max(1, (site.objectCount + site.batchSize - 1) / site.batchSize) : 1
                    let refetch = fetched.index == site.entity.index ? "" : "a fetch of \(fetched.name) with "
                    fix = (refetch + "relationshipKeyPathsForPrefetching = [\(paths)]", path.split(separator: ".").count * batches)
                }
                guard faults > fix.statements else { continue }
                advice.append(FaultAdvice(
                    entityName: site.entityName, location: site.location, keyPath: path, faults: faults,
                    suggestion: fix.suggestion, statementsWithSuggestion: fix.statements))
            }
        }
        return advice
    }

    /// The entity a fetch prefetching `path` must be of: `entity` when every
    /// step is a relationship of the entity reached so far; else the first of
    /// its sub-entities for which that holds (a relationship only a sub-entity
    /// has); nil when no fetch can prefetch it.
    private func prefetchingEntity(for path: String, from entity: CheckedEntity) -> CheckedEntity? {
        guard let model else { return nil }
        return entity.hierarchyIndexes.lazy.map { model.entities[$0] }
            .first { model.unknownRelationshipStep(in: path, from: $0) == nil }
    }
}
