/// The rules every reader applies to each field it finds, in one place: null policy, fallback
/// key priority, naming the model and property in errors, paths, and collect-all mode.
extension ModelReader {
    /// Decodes the field of `leaf` at the current value.
    ///
    /// Returns false when the value was not consumed (a better fallback key already supplied
    /// the field, or `null` counts as missing), so a streaming reader skips it.
    // Inlinable: the key-tree walk calls it for every field it finds, and the archive and store readers for theirs;
    // specialised with them for the concrete reader and fields struct, the generated `decodeField` is a direct call.
    @inlinable
    public mutating func decodeLeaf<F: ModelFieldDecoder>(
        _ leaf: ModelKeyLeaf, of schema: ModelSchema, into fields: inout F, priorities: inout FieldPriorities
    ) throws -> Bool {
        if !priorities.accepts(leaf) { return false }
        if leaf.nullUsesDefault, try decodeNil() { return true }
        let mark = collectedProblems.count
        defer { if collectedProblems.count > mark { nameProblems(since: mark, field: leaf.field, of: schema) } }
        if flags.collectsAllErrors {
            let result = try recover { reader in
                try reader.decodeNamedField(leaf.field, of: schema, into: &fields)
            }
            if case .failure(let error) = result { record(error) }
        } else {
            try decodeNamedField(leaf.field, of: schema, into: &fields)
        }
        return true
    }

    /// Runs the generated decoder of property `field`, naming the model and property in what it
    /// throws (through ``fieldError(_:field:of:)`` for errors that are not ``ModelError``s).
    //
    // Inlinable: runs every field's generated decoder (from `decodeLeaf` and the archive reader),
    // per field; specialised with its caller. Always inlined: a reader's own loop that does not
    // know the field decoder's type (the archive's plain fields, reached through a type found at
    // run time) would otherwise call the copy generic over the reader too, every read through
    // the reader's witnesses.
    @inlinable @inline(__always)
    public mutating func decodeNamedField<F: ModelFieldDecoder>(
        _ field: Int, of schema: ModelSchema, into fields: inout F
    ) throws {
        try namingFieldErrors(field, of: schema) { try fields.decodeField(field, from: &$0) }
    }

    /// Runs `body`, which decodes property `field` of `schema`, naming the model and property in
    /// what it throws: the one place readers name a field's errors (``decodeNamedField(_:of:into:)``
    /// for a field decoder, a format's own loops for a model set in place).
    // Inlinable and always inlined: it wraps every field's decode (through `decodeNamedField`),
    // so its closure folds into the caller's specialisation.
    @inlinable @inline(__always)
    public mutating func namingFieldErrors<T>(
        _ field: Int, of schema: ModelSchema, _ body: (inout Self) throws -> T
    ) throws -> T {
        do {
            return try body(&self)
        } catch let error as ModelError {
            throw error.naming(model: schema.modelName, property: schema.propertyName(at: field))
        } catch {
            throw fieldError(error, field: field, of: schema)
        }
    }

    /// The default of ``ModelReader/fieldError(_:field:of:)``: a ``ModelError`` naming the
    /// model and property, of code `.malformedInput` for a format's ``MalformedInputError``.
    public func fieldError(_ error: any Error, field: Int, of schema: ModelSchema) -> any Error {
        ModelError(
            error is MalformedInputError ? .malformedInput : .invalidValue, model: schema.modelName,
            property: schema.propertyName(at: field), underlying: error)
    }

    /// Runs `body` one level down the payload: errors thrown or collected inside get
    /// `component` in front of their path.
    // Inlinable: the walk and the readers' containers go one level down through it per key path segment, element or
    // member; specialised with them, `body` is inlined rather than called through a closure.
    @inlinable
    public mutating func withPathComponent<T>(
        _ component: @autoclosure () -> ModelPath.Component, _ body: (inout Self) throws -> T
    ) throws -> T {
        let mark = collectedProblems.count
        do {
            let result = try body(&self)
            if collectedProblems.count > mark { prefixProblems(since: mark, with: component()) }
            return result
        } catch let error as ModelError {
            if collectedProblems.count > mark { prefixProblems(since: mark, with: component()) }
            throw error.prefixed(by: component())
        }
    }

    /// Names the model and property `field` in the problems collected since `mark` (what
    /// ``decodeLeaf(_:of:into:priorities:)`` does after a field; public for readers that decode
    /// plain fields without it).
    public mutating func nameProblems(since mark: Int, field: Int, of schema: ModelSchema) {
        let property = schema.propertyName(at: field)
        for index in mark..<collectedProblems.count {
            collectedProblems[index] = collectedProblems[index].naming(model: schema.modelName, property: property)
        }
    }

    /// Puts `component` in front of the paths of the problems collected since `mark` (what
    /// ``withPathComponent(_:_:)`` does; public for readers that go one level down without it).
    public mutating func prefixProblems(since mark: Int, with component: ModelPath.Component) {
        for index in mark..<collectedProblems.count {
            collectedProblems[index] = collectedProblems[index].prefixed(by: component)
        }
    }

