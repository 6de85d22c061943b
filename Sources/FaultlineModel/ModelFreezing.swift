// Freezing: once `ManagedObjectModel.checked()` succeeds, every description in the
// model shares one `FreezeState`. From then on each setter ignores the change and
// records it, so a store that already compiled the model never sees it change
// under its feet, and a late mutation is visible (`ignoredMutations`) instead of
// crashing as Core Data's "Can't modify an immutable model" exception does.

/// A change that was ignored because the model was already frozen.
public struct IgnoredMutation: Hashable, Sendable, CustomStringConvertible {
    /// The description that was targeted: `Entity`, `Entity.property`, or `model`.
    public let owner: String
    /// The property that was being set.
    public let key: String

    public var description: String { "\(owner).\(key) (ignored: model is frozen)" }
}

/// Shared by all descriptions of one frozen model; collects ignored mutations.
final class FreezeState {
    var ignoredMutations: [IgnoredMutation] = []
}

/// Implemented by every mutable description class.
protocol FreezableDescription: AnyObject {
    var freezeState: FreezeState? { get }
    /// How the description is named in an `IgnoredMutation`.
    var mutationOwnerName: String { get }
}

extension FreezableDescription {
    /// True (and records the attempt) when the description is frozen.
    func rejectsMutation(_ key: String) -> Bool {
        guard let state = freezeState else { return false }
        state.ignoredMutations.append(IgnoredMutation(owner: mutationOwnerName, key: key))
        return true
    }
}
