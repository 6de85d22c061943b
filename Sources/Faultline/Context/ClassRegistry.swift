
/// Which `ManagedObject` subclass represents each entity.
final class ClassRegistry: Sendable {
    private let types: Locked<[Int: ManagedObject.Type]>

    init() { types = Locked([:]) }

    func register(_ type: ManagedObject.Type, forEntityIndex index: Int) {
        types.withLock { $0[index] = type }
    }

    /// The registered class, else that of the nearest registered ancestor
    /// would be wrong for sub-entity columns: the plain `ManagedObject`.
    func type(forEntityIndex index: Int) -> ManagedObject.Type {
        types.withLock { $0[index] } ?? ManagedObject.self
    }

    func entityIndex(of type: ManagedObject.Type) -> Int? {
        types.withLock { registered in registered.first { $0.value == type }?.key }
    }
}
