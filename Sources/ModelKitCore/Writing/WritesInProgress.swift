internal import CModelKitRuntime

/// The class instances the current thread is writing, outermost first: a model graph that
/// reaches an instance again while writing it contains a cycle, which every writer but the
/// keyed archiver (which writes shared objects once) would follow without end.
///
/// Writing is synchronous, so the list lives with the thread; it holds object identities only.
// Usable from inline: the inlinable `encodeModelObject` enters and leaves the list for every class instance it writes.
@usableFromInline
package final class WritesInProgress {
    /// The objects, and their schemas, to tell a reference back through an inverse from any other
    /// cycle. Unretained: each object's writer holds it while it is in the list, and schemas
    /// live as long as the program.
    private var objects: [(object: Unmanaged<AnyObject>, schema: Unmanaged<ModelSchema>)] = []

    /// How many threads' lists are alive: a list is made on a thread's first class-model write
    /// and released when the thread exits.
    package static let liveLists = Locked(0)

    private init() { Self.liveLists.withLock { $0 += 1 } }
    deinit { Self.liveLists.withLock { $0 -= 1 } }

    /// The current thread's list, created on first use (released when the thread exits).
    private static var current: WritesInProgress {
        if let list = modelkit_writes_in_progress() {
            // The C slot keeps the list as an opaque pointer and owns one retain of it (taken below, released when
            // the thread exits): taken unretained, that retain stays with the slot.
            return Unmanaged<WritesInProgress>.fromOpaque(list).takeUnretainedValue()
        }
        let list = WritesInProgress()
        // The slot takes over one retain, which CModelKitRuntime's thread-exit destructor releases: the list lives as
        // long as the thread.
        modelkit_set_writes_in_progress(Unmanaged.passRetained(list).toOpaque())
        return list
    }

    /// Marks `object` (a model of schema `schema`) as being written by this thread; call
    /// ``leave()`` on the list returned when its writing ends. An object being written already
    /// is a cycle: nil when it is the reference back through an inverse (``isReferenceBack(_:)``,
    /// which the caller writes as null), an error otherwise.
    // Usable from inline: called by the inlinable `encodeModelObject` per class instance written.
    @usableFromInline
    package static func enter(_ object: AnyObject, schema: ModelSchema) throws -> WritesInProgress? {
        let list = current
        if list.contains(object) {
            if isReferenceBack(object) { return nil }
            throw ModelError(
                .invalidValue,
                expected: "a graph without cycles (make the reference back '@Transient', or archive the graph)",
                found: "a '\(schema.modelName)' that contains itself", model: schema.modelName)
        }
        list.objects.append((Unmanaged.passUnretained(object), Unmanaged.passUnretained(schema)))
        return list
    }

    /// Whether `object` is in the list.
    private func contains(_ object: AnyObject) -> Bool {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        return objects.contains { $0.object.toOpaque() == pointer }
    }

    /// Whether this thread is writing a class instance now (an array's elements may then refer
    /// back to one).
    // Usable from inline: asked by the inlinable `write` of arrays of class instances, once per array.
    @usableFromInline
    package static var isWriting: Bool {
        guard let slot = modelkit_writes_in_progress() else { return false }
        // The slot owns the list (see `current`); taken unretained for this look.
        return !Unmanaged<WritesInProgress>.fromOpaque(slot).takeUnretainedValue().objects.isEmpty
    }

    /// Whether `object`, which the object written last refers to, is being written already,
    /// through a relationship with an inverse of that object's (a comment's `post` inside its
    /// post's `comments`): the reference back that nesting implies, which optionals write as
    /// null and arrays leave out (reading the payload sets it again); any other cycle is still an
    /// error.
    // Usable from inline: asked by the inlinable `write` of optionals and arrays of class instances: a thread's slot
    // and a short list, and the inverses looked up only for an object already being written.
    @usableFromInline
    package static func isReferenceBack(_ object: AnyObject) -> Bool {
        guard let slot = modelkit_writes_in_progress() else { return false }
        // The slot owns the list (see `current`); taken unretained for this look.
        let list = Unmanaged<WritesInProgress>.fromOpaque(slot).takeUnretainedValue()
        guard list.contains(object), let last = list.objects.last else { return false }
        let owner = last.object.takeUnretainedValue()
        let schema = last.schema.takeUnretainedValue()
        return schema.properties.contains { property in
            guard ModelInverses.inverse(of: property.keyPath, in: schema) != nil,
                let value = (owner as Any)[keyPath: property.keyPath]
            else { return false }
            if let array = value as? [AnyObject] { return array.contains { $0 === object } }
            return (value as AnyObject) === object
        }
    }

    /// Ends the writing of the object ``enter(_:schema:)`` marked last.
    // Usable from inline: called by the inlinable `encodeModelObject` when a class instance's writing ends.
    @usableFromInline
    package func leave() {
        objects.removeLast()
    }
}
