// The attributes of a model file's `<fetchRequest>` beyond name, entity and
// predicate, as `FetchRequest` settings.
//
// Two spellings of each flag are in circulation: the model editor's
// (`includeSubentities`, `returnObjectsAsFaults`, `returnDistinctResults`, as
// model-file parsers such as the core_data_model gem read them) and
// NSFetchRequest's property names (`includesSubentities`, …) that decompilers
// such as momdec write. Both are read; neither is ever written by Faultline,
// which keeps the options verbatim for `ModelFileWriter`.
//
// Nothing is ignored: Xcode puts no editor-only (layout, display) attribute on
// a `<fetchRequest>`, so an attribute that is not mapped here may change what
// the fetch returns and is refused by name rather than dropped.

extension FetchRequest {
    private enum Setting {
        case count(WritableKeyPath<FetchRequest, Int>)
        case flag(WritableKeyPath<FetchRequest, Bool>)
        case resultType
    }

    /// The setting an attribute names; a function, as key paths are not
    /// Sendable and so cannot sit in a static table.
    private static func templateSetting(_ attribute: String) -> Setting? {
        switch attribute {
        case "fetchLimit": .count(\.fetchLimit)
        case "fetchOffset": .count(\.fetchOffset)
        case "fetchBatchSize": .count(\.fetchBatchSize)
        case "includeSubentities", "includesSubentities": .flag(\.includesSubentities)
        case "includePropertyValues", "includesPropertyValues": .flag(\.includesPropertyValues)
        case "includePendingChanges", "includesPendingChanges": .flag(\.includesPendingChanges)
        case "returnObjectsAsFaults", "returnsObjectsAsFaults": .flag(\.returnsObjectsAsFaults)
        case "returnDistinctResults", "returnsDistinctResults": .flag(\.returnsDistinctResults)
        case "shouldRefreshRefetchedObjects": .flag(\.shouldRefreshRefetchedObjects)
        case "resultType": .resultType
        default: nil
        }
    }

    /// Sets what `options` (a template's verbatim attributes) say, in name
    /// order so the same file always reports the same first problem.
    mutating func applyTemplateOptions(_ options: [String: String], template: String) throws(FetchRequestTemplateError) {
        for attribute in options.keys.sorted() {
            let value = options[attribute] ?? ""
            guard let setting = Self.templateSetting(attribute) else {
                throw .unsupportedOption(template: template, attribute: attribute, value: value,
                                         reason: "it is not a fetch request setting Faultline knows, so it cannot be applied")
            }
            switch setting {
            case .count(let keyPath):
                // NSUInteger in Core Data: a negative count is not a value the editor writes.
                guard let count = Int(value), count >= 0 else {
                    throw .invalidOptionValue(template: template, attribute: attribute, value: value, expected: "an integer of 0 or more")
                }
                self[keyPath: keyPath] = count
            case .flag(let keyPath):
                guard let flag = FetchRequestTemplate.flag(value) else {
                    throw .invalidOptionValue(template: template, attribute: attribute, value: value, expected: "YES or NO")
                }
                self[keyPath: keyPath] = flag
            case .resultType:
                resultType = try Self.templateResultType(value, template: template)
            }
        }
    }

    /// `NSFetchRequestResultType`'s raw values.
    private static func templateResultType(_ value: String, template: String) throws(FetchRequestTemplateError) -> FetchResultType {
        switch value {
        case "0": return .managedObjects
        case "1": return .objectIDs
        case "2": return .dictionaries
        case "4": return .count
        default:
            throw .invalidOptionValue(template: template, attribute: "resultType", value: value,
                                      expected: "0 (managed objects), 1 (object IDs), 2 (dictionaries) or 4 (count)")
        }
    }
}