    /// Records a problem in collect-all mode, leaving out one already covered: a missing value
    /// whose path (or a path below it) already has a problem.
    public mutating func record(_ error: ModelError) {
        for problem in error.allProblems where problem.recovery == nil {
            let covered = collectedProblems.contains { existing in
                if problem.kind == .missingValue {
                    return existing.path.components.starts(with: problem.path.components)
                }
                return existing.path == problem.path && existing.modelName == problem.modelName
                    && existing.propertyName == problem.propertyName
            }
            if !covered { collectedProblems.append(problem) }
        }
    }

    /// Goes on past `error`, a value of a property with `@Key(onError: .useDefault)`: the
    /// property keeps its default, and the error goes to the report once reading ends (its
    /// path and names fill in as reading returns, as a thrown error's would).
    public mutating func useDefault(after error: ModelError) {
        collectedProblems.append(error.recovered(as: .defaultedValue))
    }

    /// Throws `error`, what a model's initializer threw, together with the problems collected
    /// before it in collect-all mode (a required property left empty by a value that failed is
    /// then that value's problem, not a missing key).
    public mutating func throwProblems(after error: any Error) throws -> Never {
        if let error = error as? ModelError, collectedProblems.contains(where: { $0.recovery == nil }) {
            record(error)
            try throwCollectedProblems(model: nil)
        }
        throw error
    }

    /// Hands dropped elements and defaulted values to the report and throws the problems
    /// collected in collect-all mode, if there are any.
    public mutating func throwCollectedProblems(model: String?) throws {
        let problems = collectedProblems.filter { $0.recovery == nil }
        for recovered in collectedProblems {
            switch recovered.recovery {
            case .droppedElement?: options.report?.recordDroppedElement(recovered)
            case .defaultedValue?: options.report?.recordDefaultedValue(recovered)
            case nil: break
            }
        }
        collectedProblems = []
        guard !problems.isEmpty else { return }
        if problems.count == 1 { throw problems[0] }
        throw ModelError(.multiple, model: model, problems: problems)
    }
}

/// Which fallback key supplied each field so far, for models whose properties have several
/// remote key paths (the first present path wins, whatever the order in the payload).
public struct FieldPriorities {
    // Usable from inline: read and written by the inlinable `init` and `accepts(_:)` below.
    @usableFromInline var best: [Int]?

    /// Priorities for reading an object of `schema` with the key tree `keys`.
    // Inlinable: made once per object read by the walk (`decodeFieldsByKeyTree`) and the archive and store readers;
    // inlined, a tree without fallbacks costs one nil.
    @inlinable
    public init(schema: ModelSchema, keys: ModelKeyNode) {
        best = keys.hasFallbacks ? Array(repeating: Int.max, count: schema.properties.count) : nil
    }

    /// Whether `leaf` should be decoded: no value from a better path has been seen.
    // Inlinable: asked by `decodeLeaf` for every field, per object; inlined, a schema without fallbacks costs one nil
    // test.
    @inlinable
    public mutating func accepts(_ leaf: ModelKeyLeaf) -> Bool {
        guard best != nil else { return true }
        if leaf.priority >= best![leaf.field] { return false }
        best![leaf.field] = leaf.priority
        return true
    }
}

extension ModelReader {
    /// Reads one array element one level down the path; in collect-all mode a failing element
    /// is recorded and skipped (nil).
    // Inlinable: the tree and Codable readers' `decodeArray` and the JSON bytes and archive readers call it per
    // element; specialised with them, `body` is inlined.
    @inlinable
    public mutating func decodeElement<T>(at index: Int, _ body: (inout Self) throws -> T) throws -> T? {
        try decodeNested(.index(index), body)
    }

    /// Reads one dictionary member one level down the path (see ``decodeElement(at:_:)``).
    // Inlinable: the readers' `decodeDictionary` call it per member; specialised with them like `decodeElement`.
    @inlinable
    public mutating func decodeMember<T>(_ key: String, _ body: (inout Self) throws -> T) throws -> T? {
        try decodeNested(.key(key), body)
    }

    /// Reads the value at `component`, one level down the path; in collect-all mode a failure
    /// is recorded and the value skipped (nil).
    // Inlinable: the shared body of `decodeElement` and `decodeMember` (inlinable), per element or member.
    @inlinable
    mutating func decodeNested<T>(_ component: ModelPath.Component, _ body: (inout Self) throws -> T) throws -> T? {
        try withPathComponent(component) { reader in
            guard reader.flags.collectsAllErrors else { return try body(&reader) }
            switch try reader.recover(body) {
            case .success(let value): return value
            case .failure(let error):
                reader.record(error)
                return nil
            }
        }
    }
}

/// The error for an array index in a key path past the end of the array.
// Usable from inline: the error the inlinable `walkNested` throws for an index past the end of an array, left out of
// line.
@usableFromInline
package func outOfRange(_ index: Int, count: Int, _ edge: ModelKeyEdge, _ schema: ModelSchema) -> ModelError {
    var field: Int?
    var pending = [edge]
    while field == nil, let next = pending.popLast() {
        field = next.leaves.first(where: \.isRequired)?.field
        pending += next.node?.edges.filter(\.leadsToRequiredField) ?? []
    }
    return ModelError(
        .indexOutOfRange, expected: "an element at index \(index)",
        found: "an array of \(count) element\(count == 1 ? "" : "s")", model: schema.modelName,
        property: field.flatMap(schema.propertyName(at:)))
}
