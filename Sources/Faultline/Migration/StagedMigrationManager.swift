import Foundation
import FaultlineSQLite

/// One stage of a staged migration: Core Data's `NSLightweightMigrationStage`
/// and `NSCustomMigrationStage`.
public struct MigrationStage: Sendable {
    /// A custom stage's handler: gets a context on the store at that stage.
    public typealias Handler = @Sendable (ManagedObjectContext) throws -> Void

    public enum Kind: Sendable {
        /// Versions migrated one to the next by inferred lightweight migration.
        case lightweight([ModelVersion])
        /// From one version to the next with handlers around the lightweight
        /// schema change: `willMigrate` runs on the old schema (with the old
        /// model), then the schema migrates, then `didMigrate` runs on the new
        /// schema (with the new model), as in `NSCustomMigrationStage`.
        case custom(from: ModelVersion, to: ModelVersion, willMigrate: Handler?, didMigrate: Handler?)
    }

    public let kind: Kind
    public var label: String

    public static func lightweight(_ versions: [ModelVersion], label: String? = nil) -> MigrationStage {
        MigrationStage(kind: .lightweight(versions), label: label ?? "lightweight \(versions.map(\.label).joined(separator: " → "))")
    }

    public static func custom(
        from: ModelVersion, to: ModelVersion, label: String? = nil,
        willMigrate: Handler? = nil, didMigrate: Handler? = nil
    ) -> MigrationStage {
        MigrationStage(kind: .custom(from: from, to: to, willMigrate: willMigrate, didMigrate: didMigrate),
                       label: label ?? "custom \(from.label) → \(to.label)")
    }
}

/// Runs a list of stages on a store: Core Data's `NSStagedMigrationManager`.
///
/// The stages make a chain of steps, each from one version to the next: a
/// lightweight stage of versions [a, b, c] gives a → b and b → c; a custom
/// stage gives its own step; where one stage ends at a version other than the
/// next one starts, and after the last stage when it does not end at the
/// store's target model, an implicit lightweight step joins them. The store's
/// recorded version hash picks the first step to run.
///
/// Each step is one transaction (a custom stage's handlers, their saves and its
/// schema change included) that ends by recording the step's target hash, so
/// the store is always at a step boundary: a stage that throws, or a process
/// that dies, leaves it at the previous step's version, and running the manager
/// again resumes from there. Core Data commits a custom stage's handler saves
/// on their own; Faultline keeps them inside the step so a failure halfway
/// never leaves half-copied data behind a version that claims none.
public final class StagedMigrationManager: Sendable {
    public let stages: [MigrationStage]

    public init(_ stages: [MigrationStage]) {
        self.stages = stages
    }

    struct Step {
        let stage: Int
        let label: String
        let from: ModelVersion
        let to: ModelVersion
        let willMigrate: MigrationStage.Handler?
        let didMigrate: MigrationStage.Handler?
    }

    /// The chain of steps ending at `target`.
    func steps(to target: ModelVersion) -> [Step] {
        var steps: [Step] = []
        var current: ModelVersion?
        func join(_ next: ModelVersion, stage: Int, label: String) {
            if let from = current, from.hash != next.hash {
                steps.append(Step(stage: stage, label: label, from: from, to: next, willMigrate: nil, didMigrate: nil))
            }
            current = next
        }
        for (index, stage) in stages.enumerated() {
            switch stage.kind {
            case .lightweight(let versions):
                for version in versions { join(version, stage: index, label: stage.label) }
            case let .custom(from, to, will, did):
                join(from, stage: index, label: stage.label)
                steps.append(Step(stage: index, label: stage.label, from: from, to: to, willMigrate: will, didMigrate: did))
                current = to
            }
        }
        join(target, stage: stages.count, label: "lightweight to the current model")
        return steps
    }

