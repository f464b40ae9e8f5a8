/// Raw access to a ``KeyMatcher``'s keys, for byte readers that compare a key where it lies in
/// their input instead of handing its bytes to the matcher (JSON tries the key it expects next
/// word by word before it hashes).
extension KeyMatcher {
    /// How many keys the matcher holds.
    @inlinable
    package var keyCount: Int { count }

    /// The first of the UTF-8 bytes of key number `index` (below ``keyCount``).
    @inlinable
    package func keyStart(at index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(bytes + starts[index])
    }

    /// The length of key number `index` (below ``keyCount``) when JSON writes it between quotes
    /// as it is, or -1 when it needs escaping (then a document's bytes cannot be compared with it).
    @inlinable
    package func verbatimLength(at index: Int) -> Int {
        verbatimLengths[index]
    }
}
