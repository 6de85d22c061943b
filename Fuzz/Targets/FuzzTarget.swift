import Foundation

/// One libFuzzer target: what it feeds the input to, and what it calls a
/// finding. Inputs a parser refuses with a typed error are fine; a crash, a
/// hang or a finding (a disagreement the target checks for) is not.
public protocol FuzzTarget: SendableMetatype {
    /// The name `./tasks.sh fuzz` and the corpora use, e.g. "predicate".
    static var name: String { get }
    /// Runs one input; returns a description of what is wrong, or nil.
    static func run(_ input: Data) -> String?
}

/// A target by name, for the regression tests that replay the kept inputs.
public struct FuzzTargetEntry: Sendable {
    public let name: String
    public let run: @Sendable (Data) -> String?

    init<Target: FuzzTarget>(_ target: Target.Type) {
        name = Target.name
        run = { Target.run($0) }
    }
}

public enum FuzzTargets {
    public static let all: [FuzzTargetEntry] = [
        FuzzTargetEntry(PredicateDifferential.self), FuzzTargetEntry(ModelFileInput.self),
        FuzzTargetEntry(CompiledModelInput.self), FuzzTargetEntry(StoreFileInput.self), FuzzTargetEntry(ReportInput.self),
        FuzzTargetEntry(PropertyListInput.self),
    ]

    /// What libFuzzer's entry point calls: a finding stops the run, so
    /// libFuzzer keeps the input as a crash.
    public static func fuzz<Target: FuzzTarget>(_ target: Target.Type, _ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        if let finding = target.run(Data(bytes: data, count: size)) {
            FileHandle.standardError.write(Data("\(target.name): \(finding)\n".utf8))
            abort()
        }
        return 0
    }
}
