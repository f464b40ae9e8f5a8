import Foundation
import ModelKitCore

/// The process-wide table of live storages, one per preferences file, so that every
/// ``Preferences`` instance for a file shares its values, pending writes and observers.
///
/// Entries are weak: a storage lives while an instance or an observation uses it. The table
/// also saves every storage's pending writes when the process exits normally (`exit`, or
/// returning from `main`), through an `atexit` handler installed with the first storage.
enum StorageRegistry {
    private struct Entry: Sendable {
        weak var storage: PreferencesStorage?
    }

    private static let entries = Locked<[String: Entry]>([:])

    /// Installs the exit handler, once.
    private static let exitHandler: Void = {
        atexit { StorageRegistry.saveAll() }
    }()

    /// The storage for the file at `path` (already normalized), made if there is none.
    static func storage(forPath path: String) -> PreferencesStorage {
        _ = exitHandler
        return entries.withLock { entries in
            if let storage = entries[path]?.storage { return storage }
            // Forget entries whose storage is gone before adding one.
            entries = entries.filter { $0.value.storage != nil }
            let storage = PreferencesStorage(file: PreferencesFile(path: path))
            entries[path] = Entry(storage: storage)
            return storage
        }
    }

    /// Saves the pending writes of every live storage; errors cannot be reported this late.
    static func saveAll() {
        let storages = entries.withLock { $0.values.compactMap(\.storage) }
        for storage in storages where storage.hasPendingWrites {
            try? storage.flush()
        }
    }

    /// A file URL as the registry's key: absolute, standardized, with symbolic links in the
    /// existing part of the path resolved, so different spellings of one file share a storage.
    /// A preferences file that is itself a symbolic link (into a dotfiles repository, say) is
    /// followed, so saves replace the file it points to and the link stays.
    static func normalizedPath(of url: URL) -> String {
        let absolute = url.standardizedFileURL
        let resolved = absolute.resolvingSymlinksInPath()
        if resolved.path != absolute.path { return resolved.path }
        let directory = absolute.deletingLastPathComponent().resolvingSymlinksInPath()
        return directory.appendingPathComponent(absolute.lastPathComponent).path
    }
}
