#!/usr/bin/env python3
"""The power-cut tests: real launches on the power-cut file system, cut at every mutating operation.

Usage: run.py --mount DIR --control SOCKET --binary UPGRADE_SIM [options]

Scripts/power-cut-tests.sh mounts the file system (powercutfs.py) and runs this; run it yourself
only with a file system already mounted (see README.md beside this file).

For each durability level and each scenario (launches at 1.10 that run 1, 3 and 10 of the fixture's ten
steps: after a first launch at 1.9, after one at 1.7, and a fresh install), a first launch learns how many mutating
operations the launch makes (M). Then, for each N from 1 to M + 1 and each cut mode (powercutfs.py
says what each lets survive; by default lose, names and mixed, and also torn at power-loss and all
at app-kill; mixed
three times, with three seeds): the file system is emptied (and the update's first launch at 1.2 made and flushed), armed to cut at the
N-th operation (M + 1: just after the launch ended), the launch runs and the power goes off under
it, the power comes back on with what survived, the state file is read as it is, and a second
launch at 1.4 runs normally. Then:

The state after the cut is read as the store reads it: the last valid record of the journal of the
highest generation that has one (the power-loss level's writes), else the document.

power-loss, the default level (every check):
  - the second launch reads the state without an error: exit 0, the mark at 1.4 and every step
    done; the state is missing only when no write had returned before the cut;
  - the state found is the last write that returned (or a later one that was renamed in place),
    byte for byte: never a half state, never an older one;
  - no step whose completion a returned write recorded runs again;
  - at most one step runs twice: the last one the journal shows finished (whose completion was
    being written);
  - the mark never goes back.
app-kill: the state found is one of what the store's documentation promises, and the second launch
  does what it says: none (a fresh install: exit 0, every step runs), a state some write wrote or the
  one before the launch (exit 0, exactly the steps that state leaves pending run), or an empty or
  unreadable file (exit 2, an error naming the file, which is left as it is). Nothing else.
Both: the history may lose some or all of its records, never the launch: a second launch that
  wrote the state recorded itself, and no temporary file of the killed launch is left after a second
  launch that took the lock (an up-to-date launch takes none, and leaves them to the next that does).

The mutation check (--mutation journal|folder|torn-check): the launches skip the journal's flush of
each write, the folder's flush of a new journal, or the reader's check of a journal's last record
(UPGRADE_SIM_TEST_SKIP_FLUSH, read only by `upgrade-sim launch`), and the power-loss checks (cut mode
lose; torn for the torn-record check) must break at some cut; it passes only if they do.

Ends with the line 'power-cut: N passed, N failed' (each cut is one test, each mutation check one).
Exit status: 0 all passed, 1 some failed, 2 the harness itself failed (the file system or a launch
misbehaved in a way no check covers).
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

STATE = "app/state.json"  # inside the mount; its folder is created by the first launch
HISTORY = STATE + ".history.jsonl"
JOURNALS = [STATE + ".journal-0", STATE + ".journal-1"]  # the power-loss level's records
TARGET = "1.10"
SCENARIOS = {
    # name: (description, version of a first launch made and flushed before the cut one, or None)
    "one": ("update 1.9 to 1.10 (1 step)", "1.9"),
    "three": ("update 1.7 to 1.10 (3 steps)", "1.7"),
    "ten": ("fresh install at 1.10 (10 steps)", None),
}
DEFAULT_MODES = {"power-loss": ["lose", "names", "torn", "mixed"], "app-kill": ["lose", "names", "all", "mixed"]}
# The mutation checks: what the launches skip (UPGRADE_SIM_TEST_SKIP_FLUSH), and the cut mode in which
# the power-loss checks must then break.
MUTATIONS = {"journal": "lose", "folder": "lose", "torn-check": "torn"}


def fnv1a64(data, start=0xCBF29CE484222325):
    """The journal's checksum (StateJournal.swift): FNV-1a's steps a little-endian 64-bit word at a
    time, the last bytes one by one."""
    value, whole = start, len(data) - len(data) % 8
    for offset in range(0, whole, 8):
        value = ((value ^ int.from_bytes(data[offset:offset + 8], "little")) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    for byte in data[whole:]:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def journal_records(data):
    """A journal's generation and its valid records' payloads, as the store reads them (StateJournal.swift):
    a header (AUJ1, generation, checksum), then records (length, payload, length, checksum of generation
    and payload) up to the first that is not whole and valid. (None, []) when the header is not valid."""
    if data is None or len(data) < 16 or data[:4] != b"AUJ1":
        return None, []
    if fnv1a64(data[:12]) & 0xFFFFFFFF != int.from_bytes(data[12:16], "little"):
        return None, []
    generation = int.from_bytes(data[4:12], "little")
    seed = fnv1a64(data[4:12])
    payloads, start = [], 16
    while len(data) - start >= 16:
        length = int.from_bytes(data[start:start + 4], "little")
        end = start + length + 16
        if end > len(data):
            break
        payload = data[start + 4:start + 4 + length]
        if (int.from_bytes(data[start + 4 + length:start + 8 + length], "little") != length
                or int.from_bytes(data[end - 8:end], "little") != fnv1a64(payload, seed)):
            break
        payloads.append(payload)
        start = end
    return generation, payloads


def record_payloads(data):
    """The payloads of the whole records in bytes written to a journal (a header first at offset 0)."""
    payloads, start = [], 0
    while len(data) - start >= 16:
        length = int.from_bytes(data[start:start + 4], "little")
        payloads.append(data[start + 4:start + 4 + length])
        start += length + 16
    return payloads


class HarnessError(Exception):
    """Something no check covers went wrong: the file system or the tool misbehaved."""


def version_key(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


class Rig:
    """The mounted file system, the tool and the fixture."""

    def __init__(self, arguments):
        self.mount = os.path.abspath(arguments.mount)
        self.control_path = arguments.control
        self.binary = os.path.abspath(arguments.binary)
        self.fixture = os.path.abspath(arguments.fixture)
        with open(self.fixture) as file:
            fixture = json.load(file)
        self.steps = [(step.get("id") or "appUpgradeTo_" + step["version"].replace(".", "_"), step["version"])
                      for step in fixture["steps"]]
        self.work = tempfile.mkdtemp(prefix="power-cut-journals-")  # an ordinary disk, not the mount
        self.skip_flush = None  # the mutation check sets it
        self.launches = 0

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def control(self, command, **fields):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.settimeout(30)
        try:
            connection.connect(self.control_path)
            connection.sendall((json.dumps({"cmd": command, **fields}) + "\n").encode())
            answer = json.loads(connection.makefile("rb").readline())
        finally:
            connection.close()
        if not answer.pop("ok"):
            raise HarnessError(f"the file system refused {command}: {answer.get('error')}")
        return answer

    @property
    def state_path(self):
        return os.path.join(self.mount, STATE)

    def launch(self, version, durability, journal):
        """One `upgrade-sim launch`; returns (exit status, output JSON or None, standard error)."""
        environment = dict(os.environ)
        environment.pop("UPGRADE_SIM_TEST_SKIP_FLUSH", None)
        if self.skip_flush:
            environment["UPGRADE_SIM_TEST_SKIP_FLUSH"] = self.skip_flush
        command = [self.binary, "launch", "--fixture", self.fixture, "--store", self.state_path,
                   "--version", version, "--durability", durability, "--journal", journal]
        self.launches += 1
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment)
        except subprocess.TimeoutExpired:
            raise HarnessError(f"a launch at {version} took more than 60 s: {' '.join(command)}")
        output = None
        if done.returncode == 0:
            try:
                output = json.loads(done.stdout)
            except ValueError:
                raise HarnessError(f"a launch printed no JSON: {done.stdout!r} {done.stderr!r}")
        # Without the mutation check's notice, which every launch prints then.
        errors = [line for line in done.stderr.splitlines()
                  if line.strip() and not line.startswith("upgrade-sim: UPGRADE_SIM_TEST_SKIP_FLUSH=")]
        return done.returncode, output, " / ".join(errors)

    def journal(self, name):
        path = os.path.join(self.work, name)
        if os.path.exists(path):
            os.unlink(path)
        return path

    def read_journal(self, path):
        if not os.path.exists(path):
            return []
        with open(path) as file:
            return [line.split()[0] for line in file if line.strip()]

    def stored(self):
        """The state as the store reads it: the last valid record of the journal of the highest
        generation that has one, else the document; None when there is neither."""
        best = None
        for journal in JOURNALS:
            generation, payloads = journal_records(self.read(journal))
            if payloads and (best is None or generation > best[0]):
                best = (generation, payloads[-1])
        return best[1] if best else self.read(STATE)

    def read(self, relative):
        """A file on the mount as it is: bytes, or None when missing."""
        try:
            with open(os.path.join(self.mount, relative), "rb") as file:
                return file.read()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise HarnessError(f"reading {relative} after power-on failed: {error}")

    def listing(self, relative):
        try:
            return sorted(os.listdir(os.path.join(self.mount, relative)))
        except FileNotFoundError:
            return []

    def prepare(self, scenario, durability):
        """An empty file system, and the scenario's first launch made and flushed; returns what the
        cut launch starts from: (state bytes or None, journal lines)."""
        self.control("reset")
        first = SCENARIOS[scenario][1]
        if first is None:
            return None, []
        journal = self.journal("first")
        status, output, error = self.launch(first, durability, journal)
        if status != 0:
            raise HarnessError(f"the first launch at {first} failed: exit {status}: {error}")
        self.control("sync")
        return self.stored(), self.read_journal(journal)


def parse_state(data):
    """A state document as the checks need it, or None when it is not one."""
    try:
        document = json.loads(data.decode("utf-8"))
        return {
            "completed": [entry["id"] for entry in document["completed"]],
            "abandoned": [entry["id"] for entry in document["abandoned"]],
            "upgradedThrough": document["upgradedThrough"],
            "inProgress": document["inProgress"],
        }
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def done_in(rig, state):
    """The ids a state records as done: completed, abandoned, or at or below its mark."""
    if state is None:
        return set()
    mark = state["upgradedThrough"]
    done = set(state["completed"]) | set(state["abandoned"])
    if mark is not None:
        done |= {step for step, version in rig.steps if version_key(version) <= version_key(mark)}
    return done


def pending(rig, state):
    """The steps a launch at TARGET runs from a state (runAll: all of them without one), in order."""
    done = done_in(rig, state)
    return [step for step, version in rig.steps
            if version_key(version) <= version_key(TARGET) and step not in done]


class Case:
    """One cut: what happened, and the faults found."""

    def __init__(self, level, scenario, mode, at):
        self.level, self.scenario, self.mode, self.at = level, scenario, mode, at
        self.faults = []
        self.facts = []
        self.found = None  # what the state was after the cut, for the tally
        self.history_lost = False

    def fail(self, message):
        self.faults.append(message)

    def describe(self, operation):
        where = f"op {self.at}" + (f" ({operation})" if operation else " (after the launch ended)")
        return f"{self.level}, {SCENARIOS[self.scenario][0]}, mode {self.mode}, cut at {where}"


def operation_text(entry):
    if entry is None:
        return None
    text = f"{entry['op']} {entry.get('path', '')}"
    if "to" in entry:
        text += f" -> {entry['to']}"
    return text


def learn(rig, level, scenario):
    """Runs the launch once, uncut: its operations in order."""
    rig.prepare(scenario, level)
    rig.control("arm", at=None)
    status, output, error = rig.launch(TARGET, level, rig.journal("learn"))
    if status != 0 or output is None or output["upgradedThrough"] != TARGET:
        raise HarnessError(f"an uncut launch at {TARGET} did not upgrade: exit {status}: {output} {error}")
    log = rig.control("log")["log"]
    if not log:
        raise HarnessError("the launch made no operation on the mount")
    return log


def run_case(rig, level, scenario, mode, at, learned):
    case = Case(level, scenario, mode, at)
    folder = "/" + os.path.dirname(STATE)
    before, first_journal = rig.prepare(scenario, level)
    rig.control("arm", at=at, mode=mode, kill=True)
    cut_journal = rig.journal("cut")
    status, output, error = rig.launch(TARGET, level, cut_journal)
    cut = rig.control("status")["cut"]
    if at <= len(learned):
        if cut is None:
            raise HarnessError(
                f"{case.describe(operation_text(learned[at - 1]))}: the launch ended (exit {status}) before"
                f" its {at}th operation; the uncut launch made {len(learned)}")
        if status != -9:
            case.fail(f"the launch cut at op {at} was not killed by the cut (exit {status}: {error})")
    else:
        if cut is not None:
            raise HarnessError(f"{case.describe(None)}: the launch made more operations than the uncut one")
        if status != 0:
            case.fail(f"the launch that nothing cut failed: exit {status}: {error}")
        rig.control("cut", mode=mode)
    log = rig.control("log")["log"]
    rig.control("power-on")

    # The writes of the state before the cut, in order, and whether each had returned: its last
    # operation came before the cut. A write is a record written to a journal (one or more write
    # operations), then at the power-loss level its flush and, for a new journal, the folder's. (The
    # document is the state's copy, rewritten at the launch's last write: not a write of its own.)
    writes = []
    journals = ["/" + journal for journal in JOURNALS]
    index = 0
    while index < len(log):
        entry = log[index]
        if entry["op"] == "write" and entry.get("path") in journals:
            written = b""
            while (index < len(log) and log[index]["op"] == "write" and log[index].get("path") == entry["path"]
                   and log[index].get("data") is not None):
                written += base64.b64decode(log[index]["data"])
                index += 1
            end = log[index - 1]["n"]
            for following in learned[end:end + 2]:
                if (following["op"] == "fsync" and following.get("path") == entry["path"]) or (
                        following["op"] == "fsyncdir" and following.get("path") == folder):
                    end = following["n"]
                else:
                    break
            if entry.get("offset") == 0:
                written = written[16:]  # the header of a new generation
            for payload in record_payloads(written):
                writes.append({"n": entry["n"], "data": payload.decode("utf-8", "replace"), "returned": end < at})
            continue
        index += 1
    returned = [write for write in writes if write["returned"]]
    finished = rig.read_journal(cut_journal)

    found = rig.stored()
    found_state = parse_state(found) if found is not None else None
    candidates = [("the state before the launch", before)] if before is not None else []
    candidates += [(f"write {index + 1} (op {write['n']})",
                    write["data"].encode() if write["data"] is not None else None)
                   for index, write in enumerate(writes)]
    which = None
    if found is None:
        which = case.found = "none"
    else:
        for index, (name, data) in enumerate(candidates):
            if data == found:
                which = name
                case.found = "the newest write" if index == len(candidates) - 1 and writes else (
                    "the state before the launch" if index == 0 and before is not None else "an older write")
        if which is None:
            which = case.found = ("an empty file" if not found else
                                  "an unreadable file" if found_state is None else "a state no write wrote")
    case.facts.append(f"found {which}")

    # The history as the cut left it: the records the launches had appended before it, or fewer.
    history = rig.read(HISTORY)
    kept = len([line for line in (history or b"").split(b"\n")[:-1] if line.strip()])
    appended = (1 if before is not None else 0) + sum(
        1 for entry in log if entry["op"] == "write" and entry.get("path") == "/" + HISTORY)
    case.history_lost = kept < appended
    if kept > appended:
        case.fail(f"the history holds {kept} records after the cut; the launches appended {appended}")
    case.facts.append(f"history {kept} of {appended} records")

    after_journal = rig.journal("after")
    after_status, after, after_error = rig.launch(TARGET, level, after_journal)
    reran = rig.read_journal(after_journal)
    case.facts.append(f"next launch exit {after_status}" + (f", ran {after['ran']}" if after else ""))

    def check_next_launch_follows(state):
        if after_status != 0:
            case.fail(f"the next launch failed (exit {after_status}): {after_error}")
            return
        if after["upgradedThrough"] != TARGET:
            case.fail(f"the next launch left the mark at {after['upgradedThrough']}, not {TARGET}")
        if after["ran"] != pending(rig, state):
            case.fail(f"the next launch ran {after['ran']}; the state it found leaves {pending(rig, state)} pending")

    if level == "power-loss":
        last = returned[-1] if returned else None
        last_state = parse_state(last["data"].encode()) if last and last["data"] is not None else None
        last_name = f"write {writes.index(last) + 1} (op {last['n']})" if last else "the state before the launch"
        if found is None:
            if before is not None or last is not None:
                case.fail(f"the state is missing after the cut, but {last_name} had made it durable")
        elif found_state is None:
            case.fail(f"the state after the cut is {which} ({len(found)} bytes), not a state")
        else:
            # Never older than the last write that returned: it or a later write renamed in place.
            allowed = [before] if last is None and before is not None else []
            start = writes.index(last) if last else 0
            allowed += [write["data"].encode() for write in writes[start:] if write["data"] is not None]
            if found not in allowed:
                case.fail(f"the state after the cut is {which}, but {last_name} had returned")
        check_next_launch_follows(found_state)
        if after_status == 0:
            recorded = done_in(rig, last_state) | done_in(rig, parse_state(before) if before else None)
            lost = [step for step in after["ran"] if step in recorded]
            if lost:
                case.fail(f"{lost} ran again although {last_name}, which recorded them done, had returned")
            twice = [step for step in after["ran"] if step in finished or step in first_journal]
            if len(twice) > 1:
                case.fail(f"{twice} ran twice; at most one step may (the one whose completion was being written)")
            elif twice and (not finished or twice[0] != finished[-1]):
                case.fail(f"{twice[0]} ran twice, but it is not the last step the cut launch finished ({finished})")
            everything = set(first_journal) | set(finished) | set(reran)
            missing = [step for step, _ in rig.steps if step not in everything]
            if missing:
                case.fail(f"{missing} never finished")
        marks = [parse_state(before)["upgradedThrough"]] if before else []
        if last_state:
            marks.append(last_state["upgradedThrough"])
        if found_state is not None:
            for mark in marks:
                if mark is not None and (found_state["upgradedThrough"] is None
                                         or version_key(found_state["upgradedThrough"]) < version_key(mark)):
                    case.fail(f"the mark went back from {mark} to {found_state['upgradedThrough']}")
    else:
        if found is None or (found_state is not None and which != "a state no write wrote"):
            check_next_launch_follows(found_state)
        elif found_state is None:
            # An empty or unreadable file: reported as such, naming the file, and left as it is.
            if after_status != 2:
                case.fail(f"the state after the cut is {which}, but the next launch exited {after_status}, not 2")
            if rig.state_path not in after_error and STATE not in after_error:
                case.fail(f"the next launch's error does not name the state file: {after_error!r}")
            if rig.read(STATE) != found:
                case.fail("the next launch replaced the unreadable state file")
        else:
            case.fail(f"the state after the cut is {which}: none of what the app-kill level may leave")

    # The history may lose records, never the launch.
    if after_status == 0:
        history = rig.read(HISTORY)
        if after["outcome"] != "upToDate":
            lines = history.decode("utf-8", "replace").split("\n") if history else []
            complete = [line for line in lines[:-1] if line.strip()]
            try:
                record = json.loads(complete[-1]) if complete else None
            except ValueError:
                record = None
            steps = [step.get("id") for step in record.get("steps", [])] if isinstance(record, dict) else None
            if not isinstance(record, dict) or record.get("to") != TARGET or steps != after["ran"]:
                case.fail(f"the history's last record is not the next launch's: {complete[-1] if complete else None!r}")
        # Removed by a launch that takes the lock; an up-to-date launch takes none (a cut while the
        # document's unflushed copy was being put in place can bring its temporary file's name back).
        leftovers = [name for name in rig.listing(os.path.dirname(STATE)) if ".tmp-" in name]
        if leftovers and after["outcome"] != "upToDate":
            case.fail(f"temporary files left after the next launch: {leftovers}")
    return case


def run_level(rig, level, scenarios, modes, show, verbose, seeds=1, failure="FAIL"):
    """Every cut of one level, `seeds` times each in the mixed mode; returns (cases, broken cases)."""
    cases, broken = 0, []
    for scenario in scenarios:
        learned = learn(rig, level, scenario)
        for mode in modes:
            started = time.monotonic()
            held = 0
            tally = {}
            count = 0
            history_lost = 0
            cuts = [(at, f"mixed:{at}:{seed}" if mode == "mixed" else mode)
                    for at in range(1, len(learned) + 2) for seed in range(1, (seeds if mode == "mixed" else 1) + 1)]
            for at, cut_mode in cuts:
                case = run_case(rig, level, scenario, cut_mode, at, learned)
                count += 1
                operation = operation_text(learned[at - 1]) if at <= len(learned) else None
                cases += 1
                tally[case.found] = tally.get(case.found, 0) + 1
                history_lost += case.history_lost
                if case.faults:
                    broken.append(case)
                    if len(broken) <= show:
                        print(f"  {failure} {case.describe(operation)}: {'; '.join(case.faults)} [{'; '.join(case.facts)}]")
                else:
                    held += 1
                    if verbose:
                        print(f"  ok   {case.describe(operation)} [{'; '.join(case.facts)}]")
            found = ", ".join(f"{name} {count}" for name, count in sorted(tally.items(), key=lambda item: -item[1]))
            print(f"{level}, {SCENARIOS[scenario][0]} ({len(learned)} operations), cut mode {mode}:"
                  f" {count} cuts, {held} held ({time.monotonic() - started:.1f} s); found: {found};"
                  f" the history lost records at {history_lost}",
                  flush=True)
    return cases, broken


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mount", required=True, help="where powercutfs.py is mounted")
    parser.add_argument("--control", required=True, help="its control socket")
    parser.add_argument("--binary", required=True, help="upgrade-sim")
    parser.add_argument("--fixture", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture.json"))
    parser.add_argument("--level", action="append", choices=["power-loss", "app-kill"],
                        help="a durability level to test (repeatable; both by default)")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS), help="repeatable; both by default")
    parser.add_argument("--mode", action="append",
                        help="a cut mode (lose, names, data, all, mixed); repeatable; by default"
                        " lose, names and mixed at power-loss, and also all at app-kill")
    parser.add_argument("--mutation", action="append", choices=sorted(MUTATIONS), default=[],
                        help="the mutation check: the power-loss checks with that flush (or the torn-record"
                        " check) skipped (UPGRADE_SIM_TEST_SKIP_FLUSH) must break; repeatable")
    parser.add_argument("--mutations-only", action="store_true", help="run the mutation checks alone")
    parser.add_argument("--seeds", type=int, default=3, help="how many times the mixed mode cuts at each operation (3)")
    parser.add_argument("--show", type=int, default=5, help="how many failing cuts to print (5)")
    parser.add_argument("--verbose", action="store_true", help="print every cut")
    arguments = parser.parse_args()

    rig = Rig(arguments)
    started = time.monotonic()
    passed, failed = 0, 0
    try:
        if not arguments.mutations_only:
            for level in arguments.level or ["power-loss", "app-kill"]:
                cases, broken = run_level(rig, level, arguments.scenario or list(SCENARIOS),
                                          arguments.mode or DEFAULT_MODES[level], arguments.show, arguments.verbose,
                                          arguments.seeds)
                passed += cases - len(broken)
                failed += len(broken)
        for flush in arguments.mutation:
            rig.skip_flush = flush
            print(f"mutation check: the {flush} flush skipped (UPGRADE_SIM_TEST_SKIP_FLUSH={flush}); the power-loss"
                  " checks must break")
            cases, broken = run_level(rig, "power-loss", arguments.scenario or list(SCENARIOS), [MUTATIONS[flush]],
                                      min(arguments.show, 1), False, failure="caught, as it must be:")
            rig.skip_flush = None
            if broken:
                passed += 1
                print(f"mutation check, the {flush} flush skipped: the power-loss checks broke at {len(broken)} of"
                      f" {cases} cuts, as they must")
            else:
                failed += 1
                print(f"FAIL mutation check, the {flush} flush skipped: the power-loss checks held at all {cases}"
                      f" cuts; they cannot tell a store that does not flush from one that does")
    except HarnessError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        rig.close()
    print(f"{rig.launches} launches in {time.monotonic() - started:.1f} s")
    print(f"power-cut: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
