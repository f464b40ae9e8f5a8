internal import CModelKitRuntime

/// The class instances the current thread is writing, outermost first: a model graph that
/// reaches an instance again while writing it contains a cycle, which every writer but the
/// keyed archiver (which writes shared objects once) would follow without end.
///
/// Writing is synchronous, so the list lives with the thread; it holds object identities only.
// Usable from inline: the inlinable `encodeModelObject` enters and leaves the list for every class instance it writes.
@usableFromInline
package final class WritesInProgress {
    private var objects: [ObjectIdentifier] = []
    /// Per object, its schema and the field being written now (-1 before the first).
    private var schemas: [ModelSchema] = []
    private var fields: [Int] = []

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

    /// Marks `object` (a model of schema `schema`) as being written by this thread; throws when it
    /// already is. Call ``leave()`` on the list returned when its writing ends.
    // Usable from inline: called by the inlinable `encodeModelObject` per class instance written.
    @usableFromInline
    package static func enter(_ object: AnyObject, schema: ModelSchema) throws -> WritesInProgress {
        let identity = ObjectIdentifier(object)
        let list = current
        if list.objects.contains(identity) {
            throw ModelError(
                .invalidValue,
                expected: "a graph without cycles (make the reference back '@Transient', or archive the graph)",
                found: "a '\(schema.modelName)' that contains itself", model: schema.modelName)
        }
        list.objects.append(identity)
        list.schemas.append(schema)
        list.fields.append(-1)
        return list
    }

    /// Notes the field of the object entered last that is being written now.
    // Usable from inline: called by the inlinable walk per field of a class instance it writes, a store.
    @usableFromInline
    package func writing(field: Int) {
        fields[fields.count - 1] = field
    }

    /// Whether `object`, which a field of the object written last refers to, is being written
    /// already, through a relationship of which that field is the inverse (a comment's `post`
    /// inside its post's `comments`): the reference back that nesting implies, which optionals
    /// write as null and arrays leave out (reading the payload sets it again); any other cycle
    /// is still an error.
    // Usable from inline: asked by the inlinable `write` of optionals and arrays of class instances, a thread's slot
    // and a short list.
    @usableFromInline
    package static func isReferenceBack(_ object: AnyObject) -> Bool {
        guard let slot = modelkit_writes_in_progress() else { return false }
        // The slot owns the list (see `current`); taken unretained for this look.
        let list = Unmanaged<WritesInProgress>.fromOpaque(slot).takeUnretainedValue()
        guard let field = list.fields.last, field >= 0, list.objects.contains(ObjectIdentifier(object)),
            let schema = list.schemas.last, schema.properties.indices.contains(field)
        else { return false }
        return ModelInverses.inverse(of: schema.properties[field].keyPath, in: schema) != nil
    }

    /// Ends the writing of the object ``enter(_:schema:)`` marked last.
    // Usable from inline: called by the inlinable `encodeModelObject` when a class instance's writing ends.
    @usableFromInline
    package func leave() {
        objects.removeLast()
        schemas.removeLast()
        fields.removeLast()
    }
}
