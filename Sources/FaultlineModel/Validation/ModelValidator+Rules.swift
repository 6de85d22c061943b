// Validation-rule consistency: each rule fits the attribute's type, minimums do
// not exceed maximums (compared exactly), lengths are not negative, and patterns
// compile with NSRegularExpression.

import Foundation

extension ModelValidator {
    mutating func checkRules(of attribute: AttributeDescription, in entity: EntityDescription, path: String) {
        let rules = attribute.validationRules
        guard !rules.isEmpty else { return }
        var minimumValues: [NumericBound] = [], maximumValues: [NumericBound] = []
        var minimumLengths: [Int] = [], maximumLengths: [Int] = []
        var earliest: [Date] = [], latest: [Date] = []
        for rule in rules {
            if !rule.applies(to: attribute.attributeType) {
                report(.ruleDoesNotApply(rule, attribute.attributeType), entity: entity, property: path)
            }
            switch rule {
            case .minimumValue(let bound): minimumValues.append(bound)
            case .maximumValue(let bound): maximumValues.append(bound)
            case .minimumLength(let length): minimumLengths.append(length)
            case .maximumLength(let length): maximumLengths.append(length)
            case .earliestDate(let date): earliest.append(date)
            case .latestDate(let date): latest.append(date)
            case .pattern(let pattern):
                if (try? NSRegularExpression(pattern: pattern)) == nil {
                    report(.invalidRegularExpression(pattern), entity: entity, property: path)
                }
            }
        }
        for minimum in minimumValues {
            for maximum in maximumValues where minimum.compare(to: maximum) == .orderedDescending {
                report(.numericBoundsInverted(minimum: minimum, maximum: maximum), entity: entity, property: path)
            }
        }
        for length in minimumLengths + maximumLengths where length < 0 {
            report(.negativeLength(length), entity: entity, property: path)
        }
        for minimum in minimumLengths {
            for maximum in maximumLengths where minimum > maximum {
                report(.lengthBoundsInverted(minimum: minimum, maximum: maximum), entity: entity, property: path)
            }
        }
        if let soonest = earliest.max(), let latestDate = latest.min(), soonest > latestDate {
            report(.dateBoundsInverted, entity: entity, property: path)
        }
    }
}
