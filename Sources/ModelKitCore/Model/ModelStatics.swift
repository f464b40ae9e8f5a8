/// The values a generic model keeps per specialisation: its schema, transformers, constraints.
///
/// Swift gives generic types no stored static properties, so `@Model` on a generic type
/// (`Page<Item>`) refers to each of these values through ``modelStatic(_:_:_:)``, which makes it
/// once per specialisation (`Page<User>`, `Page<Post>`) and keeps it here.
private let genericModelStatics = Locked<[GenericStaticKey: any Sendable]>([:])

private struct GenericStaticKey: Hashable {
    let type: ObjectIdentifier
    let name: String
}

/// The value named `name` of the model type `type`, made by `make` the first time it is asked
/// for; `@Model` generates calls to it for generic models (others keep such values in static
/// constants).
///
/// Made outside the lock: making a schema asks for the schemas of the models it holds, which may
/// be generic too.
public func modelStatic<T: Sendable>(_ type: Any.Type, _ name: String, _ make: () -> T) -> T {
    let key = GenericStaticKey(type: ObjectIdentifier(type), name: name)
    if let known = genericModelStatics.withLock({ $0[key] }) as? T { return known }
    let made = make()
    return genericModelStatics.withLock { statics in
        // Another thread may have made it meanwhile: the first one made is the one kept.
        if let known = statics[key] as? T { return known }
        statics[key] = made
        return made
    }
}

/// A generic model's transformer, for its schema (whose parameter is an existential): kept as
/// the transformer's own type, as the reads and writes that use it keep it.
public func modelStatic<T: ModelTransformer>(erasing type: Any.Type, _ name: String, _ make: () -> T) -> any Sendable {
    modelStatic(type, name, make)
}

/// A generic model's constraints, for its schema (whose parameter is an existential): kept as
/// their own type, as the reads that check them keep them.
public func modelStatic<V>(
    erasing type: Any.Type, _ name: String, _ make: () -> ModelPropertyConstraints<V>
) -> any AnyModelPropertyConstraints {
    modelStatic(type, name, make)
}
