// Why the core re-exports the modules below it.
//
// The model (`FaultlineModel`), the model-file readers and writers
// (`FaultlineModelFiles`), the predicate language (`FaultlinePredicate`), the
// schema compiler (`FaultlineSchema`) and the small shared pieces
// (`FaultlineSupport`, for `CanonicalText`) are their own targets so the
// compiler checks the layering: none of them can reach into the store or the
// contexts, the model cannot reach the predicates, and the predicates cannot
// reach the schema. Users should not have to know that: `import Faultline`
// gives them the model, model-file, predicate and schema API exactly as it did
// when all of it lived in this module. An `@_exported import` in this one file
// also makes these modules visible to every other file of the core, so no core
// file imports them itself.
@_exported import FaultlineModel
@_exported import FaultlineModelFiles
@_exported import FaultlinePredicate
@_exported import FaultlineSchema
@_exported import FaultlineSupport
