import Foundation

/// Which numeric parameters of a benchmark set its item count, read off a
/// report. Growth is fitted against items, so only those may vary along a
/// line; every other parameter — a fetch limit, how many objects a save
/// changed, the store size under a fixed number of controllers — tells lines
/// apart: pooling `limit=0` with `limit=100` fits a slope through two lines
/// that do different work, and a cost that grows at a constant 100 items
/// hides inside it.
enum SizeParameters {
    /// The parameters to leave out of a line's name, per benchmark name: the
    /// ones that set the items, with the ones that move in step with them
    /// (`lookups = min(10_000, rows)` goes with `rows`).
    static func of(_ results: [BenchmarkResult]) -> [String: Set<String>] {
        Dictionary(grouping: results, by: \.name).mapValues { named in
            var dropped = Set<String>()
            for key in numericKeys(named) where setsItems(key, named) {
                dropped.insert(key)
                dropped.formUnion(companions(of: key, named))
            }
            return dropped
        }
    }

    /// With every other parameter held (bar its companions), raising `key`
    /// never lowers the items and raises them somewhere. A fetch limit fails:
    /// at 10,000 rows, limit 0 reads 10,000 items and limit 100 reads 100.
    static func setsItems(_ key: String, _ results: [BenchmarkResult]) -> Bool {
        let moving = companions(of: key, results).union([key])
        var groups: [[String: ParameterValue]: [(value: Int, items: Int)]] = [:]
        for result in results {
            guard case .int(let value)? = result.parameters[key] else { return false }
            groups[result.parameters.filter { !moving.contains($0.key) }, default: []].append((value, result.items))
        }
        var grows = false
        for points in groups.values {
            let ordered = points.sorted { ($0.value, $0.items) < ($1.value, $1.items) }
            for (lower, higher) in zip(ordered, ordered.dropFirst()) {
                if higher.items < lower.items { return false }
                if higher.value > lower.value && higher.items > lower.items { grows = true }
            }
        }
        return grows
    }

    /// The other numeric parameters that take more than one value and are
    /// fixed by `key`'s value: they cannot vary while `key` is held.
    static func companions(of key: String, _ results: [BenchmarkResult]) -> Set<String> {
        numericKeys(results).filter { other in
            guard other != key else { return false }
            var seen: [ParameterValue?: ParameterValue?] = [:]
            for result in results {
                let value = result.parameters[key], companion = result.parameters[other]
                if let earlier = seen[value], earlier != companion { return false }
                seen[value] = companion
            }
            return Set(results.map { $0.parameters[other] }).count > 1
        }
    }

    private static func numericKeys(_ results: [BenchmarkResult]) -> Set<String> {
        Set(results.flatMap { result in
            result.parameters.compactMap { key, value -> String? in
                if case .int = value { return key }
                return nil
            }
        })
    }
}
