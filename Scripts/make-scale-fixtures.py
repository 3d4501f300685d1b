#!/usr/bin/env python3
"""Writes the fixtures of `explore` at the scale of a long-lived app's history.

Each fixture has N steps over N versions (1.0, 1.1, ... 1.9, 2.0, ...: one step a version), about
5% of them failing once and 3% crashing once (chosen by a generator seeded with N, so the same N
always gives the same fixture), the policy runAll with giveUpAfter 2, and one history that launches
every 7th version. They live under Benchmarks/ScaleFixtures, not Fixtures/: CI explores everything
under Fixtures/ under all 18 policies, which these are too large for.

    python3 Scripts/make-scale-fixtures.py            # writes 20, 60, 150 and 300 steps
    python3 Scripts/make-scale-fixtures.py --check    # exit 1 if a written file differs
    python3 Scripts/make-scale-fixtures.py --steps 500 --output /tmp/big
"""

import argparse
import json
import os
import random
import sys

DEFAULT_STEPS = [20, 60, 150, 300]
DEFAULT_OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks", "ScaleFixtures")


def version(index):
    """The version of step `index`: 1.0, 1.1, ... 1.9, 2.0, ..."""
    return f"{1 + index // 10}.{index % 10}"


def fixture(steps):
    """The fixture of `steps` steps, as JSON text."""
    rng = random.Random(steps)
    chosen = rng.sample(range(steps), round(steps * 0.05) + round(steps * 0.03))
    failing = set(chosen[: round(steps * 0.05)])
    crashing = set(chosen[round(steps * 0.05) :])
    step_list = []
    for index in range(steps):
        step = {"version": version(index)}
        if index in failing:
            step["behavior"] = {"failTimes": 1}
        elif index in crashing:
            step["behavior"] = {"crashTimes": 1}
        step_list.append(step)
    versions = [version(index) for index in range(steps)]
    document = {
        "name": f"scale-{steps}-steps",
        "description": (
            f"{steps} steps over {steps} versions, {len(failing)} failing once and {len(crashing)} crashing once:"
            " the shape of a long-lived app's history, for explore's scale benchmarks"
            " (written by Scripts/make-scale-fixtures.py)"
        ),
        "policy": {"freshInstall": "runAll", "downgrade": "keep", "giveUpAfter": 2},
        "steps": step_list,
        "histories": [{"name": "every 7th version", "launches": versions[::7]}],
    }
    return json.dumps(document, indent=2) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, action="append", help="steps of a fixture (repeatable)")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="folder to write to")
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing")
    arguments = parser.parse_args()
    counts = arguments.steps or DEFAULT_STEPS
    for count in counts:
        if count < 1:
            parser.error(f"--steps {count}: expected a whole number of at least 1")
    if not arguments.check:
        os.makedirs(arguments.output, exist_ok=True)
    stale = []
    for count in counts:
        path = os.path.join(arguments.output, f"scale-{count}-steps.json")
        text = fixture(count)
        if arguments.check:
            try:
                with open(path, encoding="utf-8") as file:
                    if file.read() != text:
                        stale.append(path)
            except FileNotFoundError:
                stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
            print(f"wrote {os.path.relpath(path)}")
    if stale:
        for path in stale:
            print(f"error: {path} is not what Scripts/make-scale-fixtures.py writes; run it again", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
