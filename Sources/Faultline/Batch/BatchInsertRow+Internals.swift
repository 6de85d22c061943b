import Foundation
import FaultlineSQLite

// The batch insert row's internals: slot resolution, the dynamically typed
// path of the dictionary forms, and the row life cycle the executor drives.
// Per-slot state lives in raw buffers (see `BatchInsertRow`), so the per-row
// path neither hashes nor allocates.
extension BatchInsertRow {

    @inline(__always)
    func slot(_ handle: AttributeHandle) -> Int? {
        guard handle.entityIndex == plan.entityIndex, handle.attributeIndex >= 0, handle.attributeIndex < attributeCount else {
            noteFailure(.foreignHandle("attribute #\(handle.attributeIndex)"))
            return nil
        }
        let slot = Int(slotOfAttribute[handle.attributeIndex])
        if slot < 0 { noteFailure(.foreignHandle("attribute #\(handle.attributeIndex)")); return nil }
        return slot
    }

    func slot(_ handle: RelationshipHandle) -> Int? {
        guard handle.entityIndex == plan.entityIndex, plan.slotOfRelationship.indices.contains(handle.relationshipIndex),
              plan.slotOfRelationship[handle.relationshipIndex] >= 0 else {
            noteFailure(.foreignHandle("relationship #\(handle.relationshipIndex)"))
            return nil
        }
        return Int(plan.slotOfRelationship[handle.relationshipIndex])
    }

    /// Sets a slot from a dynamically typed value (the dictionary forms).
    func setAny(_ value: Any, slot: Int) {
        if case .toOne = plan.slots[slot].kind {
            if let id = value as? ManagedObjectID { return setDestination(id, slot: slot) }
            if value is NSNull || isNil(value) { return setDestination(nil, slot: slot) }
            return wrongType(slot, batchTypeName(value))
        }
        if let converted = AttributeValue(any: value) { return setValue(converted, slot: slot, got: batchTypeName(value)) }
        if isNil(value) { return setValue(.null, slot: slot, got: "nil") }
        wrongType(slot, batchTypeName(value))
    }

    /// Converts exactly to the slot's type, validates and binds. `got` names
    /// the caller's type for an error only, so it is built only on failure.
    func setValue(_ value: AttributeValue, slot: Int, got: @autoclosure () -> String) {
        let type: AttributeType
        switch plan.slots[slot].kind {
        case .attribute(_, let attributeType): type = attributeType
        case .lookup(_, let keyType):
            type = keyType
            if value != .null { linked[slot] = true }
        case .toOne: return wrongType(slot, got())
        }
        guard let converted = value.coerced(to: type) else { return wrongType(slot, got()) }
        if validates { validate(converted, slot) }
        let parameter = parameters[slot]
        let stored = plan.slots[slot].marked ? Self.marked(converted) : converted
        bind { try ValueCoding.bind(stored, to: statement, at: parameter) }
        mark(slot)
    }

    /// A value of a slot kept in Core Data's external-storage form: marker 1
    /// and the bytes (`BatchInsertPlan.Slot.marked`).
    static func marked(_ value: AttributeValue) -> AttributeValue {
        guard case .data(let bytes) = value else { return value }
        return .data(Data([MarkedDataAttributes.inlineMarker]) + bytes)
    }

    func setDestination(_ destination: ManagedObjectID?, slot: Int) {
        guard case .toOne(_, _, let hasEntityColumn) = plan.slots[slot].kind else {
            return wrongType(slot, "ManagedObjectID")
        }
        let parameter = parameters[slot]
        if let destination {
            guard destination.storeIdentifier == storeIdentifier, !destination.isTemporaryID,
                  plan.acceptsDestination(destination.entityIndex, slot: slot) else {
                return noteFailure(.foreignObjectID(slot: slot, destination.description))
            }
            bind { try statement.bind(destination.primaryKey, at: parameter) }
            linked[slot] = true
            if hasEntityColumn { bind { try statement.bind(Int64(destination.entityNumber), at: parameter + 1) } }
        } else {
            bind { try statement.bindNull(at: parameter) }
            if hasEntityColumn { bind { try statement.bindNull(at: parameter + 1) } }
        }
        mark(slot)
    }

    @inline(__always)
    func mark(_ slot: Int) {
        marks[slot] = generation
        defaultBound[slot] = false
    }

    @inline(__always)
    func bind(_ body: () throws -> Void) {
        do { try body() } catch let error as SQLiteError { noteFailure(.sqlite(error)) } catch {}
    }

    func wrongType(_ slot: Int, _ got: String) { noteFailure(.wrongType(slot: slot, got: got)) }

    func validate(_ value: AttributeValue, _ slot: Int) {
        let rules = plan.slots[slot].rules
        if rules.isEmpty { return }
        if let failed = rules.failures(for: value).first { noteFailure(.validation(slot: slot, failed)) }
    }

    func noteFailure(_ failure: Failure) {
        if self.failure == nil { self.failure = failure }
    }

    func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    // MARK: Row life cycle (driven by the executor)

    /// Starts a row: nothing is set yet.
    @inline(__always)
    func beginRow() {
        generation &+= 1
    }

    /// Ends a row: binds the defaults of slots the row left unset (only when
    /// something else is bound there now), the upsert flags, the key.
    @inline(__always)
    func completeRow(key: Int64) throws {
        for slot in 0..<slotCount {
            let isSet = marks[slot] == generation
            if !isSet, !defaultBound[slot] {
                try bindDefault(slot)
                defaultBound[slot] = true
            }
            if flags {
                let flag: Int8 = isSet ? 1 : 0
                if flagBound[slot] != flag {
                    try statement.bind(Int64(flag), at: plan.slots[slot].flagParameter)
                    flagBound[slot] = flag
                }
            }
            if validates, !isSet, plan.slots[slot].isRequired, plan.slots[slot].defaultValue == .null {
                noteFailure(.missing(slot: slot))
            }
        }
        try statement.bind(key, at: 1)
    }

    func bindDefault(_ slot: Int) throws {
        let parameter = parameters[slot]
        switch plan.slots[slot].kind {
        case .attribute:
            let value = plan.slots[slot].defaultValue
            try ValueCoding.bind(plan.slots[slot].marked ? Self.marked(value) : value, to: statement, at: parameter)
        case .lookup:
            try statement.bindNull(at: parameter)
        case .toOne(_, _, let hasEntityColumn):
            try statement.bindNull(at: parameter)
            if hasEntityColumn { try statement.bindNull(at: parameter + 1) }
        }
    }

    /// The failure as the request's error, for row `row`.
    func error(_ failure: Failure, row: Int) -> Error {
        switch failure {
        case .wrongType(let slot, let got):
            let expected: AttributeType
            switch plan.slots[slot].kind {
            case .attribute(_, let type), .lookup(_, let type): expected = type
            case .toOne: expected = .objectIDAttributeType
            }
            return BatchError.wrongType(row: row, key: plan.slots[slot].name, expected: expected, got: got)
        case .validation(let slot, let failed):
            return BatchError.validationFailed(row: row, key: plan.slots[slot].name, failure: failed)
        case .missing(let slot): return BatchError.missingValue(row: row, key: plan.slots[slot].name)
        case .foreignHandle(let key): return BatchError.foreignHandle(row: row, key: key)
        case .foreignObjectID(let slot, let id):
            return BatchError.foreignObjectID(row: row, key: plan.slots[slot].name, id: id)
        case .sqlite(let error): return error
        }
    }
}
