import Faultline

/// The profiled work on a user's model: fetch every object of the entity,
/// then for each touched one (in the pattern's order) read every attribute and
/// walk the key paths, reading every attribute of every object reached.
/// Dynamic access by name (`value(forKey:)`), as a tool that does not know the
/// model's classes must. Returns how many objects and non-nil values it read.
public struct ModelWorkload: Sendable {
    public let tree: KeyPathTree
    public let pattern: AccessPattern
    /// Objects of the entity in the store.
    public let objectCount: Int
    /// 0-based indexes, in primary-key order, of the touched objects, in touch order.
    public let touched: [Int]

    public init(tree: KeyPathTree, pattern: AccessPattern, objectCount: Int) throws(ObjectGraphInputError) {
        guard objectCount > 0 else {
            throw ObjectGraphInputError("the store has no \(tree.root.entity) object to profile")
        }
        self.tree = tree
        self.pattern = pattern
        self.objectCount = objectCount
        touched = pattern.touchedParents(of: objectCount)
    }

    public func run(_ strategy: FaultStrategy, in context: ManagedObjectContext) throws -> Int {
        let request = strategy.request(entityName: tree.root.entity, keyPaths: pattern.keyPaths)
        return try context.performAndWait {
            var objects = try context.fetch(request)
            if !zip(objects, objects.dropFirst()).allSatisfy({ $0.objectID.primaryKey < $1.objectID.primaryKey }) {
                objects.sort { $0.objectID.primaryKey < $1.objectID.primaryKey }
            }
            var checksum = 0
            for index in touched where index < objects.count {
                checksum &+= Self.visit(objects[index], tree.root)
            }
            return checksum
        }
    }

    private static func visit(_ object: ManagedObject, _ node: KeyPathTree.Node) -> Int {
        var count = 1
        for name in node.attributeNames where object.value(forKey: name) != nil {
            count &+= 1
        }
        for edge in node.edges {
            if edge.isToMany {
                for member in object.value(forKey: edge.relationship) as? [ManagedObject] ?? [] {
                    count &+= visit(member, edge.destination)
                }
            } else if let destination = object.value(forKey: edge.relationship) as? ManagedObject {
                count &+= visit(destination, edge.destination)
            }
        }
        return count
    }
}
