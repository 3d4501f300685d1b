import Foundation

@testable import UpgradeFixtures
@testable import UpgradeFleet

/// The hand-worked example of the fleet tests: a fixture, an installed base and release 2.0.
///
/// The build of 2.0 has a (1.1), b (1.2, added in 2.0), d (2.0), e (2.0, declared after d) and f
/// (2.1, above the release); c (1.5) was removed after 1.9. The installed base has 100 devices:
///
///     version  1.0  1.1  1.2  1.5  1.9  2.0  2.1
///     devices   10   20   30    5    0   15   20
///
/// Worked by hand from <doc:FleetView>:
/// - updating (d < 2.0): 10 + 20 + 30 + 5 + 0 = 65; current (d >= 2.0): 15 + 20 = 35; 65 + 35 = 100.
/// - steps in run order: a runs below 1.1: 10 (0.1); b below 1.2: 10 + 20 = 30 (0.3); d and e below
///   2.0: 65 (0.65) each. f (2.1 > 2.0) is not listed.
/// - per updating device: 1.0 runs a, b, d, e: 4 steps, 10 + 100 + 1000 + 0 = 1110 ms (weight 10);
///   1.1 runs b, d, e: 3, 1100 ms (20); 1.2 and 1.5 run d, e: 2, 1000 ms (30 + 5 = 35); 1.9 has no
///   devices and counts for nothing.
///   Steps: mean (4·10 + 3·20 + 2·35) / 65 = 170 / 65 = 2.615... (2.62); sorted 2 (35), 3 (20),
///   4 (10); median: the smallest v with weight(<= v) >= 32.5, i.e. 33: weight(<= 2) = 35, so 2;
///   p90: >= 58.5: 35, 55, 65, so 4; max 4.
///   Time: mean (1110·10 + 1100·20 + 1000·35) / 65 = 68100 / 65 = 1047.69...; sorted 1000 (35),
///   1100 (20), 1110 (10): median 1000, p90 1110, max 1110.
/// - candidate floors: 1.1 retires 1 (a), devices below 1.1: 10 (0.1); 1.2 retires 2, 30 (0.3);
///   2.0 retires 4 (a, b, d, e), 65 (0.65).
/// - lost: c (1.5, until 1.9 < 2.0), no floor: the devices below 1.5: 10 + 20 + 30 = 60 (0.6).
/// - late: b (1.2, since 2.0): the devices with 2.0 > d >= 1.2: 30 + 5 + 0 = 35 (0.35).
enum FleetSamples {
    static let fixture = """
        {
          "name": "fleet-example",
          "steps": [
            { "id": "a", "version": "1.1", "durationMs": 10 },
            { "id": "b", "version": "1.2", "since": "2.0", "durationMs": 100 },
            { "id": "c", "version": "1.5", "until": "1.9" },
            { "id": "d", "version": "2.0", "durationMs": 1000 },
            { "id": "e", "version": "2.0" },
            { "id": "f", "version": "2.1" }
          ],
          "histories": []
        }
        """

    static let installed = """
        version,devices
        # devices per version, hand-picked
        2.1,20
        1.0,10
        1.1,20

        1.2,30
        1.5,5
        1.9,0
        2.0,15
        """

    /// The same app with a floor at 1.5 from 2.0 on, instead of b: a and c end at 1.9.
    ///
    /// By hand: the build of 2.0 has the floor (1.5) and d (2.0). The floor runs below 1.5: 60 (0.6);
    /// d below 2.0: 65. Per updating device: 1.0, 1.1, 1.2 run the floor and d: 2 steps, 500 ms (weight
    /// 60); 1.5 runs d only: 1 step, 0 ms (5). Steps: mean (120 + 5) / 65 = 1.923 (1.92), median 2
    /// (weight(<= 1) = 5 < 33), p90 2, max 2. Time: mean 30000 / 65 = 461.538 (461.54), median 500,
    /// p90 500, max 500. Candidate floors: 2.0 only, retiring d, 65 devices. Lost: a (1.1) and c (1.5)
    /// both lie at or below the floor, so neither is lost. Late: none.
    static let floorFixture = """
        {
          "name": "fleet-floor",
          "steps": [
            { "id": "a", "version": "1.1", "until": "1.9" },
            { "id": "c", "version": "1.5", "until": "1.9" },
            { "id": "d", "version": "2.0" }
          ],
          "floor": { "version": "1.5", "since": "2.0", "durationMs": 500 },
          "histories": []
        }
        """

    static func report(
        fixture: String = fixture, installed: String = installed, release: String = "2.0"
    ) throws -> FleetReport {
        FleetReport(
            fixture: try FixtureLoader.decode(fixture, file: "fixture.json"),
            installed: try InstalledBase.parse(text: installed, file: "installed.csv"), release: .v(release))
    }
}
