import Faultline

/// Relationship key paths from one entity, resolved against a store's schema
/// and merged into a tree, so a shared prefix (`ingredients` in `ingredients`
/// and `ingredients.unit`) is walked once — by the Faultline workload and by
/// the raw reference alike.
public struct KeyPathTree: Sendable {
    public struct Node: Sendable {
        public let entity: String
        public let mapping: EntityMapping
        /// The stored attributes read by name from every object reached
        /// (composite elements come with the row but are not read by name).
        public let attributeNames: [String]
        /// Every stored column of the row: what the raw reference reads.
        public let columns: [String]
        public let edges: [Edge]
    }

    public struct Edge: Sendable {
        public let relationship: String
        public let isToMany: Bool
        public let storage: RelationshipStorage
        /// The table of the entity the relationship leaves.
        public let sourceTable: String
        public let destination: Node
    }

    public let root: Node

    public init(entity: String, keyPaths: [String], schema: StoreSchema) throws(ObjectGraphInputError) {
        let paths = keyPaths.map { $0.split(separator: ".").map(String.init) }
        root = try Self.node(entity, paths: paths, schema: schema, trail: entity)
    }

    /// Every node, depth first, the root first.
    public var nodes: [Node] {
        var result: [Node] = []
        func visit(_ node: Node) {
            result.append(node)
            node.edges.forEach { visit($0.destination) }
        }
        visit(root)
        return result
    }

    private static func node(_ name: String, paths: [[String]], schema: StoreSchema,
                             trail: String) throws(ObjectGraphInputError) -> Node {
        guard let entity = schema.model.entity(named: name), let mapping = schema.entity(named: name) else {
            let known = schema.model.entities.map(\.name).sorted().joined(separator: ", ")
            throw ObjectGraphInputError("the model has no entity '\(name)'; its entities: \(known)")
        }
        var names: [String] = []
        var columns: [String] = []
        for attribute in entity.attributes {
            guard let column = mapping.column(forAttributeAt: attribute.index) else { continue }
            if attribute.compositeIndex == nil { names.append(attribute.name) }
            columns.append(column)
        }
        var firstSteps: [String] = []
        var rests: [String: [[String]]] = [:]
        for path in paths {
            guard let step = path.first else { continue }
            if rests[step] == nil { firstSteps.append(step) }
            rests[step, default: []].append(Array(path.dropFirst()))
        }
        var edges: [Edge] = []
        for step in firstSteps {
            guard let relationship = entity.relationship(named: step) else {
                let known = entity.relationships.map(\.name).sorted().joined(separator: ", ")
                throw ObjectGraphInputError(
                    "\(trail): \(name) has no relationship '\(step)'; its relationships: \(known.isEmpty ? "none" : known)")
            }
            let storage = mapping.relationships[relationship.index]
            if case .transient = storage {
                throw ObjectGraphInputError("\(trail).\(step) is transient: nothing in the store to profile")
            }
            let destination = schema.model.entities[relationship.destinationEntityIndex].name
            edges.append(Edge(
                relationship: step, isToMany: relationship.isToMany, storage: storage, sourceTable: mapping.table,
                destination: try node(destination, paths: (rests[step] ?? []).filter { !$0.isEmpty },
                                      schema: schema, trail: "\(trail).\(step)")))
        }
        return Node(entity: name, mapping: mapping, attributeNames: names,
                    columns: columns, edges: edges)
    }
}
