/// One object's state as an undo step puts it back: taken when the object
/// first changes in a step (before the change), from the fields the object
/// keeps anyway — its values window (copy-on-write, so taking it copies
/// nothing), its to-one states and change masks — plus the members of each
/// to-many the step changes. Not a copy of the object graph: an object the
/// step does not touch is not in it.
struct UndoObjectState {
    let object: ManagedObject
    /// Whether the object was in the context and not deleted; when false,
    /// nothing below is kept.
    let exists: Bool
    let values: AttributeValues
    /// The to-one states, `.committed` read out as the ID it stands for.
    let toOne: [ToOneState]
    /// The members of each to-many the step changed, in order. Nil for an
    /// unordered to-many side that was not loaded and whose inverse is a
    /// to-one: the members' own to-ones carry its changes, and restoring them
    /// restores it.
    var toMany: [Int: [ManagedObject]?] = [:]
    let changedAttributes: ChangeMask
    let changedRelationships: ChangeMask
    /// The context's save count then: masks taken before a save no longer
    /// describe what differs from the store.
    let saveCount: Int
    /// What the step changed, found when it ends (`endingStep(of:)`): the
    /// attributes and to-ones whose values differ from the state's, and each
    /// taken to-many's members then. Undoing puts back those alone, so what a
    /// merge or refresh brought in since (another context's save) stays, as
    /// Core Data's undo reverts only the step's own changes. Nil: all of them
    /// (an object entering or leaving the context, or a redo's state).
    var stepAttributes: ChangeMask?
    var stepToOnes: ChangeMask?
    var membersAtStepEnd: [Int: [ManagedObject]] = [:]

    /// The state of an object that is not in the context (not inserted yet,
    /// deleted, or gone).
    static func absent(_ object: ManagedObject, saveCount: Int) -> UndoObjectState {
        UndoObjectState(object: object, exists: false, values: .empty, toOne: [], changedAttributes: ChangeMask(),
                        changedRelationships: ChangeMask(), saveCount: saveCount)
    }
}

/// The states taken since the context last registered an undo step.
struct UndoCapture {
    private(set) var states: [UndoObjectState] = []
    private var positions: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { states.isEmpty }

    func position(of object: ManagedObject) -> Int? { positions[ObjectIdentifier(object)] }

    /// Keeps `state` unless its object has one already; returns the object's position.
    @discardableResult
    mutating func keep(_ state: @autoclosure () -> UndoObjectState, of object: ManagedObject) -> Int {
        if let position = positions[ObjectIdentifier(object)] { return position }
        states.append(state())
        positions[ObjectIdentifier(object)] = states.count - 1
        return states.count - 1
    }

    /// Whether the to-many at `index` of the state at `position` was taken.
    func hasToMany(_ index: Int, at position: Int) -> Bool { states[position].toMany.index(forKey: index) != nil }

    mutating func setToMany(_ members: [ManagedObject]?, _ index: Int, at position: Int) {
        states[position].toMany[index] = .some(members)
    }

    mutating func take() -> [UndoObjectState] {
        defer {
            states = []
            positions = [:]
        }
        return states
    }
}
