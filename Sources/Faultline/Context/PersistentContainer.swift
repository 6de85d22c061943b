import Foundation

/// A model and its store, with a main-queue view context and background
/// contexts: Core Data's `NSPersistentContainer`.
public final class PersistentContainer: Sendable {
    public let coordinator: PersistentStoreCoordinator
    let classes = ClassRegistry()
    private let view = Locked<ManagedObjectContext?>(nil)

    /// Checks `model` and opens (or creates) its store. `busyTimeout`: how long
    /// a write waits for another process's write before `StoreError.busy`.
    /// `persistentHistoryTracking`: Core Data's `NSPersistentHistoryTrackingKey`
    /// (see `PersistentStoreCoordinator.init`). `readOnly`: Core Data's
    /// `NSReadOnlyPersistentStoreOption` for an existing store; every write is
    /// refused with `StoreError.openedReadOnly`.
    public init(model: ManagedObjectModel, location: StoreLocation = .inMemory, rowCacheCapacity: Int = 100_000,
                busyTimeout: TimeInterval = PersistentStoreCoordinator.defaultBusyTimeout,
                persistentHistoryTracking: Bool? = nil, readOnly: Bool = false) throws {
        coordinator = try PersistentStoreCoordinator(
            model: model.checked(), location: location, rowCacheCapacity: rowCacheCapacity, busyTimeout: busyTimeout,
            persistentHistoryTracking: persistentHistoryTracking, readOnly: readOnly)
    }

    /// A container over an already opened coordinator (CoreDataStore/ opens
    /// stores Core Data wrote this way).
    init(coordinator: PersistentStoreCoordinator) {
        self.coordinator = coordinator
    }

    public var model: CheckedModel { coordinator.model }

    /// Writes a consistent copy of the store to `destination` while it stays
    /// in use: `PersistentStoreCoordinator.copyStore(to:)`, Core Data's
    /// `replacePersistentStore(at:withPersistentStoreFrom:)` from this store.
    public func copyStore(to destination: URL) throws {
        try coordinator.copyStore(to: destination)
    }

    /// Makes `type` the class of the entity called `name` (and of objects
    /// fetched for it). Register before creating contexts' objects. Throws the
    /// first of the class's `typedKeys` that does not fit the entity; with
    /// `validate`, a `ClassModelDrift` listing every disagreement instead —
    /// also properties without a key, optionality, and validation rules that
    /// differ from the model's (see `ClassModelDrift`).
    public func register(_ type: ManagedObject.Type, forEntityName name: String, validate: Bool = false) throws {
        guard let entity = coordinator.model.entity(named: name) else { throw FetchError.unknownEntity(name) }
        if validate {
            let problems = ClassModelDrift.problems(of: type, in: entity)
            if !problems.isEmpty {
                throw ClassModelDrift(className: String(describing: type), entityName: entity.name, problems: problems)
            }
        }
        for key in type.typedKeys {
            if let mismatch = key.slot.mismatch(in: entity) { throw mismatch }
        }
        classes.register(type, forEntityIndex: entity.index)
    }

    /// The context bound to the main queue.
    @MainActor
    public var viewContext: ManagedObjectContext {
        view.withLock { context in
            if let context { return context }
            let created = ManagedObjectContext(coordinator: coordinator, classes: classes, queue: nil, name: "viewContext")
            context = created
            return created
        }
    }

    /// A new context with its own serial queue; use it through `perform` or
    /// `performAndWait`.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(
            coordinator: coordinator, classes: classes,
            queue: DispatchQueue(label: "faultline.context"), name: "background")
    }

    /// Runs `block` with a fresh background context on that context's queue,
    /// later, and returns at once: Core Data's completion-block form, for
    /// synchronous code (`await` the other form from async code).
    public func performBackgroundTask(_ block: @escaping (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `body` with a fresh background context on that context's queue.
    public func performBackgroundTask<Result: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Result
    ) async throws -> Result {
        let context = newBackgroundContext()
        return try await context.perform { try body(context) }
    }
}
