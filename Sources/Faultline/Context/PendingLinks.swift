/// The relationship changes a save writes outside the changed objects' own
/// rows: join-table rows of many-to-many relationships, added and removed, and
/// the hidden keys of to-many relationships without an inverse.
///
/// Invariants:
/// 1. A join row is keyed by its join table and the objects in its first and
///    second columns, so both sides of a pair agree on it: after `A.add(B)`
///    then `B.remove(A)` the row is removed, and a reflexive relationship's
///    (A, B) and (B, A) stay two rows.
/// 2. A pair's last change wins: the save deletes the row or inserts it
///    (`INSERT OR IGNORE`), each harmless when the store already agrees. A
///    change to a relationship that was not loaded cannot know whether the
///    store has the row, so cancelling an add against an earlier removal
///    (or the reverse) would lose a row the store never had.
/// 3. A member's hidden key is its last assignment: one owner or none.
/// 4. Nothing here holds SQL: rows name the relationship that recorded them,
///    and the store's plans know the statements.
struct PendingLinks {
    struct JoinRowKey: Hashable {
        let table: Int
        let first: ObjectIdentifier
        let second: ObjectIdentifier
    }

    struct JoinRow {
        let entityIndex: Int
        let relationship: Int
        let first: ManagedObject
        let second: ManagedObject
    }

    struct HiddenKey {
        let member: ManagedObject
        let entityIndex: Int
        let relationship: Int
        let owner: ManagedObject?
    }

    private(set) var joinInserts: [JoinRowKey: JoinRow] = [:]
    private(set) var joinDeletes: [JoinRowKey: JoinRow] = [:]
    /// By member.
    private(set) var hiddenKeys: [ObjectIdentifier: HiddenKey] = [:]

    var isEmpty: Bool { joinInserts.isEmpty && joinDeletes.isEmpty && hiddenKeys.isEmpty }

    /// `source` gained (`added`) or lost `member` through relationship
    /// `relationship` of entity `entityIndex`, stored in join table `table`.
    mutating func recordJoinRow(
        table: Int, sourceFirst: Bool, entityIndex: Int, relationship: Int,
        source: ManagedObject, member: ManagedObject, added: Bool
    ) {
        let (first, second) = sourceFirst ? (source, member) : (member, source)
        let key = JoinRowKey(table: table, first: ObjectIdentifier(first), second: ObjectIdentifier(second))
        let row = JoinRow(entityIndex: entityIndex, relationship: relationship, first: first, second: second)
        if added {
            joinDeletes[key] = nil
            joinInserts[key] = row
        } else {
            joinInserts[key] = nil
            joinDeletes[key] = row
        }
    }

    /// `member`'s hidden key now names `owner` (nil: nobody).
    mutating func recordHiddenKey(member: ManagedObject, entityIndex: Int, relationship: Int, owner: ManagedObject?) {
        hiddenKeys[ObjectIdentifier(member)] = HiddenKey(
            member: member, entityIndex: entityIndex, relationship: relationship, owner: owner)
    }

    /// `object` leaves for `replacement` (a duplicate merged into the object
    /// it duplicates): its pending join rows move to the replacement, its
    /// hidden key goes.
    mutating func replace(_ object: ManagedObject, with replacement: ManagedObject?) {
        for (key, row) in joinInserts where row.first === object || row.second === object {
            joinInserts[key] = nil
            guard let replacement else { continue }
            let first = row.first === object ? replacement : row.first
            let second = row.second === object ? replacement : row.second
            joinInserts[JoinRowKey(table: key.table, first: ObjectIdentifier(first), second: ObjectIdentifier(second))] =
                JoinRow(entityIndex: row.entityIndex, relationship: row.relationship, first: first, second: second)
        }
        hiddenKeys[ObjectIdentifier(object)] = nil
    }

    mutating func removeAll() {
        joinInserts.removeAll()
        joinDeletes.removeAll()
        hiddenKeys.removeAll()
    }

    /// The rows a save writes. `gone`: objects inserted and deleted before
    /// any save, which never reach the store; removals need both objects
    /// saved (a row with an unsaved object cannot exist).
    func appendRows(to request: inout SaveRequest, leaving gone: Set<ObjectIdentifier>) {
        for row in joinInserts.values
        where !gone.contains(ObjectIdentifier(row.first)) && !gone.contains(ObjectIdentifier(row.second)) {
            request.joinInserts.append(SaveRequest.JoinRow(
                entityIndex: row.entityIndex, relationship: row.relationship, first: row.first.objectID, second: row.second.objectID))
        }
        for row in joinDeletes.values where !row.first.objectID.isTemporaryID && !row.second.objectID.isTemporaryID {
            request.joinDeletes.append(SaveRequest.JoinRow(
                entityIndex: row.entityIndex, relationship: row.relationship, first: row.first.objectID, second: row.second.objectID))
        }
        for entry in hiddenKeys.values where !gone.contains(ObjectIdentifier(entry.member)) && !entry.member.isDeletedStorage {
            request.keyAssignments.append(SaveRequest.KeyAssignment(
                entityIndex: entry.entityIndex, relationship: entry.relationship, member: entry.member.objectID,
                owner: entry.owner.flatMap { gone.contains(ObjectIdentifier($0)) ? nil : $0.objectID }))
        }
    }
}
