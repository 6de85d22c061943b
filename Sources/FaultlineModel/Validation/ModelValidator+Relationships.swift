// Relationship checks: a destination in the model, an inverse that points back
// (each names the other, and the inverse goes from the destination to this
// relationship's entity), and sane counts (maxCount 0 means unbounded).

extension ModelValidator {
    mutating func checkRelationship(_ relationship: RelationshipDescription, in entity: EntityDescription) {
        let name = relationship.name
        if let destination = relationship.destinationEntity {
            if !isInModel(destination) {
                report(.destinationEntityNotInModel(destination.name ?? ""), entity: entity, property: name)
            }
        } else if let unresolved = relationship.unresolvedDestinationName {
            report(.destinationEntityNotInModel(unresolved), entity: entity, property: name)
        } else {
            report(.missingDestinationEntity, entity: entity, property: name)
        }

        let (minCount, maxCount) = (relationship.minCount, relationship.maxCount)
        if minCount < 0 || maxCount < 0 {
            report(.negativeCount(min: minCount, max: maxCount), entity: entity, property: name)
        } else if maxCount != 0, minCount > maxCount {
            report(.minCountExceedsMaxCount(min: minCount, max: maxCount), entity: entity, property: name)
        }

        if let inverse = relationship.inverseRelationship {
            if inverse.inverseRelationship !== relationship {
                report(.inverseNotReciprocal(inverse: inverse.name), entity: entity, property: name)
            }
            if inverse.entity !== relationship.destinationEntity || inverse.destinationEntity !== entity {
                report(.inverseEntityMismatch(inverse: inverse.name), entity: entity, property: name)
            }
        } else if let unresolved = relationship.unresolvedInverseName {
            report(.unknownInverseRelationship(unresolved), entity: entity, property: name)
        }
    }
}
