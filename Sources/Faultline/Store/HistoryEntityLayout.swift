import Foundation

// How Core Data's persistent history names one entity's properties.
//
// `ACHANGE.ZCOLUMNS` of an update is a bit mask of the properties the save
// changed, and a delete's `ZTOMBSTONEn` columns hold the values of the
// attributes marked `preservesValueInHistoryOnDeletion`. Apple documents
// neither encoding; both are read from the fixture stores that record history
// (an Apple Notes store, a Screen Time store, knowledgeC, SwiftData stores),
// and `HistoryFixtureTests` decodes every one of their rows with them:
//
// - Slots: the entity's properties, inherited ones included, in three groups —
//   to-one relationships, attributes (transient and derived ones too; a
//   composite is one attribute), to-many relationships — each in name order.
//   A to-one whose destination has sub-entities takes a second slot after its
//   own: the entity column Core Data stores beside the key. (Without it, a
//   Notes edit of `ICCloudState` names a slot past the entity's last property;
//   with it, it names `currentLocalVersion` and `localVersionDate`.)
// - The mask is `(slots + 7) / 8` bytes, slot 0 in the first byte's highest
//   bit (0x80), slot 8 in the second byte's, and so on.
// - Tombstones: the preserved attributes in name order, `ZTOMBSTONE0` first,
//   each holding the value as its own column stores it.

/// The history slots and tombstone columns of one entity.
struct HistoryEntityLayout: Sendable {
    /// The property named by each slot; nil for a to-one's entity slot.
    let slotNames: [String?]
    /// The slot of each attribute, by attribute index (a composite's leaves
    /// share its slot).
    let attributeSlots: [Int]
    /// The slot of each relationship, by relationship index.
    let relationshipSlots: [Int]
    /// Attribute indexes of the preserved attributes, in tombstone-column order.
    let tombstoneAttributes: [Int]
    /// Derived attributes the store's triggers recompute when a property of
    /// the same object changes: (the property's slot, the derived one's).
    /// A `now()` derivation is recomputed by every update (source nil).
    let derivedSlots: [(source: Int?, derived: Int)]

    init(entity: CheckedEntity, model: CheckedModel) {
        var toOnes: [(name: String, index: Int, polymorphic: Bool)] = []
        var toManys: [(name: String, index: Int)] = []
        for relationship in entity.relationships {
            if relationship.isToMany {
                toManys.append((relationship.name, relationship.index))
            } else {
                let destination = model.entities[relationship.destinationEntityIndex]
                toOnes.append((relationship.name, relationship.index, !destination.subentityIndexes.isEmpty))
            }
        }
        // Top-level attribute names: a composite's leaves all map to its name.
        let attributeNames = Set(entity.attributes.map { $0.keyPath[0] }).sorted()

        var names: [String?] = []
        var relationshipSlots = Array(repeating: 0, count: entity.relationships.count)
        for toOne in toOnes.sorted(by: { $0.name < $1.name }) {
            relationshipSlots[toOne.index] = names.count
            names.append(toOne.name)
            if toOne.polymorphic { names.append(nil) }
        }
        var slotByAttributeName: [String: Int] = [:]
        for name in attributeNames {
            slotByAttributeName[name] = names.count
            names.append(name)
        }
        for toMany in toManys.sorted(by: { $0.name < $1.name }) {
            relationshipSlots[toMany.index] = names.count
            names.append(toMany.name)
        }
        slotNames = names
        attributeSlots = entity.attributes.map { slotByAttributeName[$0.keyPath[0]] ?? 0 }
        self.relationshipSlots = relationshipSlots
        tombstoneAttributes = entity.attributes
            .filter { $0.preservesValueInHistoryOnDeletion && $0.isStored && $0.keyPath.count == 1 }
            .sorted { $0.name < $1.name }
            .map(\.index)
        var derived: [(source: Int?, derived: Int)] = []
        for attribute in entity.attributes {
            guard let derivation = attribute.derivation else { continue }
            let target = slotByAttributeName[attribute.keyPath[0]] ?? 0
            let source: String? = switch derivation {
            case .keyPath(let path), .canonical(let path), .lowercase(let path), .uppercase(let path): path.first
            case .aggregate(_, let relationship, _): relationship
            case .now: nil
            }
            guard let source else {
                derived.append((nil, target))
                continue
            }
            let sourceSlot = slotByAttributeName[source]
                ?? entity.relationships.first { $0.name == source }.map { relationshipSlots[$0.index] }
            if let sourceSlot { derived.append((sourceSlot, target)) }
        }
        derivedSlots = derived
    }

    /// `slots` of an update, with the derived attributes its changes make
    /// the store's triggers recompute (as Core Data's history names them).
    func withDerived(_ slots: [Int]) -> [Int] {
        guard !derivedSlots.isEmpty else { return slots }
        var all = slots
        for (source, derived) in derivedSlots where source.map(slots.contains) ?? true { all.append(derived) }
        return all
    }

    var maskByteCount: Int { (slotNames.count + 7) / 8 }

    /// The slot of a property; nil for a composite (its leaves have slots).
    func slot(of property: PropertyReference) -> Int? {
        switch property {
        case .attribute(let index): attributeSlots[index]
        case .relationship(let index): relationshipSlots[index]
        case .composite: nil
        }
    }

    /// The slots of the properties named `names` (names the entity lacks are
    /// skipped). A composite's name stands for its leaves' shared slot: a
    /// migration names an update's properties by their top-level names, and
    /// dropping the composite there would lose it from the change.
    func slots(named names: some Sequence<String>, in entity: CheckedEntity) -> [Int] {
        names.compactMap { name in
            switch entity.propertyByName[name] {
            case .composite(let index)?: entity.composites[index].leafAttributeIndexes.first.map { attributeSlots[$0] }
            case let property?: slot(of: property)
            case nil: nil
            }
        }.sorted()
    }

    /// The mask of `slots`, Core Data's `ZCOLUMNS` bytes.
    func mask(slots: some Sequence<Int>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: maskByteCount)
        for slot in slots where slot >= 0 && slot < slotNames.count {
            bytes[slot >> 3] |= 0x80 >> UInt8(slot & 7)
        }
        return bytes
    }

    /// The property names a mask sets; nil when the mask cannot be this
    /// entity's (a length or a slot it does not have).
    func propertyNames(inMask bytes: [UInt8]) -> Set<String>? {
        guard bytes.count == maskByteCount else { return nil }
        var names: Set<String> = []
        for (offset, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let slot = offset * 8 + bit
                guard slot < slotNames.count else { return nil }
                // A set entity slot says the to-one before it changed.
                guard let name = slotNames[slot] ?? (slot > 0 ? slotNames[slot - 1] : nil) else { return nil }
                names.insert(name)
            }
        }
        return names
    }
}
