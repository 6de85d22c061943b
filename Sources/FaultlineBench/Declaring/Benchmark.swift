// FaultlineBench — the harness: declaring benchmarks, running them, measuring,
// summarising, reporting and comparing.
//
// A benchmark is a name, parameters, an item count and up to four closures:
// `setUp` builds the state one iteration needs (a fresh database, prepared
// statements), `measure` does the timed work on it, `verify` reads back what
// the work wrote or read and throws if it is not what the line meant,
// `tearDown` disposes of it. Only `measure` is inside the clock and the
// allocation and counter probes.
//
// Invariants:
// 1. Set-up, verification and tear-down never count towards any metric.
// 2. Every benchmark that names a `reference` is reported as a ratio to the
//    reference benchmark of the same name and parameters from the same run.
// 3. A report records whether it came from a debug build; such numbers are
//    flagged, never passed off as release figures.

/// A parameter value: integers for sizes, strings for modes.
public enum ParameterValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value): return value
        }
    }
}

extension ParameterValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

/// One declared benchmark.
public struct Benchmark {
    public let name: String
    /// Parameters in declaration order (e.g. `rows: 100_000`).
    public let parameters: [(name: String, value: ParameterValue)]
    /// Items processed per measured iteration, for throughput and per-item figures.
    public let items: Int
    /// The benchmark (same parameters, same run) this one is a ratio to; the
    /// name may be followed by parameter overrides: `"profile strategy=raw"`.
    public let reference: String?
    /// Records the `EXPLAIN QUERY PLAN` of the benchmark's main statements,
    /// by label; run once per benchmark, before warm-up, outside measurement.
    let queryPlans: (() throws -> [String: String])?
    let makeIteration: () throws -> Iteration

    struct Iteration {
        let measure: () throws -> Void
        /// Extra counters of the iteration just measured (see `counters`).
        var counters: () throws -> [String: Double] = { [:] }
        /// Throws when the iteration's work was not what the line meant.
        var verify: () throws -> Void = {}
        let tearDown: () throws -> Void
    }

    /// Declares a benchmark.
    ///
    /// - Parameters:
    ///   - queryPlans: returns the query plans of the main statements by label
    ///     (see `QueryPlan.explain`); evaluated once, outside measurement, and
    ///     recorded in the report for the regression gate.
    ///   - setUp: builds one iteration's state, outside the clock.
    ///   - measure: the measured work. Pass results to `blackHole(_:)`, or
    ///     keep them in the state for `verify`.
    ///   - verify: checks the iteration's work (rows written, values read)
    ///     after `measure`, its probes and `counters`, before `tearDown`;
    ///     outside every metric. Throwing fails the line as a throwing
    ///     `measure` does, the error saying what differed.
    ///   - tearDown: disposes of the state, outside the clock.
    ///   - counters: extra deterministic counters of the iteration (e.g. a
    ///     context's `faultsFired`), read after the measured work and its probes,
    ///     before `tearDown`; recorded as metrics with unit `count`, lower is
    ///     better. Names must not be the harness's own metric names.
    public init<State>(
        _ name: String,
        parameters: KeyValuePairs<String, ParameterValue> = [:],
        items: Int,
        reference: String? = nil,
        queryPlans: (() throws -> [String: String])? = nil,
        setUp: @escaping () throws -> State,
        measure: @escaping (inout State) throws -> Void,
        verify: ((State) throws -> Void)? = nil,
        tearDown: @escaping (State) throws -> Void = { _ in },
        counters: ((State) throws -> [String: Int])? = nil
    ) {
        self.name = name
        self.parameters = parameters.map { (name: $0.key, value: $0.value) }
        self.items = max(1, items)
        self.reference = reference
        self.queryPlans = queryPlans
        self.makeIteration = {
            let state = StateBox(try setUp())
            var iteration = Iteration(
                measure: { try measure(&state.value) },
                tearDown: { try tearDown(state.value) })
            if let counters {
                iteration.counters = { try counters(state.value).mapValues(Double.init) }
            }
            if let verify {
                iteration.verify = { try verify(state.value) }
            }
            return iteration
        }
    }

    /// Name and parameters: the benchmark's identity across reports.
    public var id: String { BenchmarkID.make(name: name, parameters: parameterDictionary) }

    var parameterDictionary: [String: ParameterValue] {
        Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Parameters as shown in tables: `rows=1000 mode=wal`.
    public var parameterText: String {
        parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }
}

/// Builds the identity string of a benchmark from its name and parameters.
enum BenchmarkID {
    static func make(name: String, parameters: [String: ParameterValue]) -> String {
        let sorted = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return sorted.isEmpty ? name : name + " " + sorted.joined(separator: " ")
    }

    /// The identity of the reference a line with `parameters` names: the same
    /// parameters, unless the reference overrides some after its name
    /// (`"profile strategy=raw"`: lines that differ by `strategy` share the
    /// reference line of strategy `raw`).
    static func reference(_ reference: String, parameters: [String: ParameterValue]) -> String {
        let parts = reference.split(separator: " ")
        guard let name = parts.first, parts.count > 1 else { return make(name: reference, parameters: parameters) }
        var merged = parameters
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let value = String(part[part.index(after: equals)...])
            merged[String(part[..<equals])] = Int(value).map(ParameterValue.int) ?? .string(value)
        }
        return make(name: String(name), parameters: merged)
    }
}

private final class StateBox<State> {
    var value: State
    init(_ value: State) { self.value = value }
}

/// Keeps a value alive as far as the optimiser can tell, so measured work that
/// produces it cannot be deleted.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
