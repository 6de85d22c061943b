import FaultlineBench

/// Update-heavy: new views for every tenth of N existing articles (inserted in
/// set-up), one prepared UPDATE per row in one transaction, keeping the sums
/// three ways; reference `raw.update` (the C loop, no derived attributes).
func updateBenchmarks(rows: Int, _ workloads: Workloads) -> [Benchmark] {
    let updateCount = workloads.updates(rows).count
    let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows), "updates": .int(updateCount)]
    var benchmarks = [Benchmark(
        "raw.update", parameters: parameters, items: updateCount,
        setUp: { () throws -> RawReference in
            let fixture = try DerivedFixture(.onRead)
            try fixture.insertTyped(workloads.dataset(rows))
            return try RawReference(DerivedModel.updateViews, fixture: fixture)
        },
        measure: { raw in try raw.update(workloads.updates(rows)) },
        verify: { raw in
            try raw.fixture.verify(workloads.updates(rows).expected, line: "raw.update", readOnce: raw.fixture.readAggregates())
            try raw.fixture.verifyRows(workloads.dataset(rows), updates: workloads.updates(rows))
        },
        tearDown: { raw in raw.fixture.remove() })]
    for strategy in Strategy.allCases {
        let name = "update." + strategy.rawValue
        let plans: (() throws -> [String: String])? = strategy == .onRead ? { try aggregatePlans() } : nil
        benchmarks.append(Benchmark(
            name, parameters: parameters, items: updateCount, reference: "raw.update",
            queryPlans: plans,
            setUp: { () throws -> Run in
                let fixture = try DerivedFixture(strategy)
                try fixture.insertTyped(workloads.dataset(rows))
                if strategy == .swiftAtSave { try fixture.save(workloads.totals(rows)) }
                return Run(fixture: fixture)
            },
            measure: { run in
                let updates = workloads.updates(rows)
                try run.fixture.apply(updates)
                switch strategy {
                case .triggers: break
                case .swiftAtSave: try run.fixture.saveSums(after: updates, on: workloads.dataset(rows))
                case .onRead: run.read = try run.fixture.readAggregates()
                }
            },
            verify: { run in
                try run.fixture.verify(workloads.updates(rows).expected, line: name, readOnce: run.read)
                try run.fixture.verifyRows(workloads.dataset(rows), updates: workloads.updates(rows))
            },
            tearDown: { run in run.fixture.remove() }))
    }
    return benchmarks
}
