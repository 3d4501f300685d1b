extension String {
    /// Whether two step ids are equal: `==`, with the lengths compared first.
    ///
    /// The ids a launch compares are mostly either the very same string (which `==` settles at
    /// once) or different ids, which `==` settles only in the standard library's general comparison;
    /// different ids mostly differ in length, which this settles in a few instructions. `explore`
    /// compares ids millions of times a second.
    ///
    /// - Parameter other: The other id.
    /// - Returns: `true` when the ids are equal.
    @inlinable
    package func isSameStepID(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}
