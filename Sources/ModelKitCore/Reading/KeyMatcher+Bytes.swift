/// Raw access to a ``KeyMatcher``'s keys, for byte readers that compare a key where it lies in
/// their input instead of handing its bytes to the matcher (JSON tries the key it expects next
/// word by word before it hashes).
extension KeyMatcher {
    /// How many keys the matcher holds.
    // Inlinable: the JSON scanner's `nextKeyIndex` (ModelKitJSON, another module) reads it per key it expects;
    // inlinable, it is one load there instead of a call into this module.
    @inlinable
    package var keyCount: Int { count }

    /// The first of the UTF-8 bytes of key number `index` (below ``keyCount``).
    // Inlinable: the JSON scanner's `nextKeyIndex` (another module) calls it per key it tries in place; inlined, one
    // address computation. A raw pointer into the matcher's own memory, which lives as long as the key tree the
    // scanner holds, so the key is compared with the input's bytes with no copy and no retain.
    @inlinable
    package func keyStart(at index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(bytes + starts[index])
    }

    /// The length of key number `index` (below ``keyCount``) when JSON writes it between quotes
    /// as it is, or -1 when it needs escaping (then a document's bytes cannot be compared with it).
    // Inlinable: called with `keyStart` by the JSON scanner's `nextKeyIndex` (another module), per key it tries;
    // inlined, one load.
    @inlinable
    package func verbatimLength(at index: Int) -> Int {
        verbatimLengths[index]
    }
}
