import Foundation

/// Foundation's `UndoManager`, which swift-corelibs-foundation does not have:
/// a stack of undo groups and one of redo groups, each group a list of
/// actions run in reverse order. Actions registered while undoing go to the
/// redo stack, while redoing to the undo stack, and at any other time to the
/// undo stack, clearing the redo stack — so an action that registers its own
/// inverse (Foundation's pattern, and the context's) gives undo and redo.
///
/// Linux has no run loop to end an "event", so with `groupsByEvent` (the
/// default) an action registered outside any group opens an event group
/// that stays open until something ends the event: a context that uses this
/// manager ends it at every `processPendingChanges()` — which ends every
/// `perform`/`performAndWait` block and starts every save — and `undo()`,
/// `redo()` and an explicit `endUndoGrouping()` close it too. Groups nested
/// with `beginUndoGrouping()`/`endUndoGrouping()` merge into the group that
/// holds them, as Foundation's undo of the outer group undoes them all.
///
/// Use it on one queue: the queue of the context (or contexts) it serves.
public final class UndoManager: @unchecked Sendable {
    /// What one action does, and whom it was registered for (for
    /// `removeAllActions(withTarget:)`); targets are held weakly, as
    /// Foundation's are, so a dead target's actions do nothing.
    private struct Action {
        weak var target: AnyObject?
        let run: (AnyObject) -> Void
    }

    private struct Group {
        var actions: [Action] = []
        var name = ""
    }

    /// Whether an action registered outside any group opens a group that the
    /// end of the current event closes (see the type's note).
    public var groupsByEvent = true
    /// The most undo groups kept; 0 keeps every one. Lowering it drops the
    /// oldest groups now.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    public private(set) var isUndoing = false
    public private(set) var isRedoing = false
    /// How deep the open groups nest; 0 when none is open.
    public private(set) var groupingLevel = 0
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The outermost open group, collecting actions.
    private var open: Group?
    /// Whether the open outermost group was opened by a registration, not by
    /// `beginUndoGrouping()`: the end of the event closes only such a group.
    private var openedByEvent = false
    private var disabledCount = 0
    /// Who registers actions lazily (contexts hold their changes until the
    /// event ends): asked to register them before groups open, close or run.
    private var checkpointObservers: [WeakCheckpointObserver] = []

    public init() {}

    public var canUndo: Bool {
        checkpoint()
        return !undoStack.isEmpty || !(open?.actions.isEmpty ?? true)
    }

    public var canRedo: Bool {
        checkpoint()
        return !redoStack.isEmpty
    }

    /// How many undo steps are kept (closed groups).
    var undoStepCount: Int { undoStack.count }

    public var undoActionName: String { undoStack.last?.name ?? "" }
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the open group (or, with none open, the last undo group).
    public func setActionName(_ name: String) {
        if open != nil { open?.name = name } else if !undoStack.isEmpty { undoStack[undoStack.count - 1].name = name }
    }

    public func beginUndoGrouping() {
        checkpoint()
        if groupingLevel == 0 {
            open = Group()
            openedByEvent = false
        }
        groupingLevel += 1
    }

    /// Closes the innermost open group; the outermost one, closed, becomes
    /// one undo step (an empty group is dropped). Without an open group it
    /// does nothing (Foundation raises).
    public func endUndoGrouping() {
        checkpoint()
        guard groupingLevel > 0 else { return }
        groupingLevel -= 1
        if groupingLevel == 0 { closeOutermost() }
    }

    /// Registers `handler` to run with `target` when the current group is
    /// undone (or redone, when registered while undoing).
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard disabledCount == 0 else { return }
        let action = Action(target: target) { object in
            if let target = object as? Target { handler(target) }
        }
        if open == nil {
            open = Group()
            groupingLevel = 1
            openedByEvent = true
        }
        open?.actions.append(action)
        if !isUndoing && !isRedoing { redoStack.removeAll() }
    }

    public func disableUndoRegistration() { disabledCount += 1 }
    public func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    /// Closes any open group, then runs the last undo group's actions in
    /// reverse; what they register becomes one redo group.
    public func undo() {
        closeAllGroups()
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        if let inverse = run(group) { redoStack.append(inverse) }
        trim()
    }

    /// `undo()`: open groups are merged into their outermost one here.
    public func undoNestedGroup() { undo() }

    /// Runs the last redo group's actions in reverse; what they register
    /// becomes one undo group again.
    public func redo() {
        closeAllGroups()
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        if let inverse = run(group) { undoStack.append(inverse) }
        trim()
    }

    public func removeAllActions() {
        checkpoint()
        undoStack.removeAll()
        redoStack.removeAll()
        open = nil
        groupingLevel = 0
    }

    public func removeAllActions(withTarget target: AnyObject) {
        func keep(_ group: inout Group) { group.actions.removeAll { $0.target == nil || $0.target === target } }
        for index in undoStack.indices { keep(&undoStack[index]) }
        for index in redoStack.indices { keep(&redoStack[index]) }
        if open != nil { keep(&open!) }
        undoStack.removeAll { $0.actions.isEmpty }
        redoStack.removeAll { $0.actions.isEmpty }
    }

    // MARK: Internals

    /// Ends the current event: closes the group a registration opened.
    func endEvent() {
        guard openedByEvent, groupingLevel == 1 else { return }
        groupingLevel = 0
        closeOutermost()
    }

    func addCheckpointObserver(_ observer: UndoCheckpointObserver) {
        checkpointObservers.removeAll { $0.observer == nil || $0.observer === observer }
        checkpointObservers.append(WeakCheckpointObserver(observer: observer))
    }

    func removeCheckpointObserver(_ observer: UndoCheckpointObserver) {
        checkpointObservers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    private func checkpoint() {
        guard !isUndoing, !isRedoing else { return }
        for entry in checkpointObservers { entry.observer?.undoCheckpoint(self) }
    }

    private func closeAllGroups() {
        checkpoint()
        guard groupingLevel > 0 else { return }
        groupingLevel = 0
        closeOutermost()
    }

    private func closeOutermost() {
        guard let group = open else { return }
        open = nil
        openedByEvent = false
        guard !group.actions.isEmpty else { return }
        undoStack.append(group)
        trim()
    }

    /// Runs `group`'s actions last first; what they register is the inverse
    /// group (nil when they registered nothing). Not passed a stack to push
    /// onto: an action may itself change the stacks (`removeAllActions`).
    private func run(_ group: Group) -> Group? {
        let outer = (open, groupingLevel, openedByEvent)
        open = Group(name: group.name)
        groupingLevel = 1
        for action in group.actions.reversed() {
            if let target = action.target { action.run(target) }
        }
        let inverse = open ?? Group(name: group.name)
        (open, groupingLevel, openedByEvent) = outer
        return inverse.actions.isEmpty ? nil : inverse
    }

    private func trim() {
        guard levelsOfUndo > 0 else { return }
        if undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
        if redoStack.count > levelsOfUndo { redoStack.removeFirst(redoStack.count - levelsOfUndo) }
    }
}

/// Registers its pending undo actions when the manager asks (a context).
protocol UndoCheckpointObserver: AnyObject {
    func undoCheckpoint(_ manager: UndoManager)
}

private struct WeakCheckpointObserver {
    weak var observer: UndoCheckpointObserver?
}
