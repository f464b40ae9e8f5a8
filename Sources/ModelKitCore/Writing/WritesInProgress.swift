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
        return list
    }

    /// Ends the writing of the object ``enter(_:schema:)`` marked last.
    // Usable from inline: called by the inlinable `encodeModelObject` when a class instance's writing ends.
    @usableFromInline
    package func leave() {
        objects.removeLast()
    }
}
