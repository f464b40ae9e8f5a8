/// Raw access to a ``KeyMatcher``'s keys, for byte readers that compare a key where it lies in
/// their input instead of handing its bytes to the matcher (JSON tries the key it expects next
/// word by word before it hashes).
extension KeyMatcher {
    /// How many keys the matcher holds.
    @inlinable
    package var keyCount: Int { count }

    /// The UTF-8 bytes of key number `index` (which must be below ``keyCount``), valid while the
    /// matcher lives.
    @inlinable
    package func keyBytes(at index: Int) -> UnsafeRawBufferPointer {
        let start = starts[index]
        return UnsafeRawBufferPointer(start: bytes + start, count: starts[index &+ 1] &- start)
    }
}
