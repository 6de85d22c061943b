import Foundation

/// The operations of Core Data's `NSMutableOrderedSet` on an ordered to-many
/// (insert at, remove at, replace at, move), each expressed as the new member
/// order and applied through `replaceMembers`, the one path that keeps the
/// inverses, join rows and ordering positions right. A position out of range
/// throws `indexOutOfRange` and changes nothing.
extension ManagedObject {
    /// Inserts `member` at `position` (moving it there if it is a member already).
    public func insertObject(_ member: ManagedObject, at position: Int, inOrderedRelationship key: String) throws {
        try reorder(key) { members in
            guard position >= 0, position <= members.count else { return .outOfRange(position) }
            if let current = members.firstIndex(where: { $0 === member }) {
                members.remove(at: current)
                members.insert(member, at: min(position, members.count))
            } else {
                members.insert(member, at: position)
            }
            return .done
        }
    }

    /// Removes the member at `position`.
    public func removeObject(at position: Int, fromOrderedRelationship key: String) throws {
        try reorder(key) { members in
            guard members.indices.contains(position) else { return .outOfRange(position) }
            members.remove(at: position)
            return .done
        }
    }

    /// Replaces the member at `position` with `member`.
    public func replaceObject(at position: Int, with member: ManagedObject, inOrderedRelationship key: String) throws {
        try reorder(key) { members in
            guard members.indices.contains(position) else { return .outOfRange(position) }
            members[position] = member
            return .done
        }
    }

    /// Moves the members at `positions` to `destination`, as
    /// `NSMutableOrderedSet.moveObjects(at:to:)`: `destination` is their first
    /// position after the move.
    public func moveObjects(at positions: IndexSet, to destination: Int, inOrderedRelationship key: String) throws {
        try reorder(key) { members in
            if let bad = positions.first(where: { !members.indices.contains($0) }) { return .outOfRange(bad) }
            let moving = positions.map { members[$0] }
            var rest = members.enumerated().filter { !positions.contains($0.offset) }.map(\.element)
            guard destination >= 0, destination <= rest.count else { return .outOfRange(destination) }
            rest.insert(contentsOf: moving, at: destination)
            members = rest
            return .done
        }
    }

    private enum ReorderOutcome { case done, outOfRange(Int) }

    private func reorder(_ key: String, _ change: (inout [ManagedObject]) -> ReorderOutcome) throws {
        let (entity, property) = try resolve(key)
        guard case .relationship(let index) = property, entity.relationships[index].isToMany,
              entity.relationships[index].isOrdered else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "an ordered to-many relationship")
        }
        var members = members(at: index)
        if case .outOfRange(let position) = change(&members) {
            throw ObjectAccessError.indexOutOfRange(entity: entity.name, key: key, index: position, count: self.members(at: index).count)
        }
        try replaceMembers(members, at: index)
    }
}
