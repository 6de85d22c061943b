import Synchronization

/// Per-entity facts the object graph consults on every insert, access and
/// save, computed once per coordinator (by its first context) and shared by
/// all its contexts. A class, so reading a field never copies the (large)
/// `CheckedEntity` value.
@usableFromInline
final class EntityRuntime: Sendable {
    let entity: CheckedEntity
    @usableFromInline let rootIndex: Int
    /// Names this entity's inheritance hierarchy in this coordinator, unique in
    /// the process: typed keys cache their resolved index under it, so the same
    /// key used with two models (two containers, a migration's old and new
    /// model) never takes one model's index for the other's. Entity indexes
    /// alone collide across models; this never does.
    @usableFromInline let slotToken: Int
    let defaults: AttributeValues
    let isToMany: [Bool]
    /// Attributes a save writes (neither derived nor transient).
    let isWritten: [Bool]
    let hasConstraints: Bool
    let hasOrderedToMany: Bool
    let hasToMany: Bool
    /// Whether any attribute is required, has rules, or a relationship has a
    /// count bound or is required: validation has something to check.
    let hasRules: Bool
    /// What a new object's relationship slots start as, shared copy-on-write:
    /// a fault that never fires allocates none, nor does firing it (its
    /// to-ones read the committed snapshot); an object copies on its first
    /// relationship change. Only ever `.committed` and `nil`, so sharing
    /// across threads is safe.
    nonisolated(unsafe) let unloadedToOne: [ToOneState]
    nonisolated(unsafe) let emptyToMany: [ToManyState?]
    /// The committed to-one keys of an entity whose relationships are all
    /// to-many — one nil slot each, the same for every object — shared, so
    /// saving such an object (a parent whose children changed) allocates none.
    /// Nil when the entity has a to-one.
    let toManyOnlyToOnes: ToOneKeys?
    /// Each relationship's inverse, read on every relationship change: taking
    /// it from the `CheckedRelationship` copied that whole value. `isToMany`
    /// is false for an inverse whose kind is unknown, as the relationship
    /// code always treated it.
    let inverses: [Inverse?]
    /// Indexes of the transient attributes and relationships, empty for
    /// nearly every entity. A transient value belongs to one object in one
    /// context: it is left out of every row snapshot (row cache, `committed`,
    /// a child's reads) and out of the persistent changes. Only an entity with
    /// some pays for that; the others test `hasTransients` and go on as before.
    let transientAttributes: [Int]
    let transientRelationships: [Int]
    let hasTransients: Bool

    struct Inverse {
        let index: Int
        let isToMany: Bool
    }

    init(_ entity: CheckedEntity, slotTokens: Int) {
        self.entity = entity
        rootIndex = entity.rootEntityIndex
        slotToken = slotTokens + entity.rootEntityIndex
        defaults = AttributeValues(entity.attributes.map { $0.defaultValue ?? .null })
        isToMany = entity.relationships.map(\.isToMany)
        isWritten = entity.attributes.map { !$0.isDerived && !$0.isTransient }
        hasConstraints = !entity.uniquenessConstraints.isEmpty
        hasOrderedToMany = entity.relationships.contains { $0.isToMany && $0.isOrdered }
        hasToMany = entity.relationships.contains(where: \.isToMany)
        unloadedToOne = Array(repeating: .committed, count: entity.relationships.count)
        emptyToMany = hasToMany ? Array(repeating: nil, count: entity.relationships.count) : []
        if entity.relationships.allSatisfy(\.isToMany) {
            var arena = RowArena<ManagedObjectID?>(firstChunk: 1)
            toManyOnlyToOnes = arena.window(count: entity.relationships.count, filledWith: nil)
        } else {
            toManyOnlyToOnes = nil
        }
        inverses = entity.relationships.map { relationship in
            relationship.inverseIndex.map { Inverse(index: $0, isToMany: relationship.inverseIsToMany == true) }
        }
        transientAttributes = entity.attributes.filter(\.isTransient).map(\.index)
        transientRelationships = entity.relationships.filter(\.isTransient).map(\.index)
        hasTransients = !transientAttributes.isEmpty || !transientRelationships.isEmpty
        hasRules = entity.attributes.contains { (!$0.isOptional && !$0.isDerived && !$0.isTransient) || !$0.validationRules.isEmpty }
            || entity.relationships.contains { relationship in
                relationship.isToMany
                    ? relationship.minCount > 0 || relationship.maxCount > 0
                    : !relationship.isOptional
            }
    }
}

extension EntityRuntime {
    /// `values` as a row snapshot may hold them: transient slots `.null`, as
    /// a row read from the store has them. The same window, uncopied, when
    /// the entity has no transient attribute or they are all nil.
    @inline(__always)
    func persistent(_ values: AttributeValues) -> AttributeValues {
        transientAttributes.isEmpty ? values : withoutTransients(values)
    }

    private func withoutTransients(_ values: AttributeValues) -> AttributeValues {
        var stored = values
        for index in transientAttributes where index < stored.count {
            if case .null = stored[index] { continue }
            stored[index] = .null
        }
        return stored
    }

    /// Whether `object` holds a value in a transient attribute.
    func holdsTransientValues(_ object: ManagedObject) -> Bool {
        guard !object.isFaultStorage else { return false }
        return transientAttributes.contains { index in
            guard index < object.values.count else { return false }
            if case .null = object.values[index] { return false }
            return true
        }
    }

    /// Whether any of `mask`'s set bits names a persistent property, when
    /// `transients` are the transient ones.
    static func hasPersistentBits(_ mask: ChangeMask, transients: [Int]) -> Bool {
        if transients.isEmpty { return !mask.isEmpty }
        return mask.setIndices.contains { !transients.contains($0) }
    }
}

/// The runtimes of every entity of one coordinator, kept with it as an
/// attachment (the store knows nothing of the object graph): every context
/// of the coordinator uses the same ones, so typed keys resolved in one
/// resolve in all.
final class EntityRuntimes: Sendable {
    let all: [EntityRuntime]

    init(model: CheckedModel) {
        let slotTokens = EntityRuntime.reserveSlotTokens(model.entities.count)
        all = model.entities.map { EntityRuntime($0, slotTokens: slotTokens) }
    }

    static func of(_ coordinator: PersistentStoreCoordinator) -> [EntityRuntime] {
        coordinator.attachment(EntityRuntimes.self) { EntityRuntimes(model: coordinator.model) }.all
    }
}

extension EntityRuntime {
    private static let nextSlotToken = Atomic<Int>(1)

    /// Reserves `count` consecutive slot tokens and returns the first. Tokens
    /// fit the 31 bits a typed key's cache keeps for them; running out would
    /// take two billion entities opened in one process.
    static func reserveSlotTokens(_ count: Int) -> Int {
        nextSlotToken.add(max(count, 1), ordering: .relaxed).oldValue
    }
}
