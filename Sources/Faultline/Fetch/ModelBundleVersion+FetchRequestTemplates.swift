// Core Data's `NSManagedObjectModel` template API, on the model-file version
// because that is where Faultline keeps a file's templates (`extras`):
// `ManagedObjectModel` has no place for them, and a compiled `.momd` archives
// them as NSPredicate objects Faultline does not read.
//
// The requests are built on each call rather than cached: parsing can fail, and
// `extras` is a public var a caller may change. Each call costs one predicate
// parse per template asked for.

extension ModelBundleVersion {
    /// The fetch request stored as `name` in the model file, or nil when there
    /// is no such template (as Core Data's `fetchRequestTemplate(forName:)`).
    /// Its predicate keeps its `$VARIABLE`s: a fetch with one left throws
    /// `FetchPredicateError.unsubstitutedVariable`; use
    /// `fetchRequestFromTemplate(withName:substitutionVariables:)` to fill them.
    ///
    /// Throws `FetchRequestTemplateError` for an entity the model lacks, a
    /// predicate that does not parse, or a `<fetchRequest>` attribute Faultline
    /// cannot apply.
    public func fetchRequestTemplate(forName name: String) throws(FetchRequestTemplateError) -> FetchRequest? {
        guard let template = extras.fetchRequestTemplate(named: name) else { return nil }
        return try fetchRequest(from: template)
    }

    /// A copy of the template `name` with each `$VARIABLE` of its predicate
    /// replaced by its value in `substitutionVariables` (values of the kinds
    /// `FetchPredicate(format:_:)` takes as arguments; `NSNull` or an empty
    /// optional is nil). Nil when there is no such template.
    ///
    /// As Core Data requires, the dictionary must hold every variable of the
    /// template: a missing one is `FetchRequestTemplateError.missingSubstitutionVariables`.
    /// Entries for names the predicate does not use are ignored, as
    /// `NSPredicate`'s substitution ignores them.
    public func fetchRequestFromTemplate(
        withName name: String, substitutionVariables: [String: Any]
    ) throws(FetchRequestTemplateError) -> FetchRequest? {
        guard var request = try fetchRequestTemplate(forName: name) else { return nil }
        guard let predicate = request.predicate else { return request }
        let variables = predicate.variableNames
        let missing = variables.subtracting(substitutionVariables.keys).sorted()
        guard missing.isEmpty else { throw .missingSubstitutionVariables(template: name, names: missing) }
        // One variable at a time, so an error names the variable it is about.
        var substituted = predicate
        for variable in variables.sorted() {
            do {
                let value = try PredicateValue(converting: substitutionVariables[variable])
                substituted = try substituted.substituting([variable: value])
            } catch {
                throw .invalidSubstitution(template: name, variable: variable, error: error)
            }
        }
        request.predicate = substituted
        return request
    }

    /// Every template of the file by name (Core Data's `fetchRequestTemplatesByName`),
    /// a throwing property because each template's predicate and options are
    /// read when asked for; the first template that cannot be read is the error.
    /// When a file names two templates alike, the first is kept, as
    /// `fetchRequestTemplate(forName:)` finds it.
    public var fetchRequestTemplatesByName: [String: FetchRequest] {
        get throws(FetchRequestTemplateError) {
            var requests: [String: FetchRequest] = [:]
            for template in extras.fetchRequestTemplates where requests[template.name] == nil {
                requests[template.name] = try fetchRequest(from: template)
            }
            return requests
        }
    }

    private func fetchRequest(from template: FetchRequestTemplate) throws(FetchRequestTemplateError) -> FetchRequest {
        guard model.entitiesByName[template.entityName] != nil else {
            throw .unknownEntity(template: template.name, entity: template.entityName)
        }
        var request = FetchRequest(entityName: template.entityName)
        if let text = template.predicateString {
            do {
                request.predicate = try FetchPredicate(format: text, arguments: [])
            } catch {
                throw .malformedPredicate(template: template.name, predicate: text, error: error)
            }
        }
        try request.applyTemplateOptions(template.options, template: template.name)
        return request
    }
}
