import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Registers an app's upgrade steps and runs the pending ones at launch, in version order, once.
///
/// An upgrader is a `Sendable` value, in the manner of GRDB's `DatabaseMigrator`: you register steps
/// on it, ask it what is pending or done, and ``run(currentVersion:)`` it at launch.
///
/// ```swift
/// let upgrader = Upgrader(store: store, policy: .init(giveUpAfter: 3)) {
///     UpgradeStep("8.8.8") { try removeLegacyCaches() }
///     UpgradeStep("9.0", id: "move-settings") { context in
///         try await migrateSettings(resuming: context.previousAttemptInterrupted)
///     }
/// }
/// let report = try await upgrader.run(currentVersion: "9.0.1")
/// ```
///
/// The upgrader takes its store, clock and observer as values. Concurrent launches of one store in
/// a process are one launch, whichever upgrader values they use (<doc:LaunchAlgorithm>, "One launch
/// per process"), and the store serializes launches across processes.
public struct Upgrader: Sendable {
    /// Where the upgrade state is kept.
    public let store: any UpgradeStore
    /// The fresh-install, downgrade and give-up choices.
    public var policy: UpgradePolicy
    /// Receives the events of each launch, for logging and metrics; `nil` by default.
    public var observer: UpgradeObserver?
    /// Tells the wall-clock time recorded in the launch history; the system's time by default.
    public var now: @Sendable () -> Date

    var catalog: StepCatalog
    /// Starts a stopwatch on the upgrader's clock: the closure it returns tells the time since.
    ///
    /// Read only when a launch has work: a launch with nothing to do reads no clock.
    let startStopwatch: @Sendable () -> @Sendable () -> Duration
    /// The identity of this upgrader and its copies, for a store that names none of its own.
    let instance: UpgraderInstance

    /// Creates an upgrader with steps from a builder closure, timing steps and launches on a
    /// `ContinuousClock`.
    ///
    /// - Parameters:
    ///   - store: Where the upgrade state is kept.
    ///   - policy: The fresh-install, downgrade and give-up choices; safe defaults.
    ///   - steps: The steps, in any order; equal versions run in the order given.
    /// - Throws: Whatever `steps` throws, such as an invalid step name.
    public init(
        store: any UpgradeStore, policy: UpgradePolicy = UpgradePolicy(),
        @UpgradeStepsBuilder steps: () throws -> [UpgradeStep]
    ) rethrows {
        self.init(
            store: store, policy: policy, startStopwatch: Self.continuousStopwatch, catalog: StepCatalog(try steps()))
    }

    /// Creates an upgrader with no steps yet, timing steps and launches on a `ContinuousClock`; add
    /// steps with ``register(_:)``.
    ///
    /// - Parameters:
    ///   - store: Where the upgrade state is kept.
    ///   - policy: The fresh-install, downgrade and give-up choices; safe defaults.
    public init(store: any UpgradeStore, policy: UpgradePolicy = UpgradePolicy()) {
        self.init(store: store, policy: policy, startStopwatch: Self.continuousStopwatch, catalog: StepCatalog())
    }

    /// Creates an upgrader with steps from a builder closure, timing steps and launches on `clock`.
    ///
    /// - Parameters:
    ///   - store: Where the upgrade state is kept.
    ///   - policy: The fresh-install, downgrade and give-up choices; safe defaults.
    ///   - clock: Measures step and launch durations, such as a test's manual clock.
    ///   - steps: The steps, in any order; equal versions run in the order given.
    /// - Throws: Whatever `steps` throws, such as an invalid step name.
    public init<C: Clock<Duration>>(
        store: any UpgradeStore, policy: UpgradePolicy = UpgradePolicy(), clock: C,
        @UpgradeStepsBuilder steps: () throws -> [UpgradeStep]
    ) rethrows {
        self.init(
            store: store, policy: policy, startStopwatch: Self.stopwatch(on: clock), catalog: StepCatalog(try steps()))
    }

    /// Creates an upgrader with no steps yet, timing steps and launches on `clock`; add steps with
    /// ``register(_:)``.
    ///
    /// - Parameters:
    ///   - store: Where the upgrade state is kept.
    ///   - policy: The fresh-install, downgrade and give-up choices; safe defaults.
    ///   - clock: Measures step and launch durations, such as a test's manual clock.
    public init<C: Clock<Duration>>(store: any UpgradeStore, policy: UpgradePolicy = UpgradePolicy(), clock: C) {
        self.init(store: store, policy: policy, startStopwatch: Self.stopwatch(on: clock), catalog: StepCatalog())
    }

    init(
        store: any UpgradeStore, policy: UpgradePolicy,
        startStopwatch: @escaping @Sendable () -> @Sendable () -> Duration, catalog: StepCatalog
    ) {
        self.store = store
        self.policy = policy
        self.observer = nil
        self.startStopwatch = startStopwatch
        self.now = Self.systemTime
        self.instance = UpgraderInstance()
        self.catalog = catalog
    }

    /// A stopwatch on any clock.
    static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> @Sendable () -> Duration {
        {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// The stopwatch of an upgrader made without a clock: `ContinuousClock`'s.
    @Sendable static func continuousStopwatch() -> @Sendable () -> Duration {
        let start = ContinuousClock.now
        return { start.duration(to: ContinuousClock.now) }
    }

    /// Registers one more step; equal versions run in the order they were registered.
    ///
    /// A step whose id is already registered is kept aside and reported by ``validate()``, ``run(currentVersion:)``
    /// and ``plan(currentVersion:)`` as a configuration error naming both declarations.
    ///
    /// - Parameter step: The step to add.
    public mutating func register(_ step: UpgradeStep) {
        catalog.insert(step)
    }

    /// The registered steps in run order: ascending version, registration order within a version.
    public var steps: [UpgradeStep] { catalog.steps }

    /// Checks the configuration: unique step ids, a valid policy, and at most one floor with no step
    /// at or below it.
    ///
    /// ``run(currentVersion:)`` and ``plan(currentVersion:)`` call this first, so that a mistake is
    /// reported before anything runs.
    ///
    /// - Throws: ``UpgradeError`` describing the first problem.
    public func validate() throws(UpgradeError) {
        if let (first, second) = catalog.duplicates.first {
            throw UpgradeError(
                code: .duplicateStepID,
                message:
                    "two steps have the id \"\(first.id)\": version \(first.version) declared at \(first.declaredAt)"
                    + " and version \(second.version) declared at \(second.declaredAt); give one of them another id")
        }
        if let limit = policy.giveUpAfter, limit < 1 {
            throw UpgradeError(
                code: .invalidPolicy, message: "giveUpAfter is \(limit); it must be at least 1, or nil to never give up"
            )
        }
        if !catalog.floors.isEmpty, let fault = catalog.floorFault() {
            throw UpgradeError(code: .invalidFloor, message: fault)
        }
    }
}
