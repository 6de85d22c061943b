import Foundation
import Testing
@testable import FaultlineBench

/// `--instructions` also splits a line's instructions by phase: each
/// function's self cost, read from callgrind's output, summed by what the
/// function is (SQLite, decoding, objects, registry, row cache, runtime).
@Suite("Instructions split by phase")
struct InstructionPhaseTests {
    /// Compressed names, a call's inclusive cost, relative positions: the
    /// forms callgrind writes by default.
    static let output = """
        version: 1
        creator: callgrind-3.19.0
        positions: line
        events: Ir
        summary: 1090
        ob=(1) /tmp/suite
        fl=(1) ???
        fn=(1) $s9Faultline19PersistentStoreCoordinatorC3row3forAA10DecodedRowVSgAA15ManagedObjectIDV_tF
        0 100
        cfl=(1)
        cfn=(2) sqlite3_step
        calls=1 0
        0 500
        +0 20
        cfn=(3) $s9Faultline8RowCacheV5store_3foryAA0C0V_AA15ManagedObjectIDVtF
        calls=2 0
        0 80
        fn=(2)
        0 300
        cfn=(4) sqlite3VdbeExec
        calls=1 0
        0 200
        fn=(4)
        0 200
        fn=(3)
        * 80
        fn=(5) $s15FaultlineSQLite9StatementC6columnyAA11ColumnValueOSiF
        0 150
        fn=(6) swift_retain
        0 100
        fn=(7) malloc
        0 40
        fn=(8) $s13BenchmarkData13GraphWorkloadV3runySiAA13FaultStrategyO_0A015ManagedObjectContextCtKF
        0 10
        ob=(2) /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6
        fn=(9) 0x00000000000339e0
        0 30
        ob=(3) /opt/swift/usr/lib/swift/linux/libswiftCore.so
        fn=(10) bool swift::RefCounts<swift::RefCountBitsT<(swift::RefCountInlinedness)1> >::doDecrementSlow
        0 20
        ob=(1)
        fn=(11) $s9Faultline20ManagedObjectContextC6object5ownedAA0bC0CAA0bC2IDV_tF
        0 40
        totals: 1090
        """

    @Test("Self costs exclude what a function calls, and add up to callgrind's total")
    func selfCosts() throws {
        let profile = CallgrindProfile(callgrindOutput: Self.output)
        #expect(profile.selfInstructions["sqlite3_step"] == 300)
        #expect(profile.selfInstructions["sqlite3VdbeExec"] == 200)
        // 100 + 20 of its own; the 500 and 80 after `calls=` are its callees'.
        #expect(profile.selfInstructions.first { $0.key.contains("PersistentStoreCoordinator") }?.value == 120)
        #expect(profile.total == InstructionCount.Counter.totalInstructions(callgrindOutput: Self.output))
    }

    @Test("Functions fall into phases by name")
    func phases() {
        let phases = CallgrindProfile(callgrindOutput: Self.output).phases
        // SQLite's unnamed static function is SQLite's, by its library.
        #expect(phases[.sqlite] == 530)
        #expect(phases[.rowCache] == 80)
        #expect(phases[.objects] == 120)
        #expect(phases[.registry] == 40)
        #expect(phases[.decoding] == 150)
        // swift_retain, malloc, and the runtime's C++ release path, by its library.
        #expect(phases[.runtime] == 160)
        #expect(phases[.other] == 10)
    }

    @Test("A mangled name's modules are read by their lengths")
    func modules() {
        #expect(InstructionPhase.faultlineModules(in: "$s19FaultlineModelFiles12ModelArchiveV4readyACSSKF") == ["FaultlineModelFiles"])
        #expect(InstructionPhase.faultlineModules(in: "$sSD8_VariantV5value6forKeyq_Sgx_tF9Faultline15ManagedObjectIDV_Tg5")
                == ["Faultline"])
        #expect(InstructionPhase.faultlineModules(in: "sqlite3_step").isEmpty)
    }

    @Test("Functions fall into phases by what they are", arguments: [
        ("$s9Faultline14ObjectRegistryV6insertyyAA13ManagedObjectCF", InstructionPhase.registry),
        ("$s19FaultlineModelFiles12ModelArchiveV4readyACSSKF", .objects),
        ("$s15FaultlineSQLite9StatementC4stepSbyKF", .decoding),
        ("sqlite3_column_text", .decoding),
        ("sqlite3BtreeNext", .sqlite),
        ("$sSD8_VariantV5value6forKeyq_Sgx_tF9Faultline15ManagedObjectIDV_Tg5", .objects),
        ("$s10Foundation4DataV5countSivg", .other),
        ("je_malloc", .runtime),
        ("$s12FreeFunction3fooyyF", .other),
    ])
    func classification(symbol: String, phase: InstructionPhase) {
        #expect(InstructionPhase(function: symbol) == phase)
    }

    @Test("The split is reported per strategy beside the raw floor, and never gated")
    func summary() throws {
        func line(_ strategy: String, reference: String?, total: Double, sqlite: Double) -> BenchmarkResult {
            var metrics = [Metric.instructionsPerItem: MetricResult(unit: "count/item", direction: .lowerIsBetter, samples: [total])]
            for phase in InstructionPhase.allCases {
                metrics[phase.metric] = MetricResult(unit: InstructionPhase.unit, direction: .lowerIsBetter,
                                                     samples: [phase == .sqlite ? sqlite : phase == .objects ? total - sqlite : 0])
            }
            let parameters: [String: ParameterValue] = ["graph": .string("10x10"), "strategy": .string(strategy)]
            return BenchmarkResult(id: BenchmarkID.make(name: "profile", parameters: parameters), suite: "Faulting", name: "profile",
                                   parameters: parameters, items: 10, warmupIterations: 1, iterations: 1, reference: reference,
                                   metrics: metrics, comparison: nil, queryPlans: nil)
        }
        let report = Report(suite: "Faulting", metadata: Fixtures.metadata(), benchmarks: [
            line("raw", reference: nil, total: 1_000, sqlite: 900),
            line("lazy", reference: "profile strategy=raw", total: 5_000, sqlite: 1_500),
        ])
        let lines = InstructionSplit.summary(of: report)
        #expect(lines.first == "instructions per item by phase, profile graph=10x10:")
        #expect(lines.count == 4)
        #expect(lines[2].hasPrefix("  raw") && lines[2].contains("floor"))
        #expect(lines[3].hasPrefix("  lazy") && lines[3].contains("5.00x") && lines[3].contains("1500") && lines[3].contains("3500"))
        let thresholds = GateThresholds().scoped(to: "Faulting")
        #expect(thresholds.resolve(metric: InstructionPhase.sqlite.metric, unit: InstructionPhase.unit, benchmark: "x").kind == .ignore)
    }
}
