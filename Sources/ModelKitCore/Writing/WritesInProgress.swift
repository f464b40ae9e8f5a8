internal import CModelKitRuntime

/// The class instances the current thread is writing, outermost first: a model graph that
/// reaches an instance again while writing it contains a cycle, which every writer but the
/// keyed archiver (which writes shared objects once) would follow without end.
///
/// Writing is synchronous, so the list lives with the thread; it holds object identities only.
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
            return Unmanaged<WritesInProgress>.fromOpaque(list).takeUnretainedValue()
        }
        let list = WritesInProgress()
        modelkit_set_writes_in_progress(Unmanaged.passRetained(list).toOpaque())
        return list
    }

    /// Marks `object` (a model of schema `schema`) as being written by this thread; throws when it
    /// already is. Call ``leave()`` on the list returned when its writing ends.
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
    @usableFromInline
    package func leave() {
        objects.removeLast()
    }
}