    /// Migrates the store on `connection` (at `location`) to `target`,
    /// resuming from whichever version the store records.
    public func migrate(
        on connection: Connection, location: StoreLocation, to target: ModelVersion,
        deferCleanup: Bool = false, progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws {
        try migrate(using: StoreWriter(migrating: connection), connection: connection, location: location, to: target,
                    deferCleanup: deferCleanup, progress: progress)
    }

    /// The same, each step one transaction through the store's `writer`;
    /// `checks` say which version the store is at and how each step is
    /// verified (a Faultline store by the hash it records, a Core Data store
    /// by matching its schema).
    func migrate(
        using writer: StoreWriter, connection: Connection, location: StoreLocation, to target: ModelVersion,
        deferCleanup: Bool, progress: (@Sendable (MigrationProgress) -> Void)?,
        checks: any MigrationChecks = RecordedSchemaChecks()
    ) throws {
        let recorded = try StoreBootstrap.metadata(on: connection).modelVersionHash
        if checks.recordsFaultlineKeys && recorded == nil {
            throw StoreError.modelMismatch(storeHash: StoreError.notWrittenByFaultline, modelHash: target.hash)
        }
        let storeHash = recorded ?? "a Core Data store"
        let steps = steps(to: target)
        guard let start = try checks.position(of: connection, among: steps.map(\.from) + [target]) else {
            throw MigrationError.noMigrationPath(storeHash: storeHash, modelHash: target.hash)
        }
        if start == steps.count { return }
        for (position, step) in steps[start...].enumerated() {
            let isLast = start + position == steps.count - 1
            do {
                try run(step, using: writer, location: location, deferCleanup: deferCleanup && isLast, progress: progress,
                        checks: checks)
            } catch {
                let version = (try? StoreBootstrap.metadata(on: connection).modelVersionHash).flatMap { $0 } ?? step.from.label
                throw MigrationError.stageFailed(stage: step.stage, label: step.label, storeVersion: version, underlying: error)
            }
        }
    }

    private func run(
        _ step: Step, using writer: StoreWriter, location: StoreLocation,
        deferCleanup: Bool, progress: (@Sendable (MigrationProgress) -> Void)?, checks: any MigrationChecks
    ) throws {
        guard step.willMigrate != nil || step.didMigrate != nil else {
            try LightweightMigration.migrate(
                using: writer, from: step.from, to: step.to, deferCleanup: deferCleanup, stage: step.label, progress: progress,
                checks: checks)
            return
        }
        let files = MigrationStepFiles()
        let converted = MigrationFileChanges()
        do {
            try writer.write(foreignKeysOff: true) { connection in
                let faultlineStore = checks.recordsFaultlineKeys
                if let handler = step.willMigrate {
                    try Self.runHandler(handler, model: step.from.model, connection: connection, location: location,
                                        preparesStore: faultlineStore, files: files, checks: checks)
                }
                // Nested: a savepoint inside this step's transaction, on the same connection.
                try LightweightMigration.migrate(
                    using: StoreWriter(migrating: connection), from: step.from, to: step.to, deferCleanup: deferCleanup,
                    stage: step.label, progress: progress, checks: checks, files: converted, checksRequiredRelationships: false)
                if let handler = step.didMigrate {
                    try Self.runHandler(handler, model: step.to.model, connection: connection, location: location,
                                        preparesStore: faultlineStore, files: files, checks: checks)
                }
                try RequiredRelationships.check(step.to.model, schema: StoreSchema(compiling: step.to.model), on: connection)
                return ((), nil)
            }
        } catch {
            files.stepEnded(committed: false)
            converted.ended(committed: false)
            throw error
        }
        files.stepEnded(committed: true)
        converted.ended(committed: true)
    }

    /// Runs `handler` with a context of `model` on the migrating connection
    /// (a Core Data store's metadata is neither checked nor bootstrapped, and
    /// its external binary data is read and written as Core Data keeps it,
    /// the files' fate tied to the step's: `MigrationStepFiles`).
    private static func runHandler(
        _ handler: MigrationStage.Handler, model: CheckedModel, connection: Connection, location: StoreLocation,
        preparesStore: Bool, files: MigrationStepFiles, checks: any MigrationChecks
    ) throws {
        let coordinator = try PersistentStoreCoordinator(
            model: model, migrationConnection: connection, location: location, preparesStore: preparesStore
        ) { schema in
            files.adapter(over: try checks.valueAdapter(model: model, schema: schema, location: location, on: connection))
        }
        let context = ManagedObjectContext(
            coordinator: coordinator, classes: ClassRegistry(),
            queue: DispatchQueue(label: "faultline.migration"), name: "migration")
        try context.performAndWait { try handler(context) }
    }
}
