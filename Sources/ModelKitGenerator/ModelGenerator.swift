import ModelKitCore
import ModelKitJSON

/// Writes `@Model` declarations that map a sample JSON payload: `modelkit generate`.
///
/// One model per object shape: the root (an object, or the elements of an array of objects)
/// gets ``rootName``, nested objects and the elements of arrays of objects get names from their
/// keys (see ``TypeNamer``), properties get lowerCamelCase names from their keys with `@Key`
/// where the key strategy does not give the key back, and types follow ``TypeInference``. Objects
/// keyed by identifiers are dictionaries (``DictionaryDetection``), and collections of objects that
/// differ by a `type`-like key are `@Model(tag:)` enums (``TagDetection``). Several samples (the
/// lines of an NDJSON file, several files) merge as the elements of an array do. The output
/// depends only on the samples: models and properties come in order of first appearance.
///
/// ```swift
/// let source = try ModelGenerator(rootName: "Timeline").generate(fromJSON: data)
/// let samples = try NDJSONSamples.values(in: lines, source: "'events.ndjson'")
/// let merged = try ModelGenerator(rootName: "Event").generate(fromSamples: samples)
/// ```
package struct ModelGenerator: Sendable {
    /// The name of the top-level model.
    package var rootName: String

    /// A generator naming the top-level model `rootName`.
    package init(rootName: String = "Root") {
        self.rootName = rootName
    }

    /// The declarations for a JSON document in UTF-8 bytes.
    ///
    /// Throws ``JSONSyntaxError`` (or ``JSONValueError``) for a document that is not JSON, and
    /// ``GeneratorError`` for a bad root name or a top level that is not an object or an array of
    /// objects.
    package func generate(fromJSON bytes: some Collection<UInt8>) throws -> String {
        try generate(from: JSONValue(parsing: bytes))
    }

    /// The declarations for a parsed payload.
    package func generate(from payload: JSONValue) throws -> String {
        try generate(fromSamples: [payload])
    }

    /// The declarations for several samples of one payload (the lines of an NDJSON file, several
    /// files): each is observed into the same root, as the elements of a top-level array are, so
    /// that they merge into one declaration per shape.
    ///
    /// Throws ``GeneratorError`` for a bad root name, no samples, or a sample that is not an
    /// object or an array of objects.
    package func generate(fromSamples payloads: [JSONValue]) throws -> String {
        guard SwiftNames.isPlainIdentifier(rootName), SwiftNames.isUsableType(rootName) else {
            throw GeneratorError.invalidRootName(rootName)
        }
        guard !payloads.isEmpty else { throw GeneratorError.noSamples }
        let shape = ValueShape()
        for payload in payloads { try observeRoot(payload, into: shape) }
        guard let root = shape.object else { throw GeneratorError.unsupportedTopLevel("no object") }
        ShapeRefinement.refineRoot(root)
        var namer = TypeNamer(rootName: rootName)
        namer.name(root)
        let names = namer
        let inference = TypeInference(modelName: { names.modelName(of: $0) })
        var plans: [String: ModelPlan] = [:]
        for type in namer.types {
            guard let union = type.shape.union else {
                plans[type.name] = ModelPlan(name: type.name, shape: type.shape, inference: inference)
                continue
            }
            plans[type.name] = ModelPlan(
                name: type.name, isClass: false, usesSnakeCase: false, properties: [], skippedKeys: [],
                paths: type.shape.paths, enumeration: EnumPlan(union: union, modelName: names.modelName(of:)))
        }
        // The models of a union's cases are named after the union, so they are planned after it:
        // their comments say where the union is and which tag they hold.
        for type in namer.types {
            guard let union = type.shape.union else { continue }
            for variant in union.variants {
                guard let name = names.modelName(of: variant.shape) else { continue }
                plans[name]?.caseTag = ModelPlan.CaseTag(key: union.tagKey, value: variant.tag)
                plans[name]?.paths = type.shape.paths
            }
        }
        return SwiftSource.render(Self.reachable(from: rootName, in: plans))
    }

    /// Records the objects at the top level of one sample: the object, or every element of the array.
    private func observeRoot(_ payload: JSONValue, into shape: ValueShape) throws {
        try Self.checkTopLevel(payload)
        switch payload {
        case .array(let elements):
            for element in elements { shape.observe(element, path: "[]") }
        default:
            shape.observe(payload, path: "")
        }
    }

    /// Throws ``GeneratorError/unsupportedTopLevel(_:)`` unless `payload` is an object or a
    /// non-empty array of objects: what a sample must be.
    package static func checkTopLevel(_ payload: JSONValue) throws {
        switch payload {
        case .object:
            return
        case .array(let elements):
            guard !elements.isEmpty else { throw GeneratorError.unsupportedTopLevel("an empty array") }
            for element in elements {
                guard case .object = element else {
                    throw GeneratorError.unsupportedTopLevel("an array holding \(GeneratorError.kindName(element))")
                }
            }
        default:
            throw GeneratorError.unsupportedTopLevel(GeneratorError.kindName(payload))
        }
    }

    /// The plans the root model reaches, in the order a walk through their properties first meets
    /// them, each marked as a class when it holds itself through properties that are not arrays.
    static func reachable(from root: String, in plans: [String: ModelPlan]) -> [ModelPlan] {
        var order: [String] = []
        var seen: Set<String> = []
        func visit(_ name: String) {
            guard seen.insert(name).inserted, let plan = plans[name] else { return }
            order.append(name)
            for model in plan.referencedModels { visit(model) }
        }
        visit(root)
        return order.compactMap { name in
            guard var plan = plans[name] else { return nil }
            plan.isClass = holdsItself(name, in: plans)
            return plan
        }
    }

    /// Whether the model `name` reaches itself through properties that hold a model directly or
    /// as an optional: a struct cannot contain itself, a class can.
    static func holdsItself(_ name: String, in plans: [String: ModelPlan]) -> Bool {
        var stack = plans[name]?.directModels ?? []
        var seen: Set<String> = []
        while let next = stack.popLast() {
            if next == name { return true }
            guard seen.insert(next).inserted else { continue }
            stack += plans[next]?.directModels ?? []
        }
        return false
    }
}

/// A payload or an option `modelkit generate` cannot work with.
package enum GeneratorError: Error, Equatable, CustomStringConvertible {
    /// The top level is not an object or a non-empty array of objects; carries what it is.
    case unsupportedTopLevel(String)
    /// The root type name is not a plain Swift identifier, or one the generated code needs.
    case invalidRootName(String)
    /// No sample to generate from: no payload, or an NDJSON input without a line.
    case noSamples
    /// A line of an NDJSON input is not JSON, or not a sample (an object or an array of objects):
    /// where the input came from (`'events.ndjson'`, `standard input`), the 1-based line, and why.
    case invalidLine(source: String, line: Int, reason: String)

    package var description: String {
        switch self {
        case .unsupportedTopLevel(let found):
            return "cannot generate models from \(found): the top level must be an object or an array of objects"
        case .invalidRootName(let name):
            return "invalid root type name '\(name)': use letters, digits and underscores, not starting with a digit, "
                + "and not a keyword or a standard type"
        case .noSamples:
            return "cannot generate models from no samples: give at least one JSON value"
        case .invalidLine(let source, let line, let reason):
            return "\(source), line \(line): \(reason)"
        }
    }

    /// `a string`, `an array`, ... for a value.
    static func kindName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double, .decimal: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
