/// The Faulting profiler's flags for a user's own model: which model, which
/// data (a Core Data store, or synthetic data of given sizes), which entity and
/// key paths, and the access pattern.
public struct ModelProfileRequest: Equatable, Sendable {
    public static let flags = ["--model", "--version", "--store", "--entity", "--objects", "--fanout"]
    public static let defaultSizes = (objects: 1_000, fanOut: 10)

    /// Nil: the model Core Data cached in the store (`Z_MODELCACHE`).
    public let modelPath: String?
    public let version: String?
    public let storePath: String?
    public let entity: String
    /// Key paths are checked against the model once it is read.
    public let pattern: AccessPattern
    public let objects: Int
    public let fanOut: Int

    init(_ values: [String: String]) throws(ObjectGraphInputError) {
        guard values["--model"] != nil || values["--store"] != nil else {
            throw ObjectGraphInputError("a model profile needs --model, --store or both")
        }
        guard let entity = values["--entity"] else {
            throw ObjectGraphInputError("a model profile needs --entity NAME: the entity whose objects are fetched")
        }
        guard let keyPaths = values["--keypaths"] else {
            throw ObjectGraphInputError("a model profile needs --keypaths: the relationships walked from \(entity), e.g. a,b.c")
        }
        if values["--model"] == nil, values["--version"] != nil {
            throw ObjectGraphInputError("--version picks a version of --model's bundle; without --model the store's cached model is used")
        }
        if values["--store"] != nil, values["--objects"] != nil || values["--fanout"] != nil {
            throw ObjectGraphInputError("--objects and --fanout size synthetic data; with --store the store's data is profiled")
        }
        modelPath = values["--model"]
        version = values["--version"]
        storePath = values["--store"]
        self.entity = entity
        pattern = try AccessPattern(
            touch: values["--touch"] ?? ProfilerArguments.defaults.touch,
            order: values["--order"] ?? ProfilerArguments.defaults.order,
            keyPaths: keyPaths, knownKeyPaths: nil)
        objects = try Self.count(values["--objects"], flag: "--objects") ?? Self.defaultSizes.objects
        fanOut = try Self.count(values["--fanout"], flag: "--fanout") ?? Self.defaultSizes.fanOut
    }

    private static func count(_ text: String?, flag: String) throws(ObjectGraphInputError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else {
            throw ObjectGraphInputError("\(flag) needs a positive integer; got '\(text)'")
        }
        return value
    }
}
