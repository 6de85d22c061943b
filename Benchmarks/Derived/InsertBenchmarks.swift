import FaultlineBench

/// Insert-heavy: N articles into 100 categories, keeping the counts and sums
/// three ways; reference `raw.insert` (the C loop, no derived attributes).
func insertBenchmarks(rows: Int, _ workloads: Workloads) -> [Benchmark] {
    let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
    var benchmarks = [Benchmark(
        "raw.insert", parameters: parameters, items: rows,
        setUp: { () throws -> RawReference in
            _ = workloads.totals(rows)
            return try RawReference(DerivedModel.rawInsert, fixture: DerivedFixture(.onRead))
        },
        measure: { raw in try raw.insert(workloads.dataset(rows)) },
        verify: { raw in
            try raw.fixture.verify(workloads.totals(rows), line: "raw.insert", readOnce: raw.fixture.readAggregates())
            try raw.fixture.verifyRows(workloads.dataset(rows))
        },
        tearDown: { raw in raw.fixture.remove() })]
    for strategy in Strategy.allCases {
        let name = "insert." + strategy.rawValue
        let plans: (() throws -> [String: String])? = strategy == .onRead ? { try aggregatePlans() } : nil
        benchmarks.append(Benchmark(
            name, parameters: parameters, items: rows, reference: "raw.insert",
            queryPlans: plans,
            setUp: { () throws -> Run in
                _ = workloads.totals(rows)
                return Run(fixture: try DerivedFixture(strategy))
            },
            measure: { run in
                let dataset = workloads.dataset(rows)
                try run.fixture.insertTyped(dataset)
                switch strategy {
                case .triggers: break
                case .swiftAtSave:
                    try run.fixture.save(Totals(dataset, categoryCount: DerivedModel.categoryCount))
                case .onRead:
                    run.read = try run.fixture.readAggregates()
                }
            },
            verify: { run in
                try run.fixture.verify(workloads.totals(rows), line: name, readOnce: run.read)
                try run.fixture.verifyRows(workloads.dataset(rows))
            },
            tearDown: { run in run.fixture.remove() }))
    }
    return benchmarks
}

/// The canonical search column's cost: the same typed batch insert into the
/// plain schema with and without `searchTitle = canonical:(title)`.
func canonicalBenchmarks(rows: Int, _ workloads: Workloads) -> [Benchmark] {
    let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
    return [false, true].map { canonical in
        let name = canonical ? "canonical.with" : "canonical.without"
        return Benchmark(
            name, parameters: parameters, items: rows, reference: "raw.insert",
            setUp: { () throws -> DerivedFixture in
                _ = workloads.totals(rows)
                return try DerivedFixture(.onRead, canonical: canonical)
            },
            measure: { fixture in try fixture.insertTyped(workloads.dataset(rows)) },
            verify: { fixture in
                try fixture.verify(workloads.totals(rows), line: name, readOnce: fixture.readAggregates())
                try fixture.verifyRows(workloads.dataset(rows))
            },
            tearDown: { fixture in fixture.remove() })
    }
}
