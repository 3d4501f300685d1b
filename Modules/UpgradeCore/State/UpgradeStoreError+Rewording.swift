extension UpgradeStoreError {
    /// How a document error's detail ends when the store leaves the document alone.
    package static let leftAsItIs = "; it is left as it is"

    /// The detail without the ``leftAsItIs`` ending, for a caller that says itself what became of
    /// the document (moved aside, or not written over).
    package var problem: String {
        detail.hasSuffix(Self.leftAsItIs) ? String(detail.dropLast(Self.leftAsItIs.count)) : detail
    }

    /// The same error with another ending after ``problem``, such as "; the new state was not
    /// written over it".
    ///
    /// - Parameter ending: The text that replaces the ``leftAsItIs`` ending (or is added).
    /// - Returns: The error with its code, location and underlying error, and the new detail.
    package func reworded(ending: String) -> UpgradeStoreError {
        UpgradeStoreError(code: code, location: location, detail: problem + ending, underlying: underlying)
    }
}
