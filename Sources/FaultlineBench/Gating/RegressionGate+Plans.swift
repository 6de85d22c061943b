extension RegressionGate {
    /// Compares every query plan the baseline recorded with the current one
    /// of the same label: an index no longer used, a covering index no longer
    /// covering, or a table searched before and only scanned now fails.
    mutating func checkPlans(_ baseline: BenchmarkResult, _ current: BenchmarkResult) {
        guard let oldPlans = baseline.queryPlans, !oldPlans.isEmpty else { return }
        let newPlans = current.queryPlans ?? [:]
        for label in oldPlans.keys.sorted() {
            guard let oldPlan = oldPlans[label] else { continue }
            guard let newPlan = newPlans[label] else {
                note("\(current.id): query plan '\(label)' is no longer recorded (not gated)")
                continue
            }
            record(.plan)
            let reasons = Self.planRegressions(from: QueryPlan.Usage(plan: oldPlan), to: QueryPlan.Usage(plan: newPlan))
            guard !reasons.isEmpty else { continue }
            fail(GateFinding(
                kind: .plan, benchmark: current.id, subject: "query plan '\(label)'",
                before: oldPlan, after: newPlan, reason: reasons.joined(separator: "; ")))
        }
    }

    /// Why the plan got worse, one phrase per lost index or lost search.
    static func planRegressions(from old: QueryPlan.Usage, to new: QueryPlan.Usage) -> [String] {
        var reasons: [String] = []
        for index in old.indexes.subtracting(new.indexes).sorted() {
            reasons.append("index \(index) is no longer used")
        }
        for index in old.coveringIndexes.subtracting(new.coveringIndexes).intersection(new.indexes).sorted() {
            reasons.append("index \(index) is no longer a covering index")
        }
        for table in old.searchedTables.subtracting(new.searchedTables).intersection(new.scannedTables).sorted() {
            reasons.append("SEARCH \(table) became SCAN \(table)")
        }
        return reasons
    }
}
