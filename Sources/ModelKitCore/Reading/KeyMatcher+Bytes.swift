/// Raw access to a ``KeyMatcher``'s keys, for byte readers that compare a key where it lies in
/// their input instead of handing its bytes to the matcher (JSON tries the key it expects next
/// word by word before it hashes).
extension KeyMatcher {
    /// How many keys the matcher holds.
    // Inlinable: the JSON scanner (ModelKitJSON) reads it per key it expects, in its inlinable object loop; inlined,
    // one load.
    @inlinable
    package var keyCount: Int { count }

    /// The first of the UTF-8 bytes of key number `index` (below ``keyCount``).
    // Inlinable: per key the JSON scanner tries in place, one address computation. A raw pointer into the matcher's own
    // memory, which lives as long as the key tree holding it, so the scanner compares the key with the input's bytes
    // with no copy and no retain.
    @inlinable
    package func keyStart(at index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(bytes + starts[index])
    }

    /// The length of key number `index` (below ``keyCount``) when JSON writes it between quotes
    /// as it is, or -1 when it needs escaping (then a document's bytes cannot be compared with it).
    // Inlinable: per key the JSON scanner tries, with `keyStart`; inlined, one load.
    @inlinable
    package func verbatimLength(at index: Int) -> Int {
        verbatimLengths[index]
    }
}
