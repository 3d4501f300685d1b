import UpgradeCore

/// A location in a JSON document, such as the ``FixtureError/path`` of a fault in a fixture.
///
/// The type is UpgradeCore's ``/UpgradeCore/JSONPath``, which the package's one JSON reader tracks;
/// this name keeps `JSONPath` available to code that imports UpgradeSimulation alone.
public typealias JSONPath = UpgradeCore.JSONPath
