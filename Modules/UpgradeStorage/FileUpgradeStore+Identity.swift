extension FileUpgradeStore {
    /// `file PATH`, with the document's standardized path: every file store on the same path (the
    /// same document, its lock and its history) is the same state, so that concurrent launches
    /// through them in one process are one launch rather than two that meet on the file's lock.
    ///
    /// Symbolic links in the folder's path are not resolved: two stores that reach one document by
    /// different paths still serialize on its lock, as two processes do.
    public var stateIdentity: String? { "file " + path }
}
