extension Version {
    /// The prefix of a step name, `appUpgradeTo_`; it is matched without regard to case.
    public static let stepNamePrefix = "appUpgradeTo_"

    /// The step-name form of the version, such as `appUpgradeTo_8_8_8` for `8.8.8`.
    ///
    /// The name keeps the written number of components: `2.0` gives `appUpgradeTo_2_0`.
    public var stepName: String { name(prefix: "appUpgradeTo_") }

    /// A prefix, then the components as written, joined by `_`: `appUpgradeTo_8_8_8` for the prefix
    /// `appUpgradeTo_`.
    ///
    /// - Parameter prefix: The text before the first component.
    /// - Returns: The name.
    package func name(prefix: String) -> String {
        componentCount == 3 ? "\(prefix)\(major)_\(minor)_\(patch)" : "\(prefix)\(major)_\(minor)"
    }

    /// Reads the version from a step name such as `appUpgradeTo_8_8_8`, or returns `nil` when the
    /// name is not a step name.
    ///
    /// The name must be the whole of `appUpgradeTo_A_B` or `appUpgradeTo_A_B_C`, with the prefix in
    /// any case and the components under the rules of ``init(parsing:)``. `appUpgradeTo_1_2_3_4`,
    /// `xappUpgradeTo_1_2` and `appUpgradeTo_1` are not step names.
    ///
    /// - Parameter stepName: The name to read.
    @inlinable
    public init?(stepName: some StringProtocol) {
        guard case .success(let version) = VersionGrammar.parseStepName(stepName) else { return nil }
        self = version
    }

    /// Reads the version from a step name such as `appUpgradeTo_8_8_8`, throwing an error that says
    /// what is wrong.
    ///
    /// - Parameter stepName: The name to read.
    /// - Throws: ``VersionParseError`` naming the name, the offset and the fault.
    public init(parsingStepName stepName: some StringProtocol) throws(VersionParseError) {
        switch VersionGrammar.parseStepName(stepName) {
        case .success(let version): self = version
        case .failure(let fault): throw VersionParseError(input: String(stepName), form: .stepName, fault: fault)
        }
    }
}
