#!/usr/bin/env python3
"""A power-cut file system for tests: FUSE, kept in memory, that forgets what was never flushed.

Usage: powercutfs.py MOUNTPOINT --control SOCKET

It mounts an empty file system at MOUNTPOINT (in the foreground; unmount it with `umount` or
`fusermount -u`) and takes commands on the Unix socket SOCKET (see `control` below, and run.py,
which drives it).

Persistence model (what survives a cut; README.md beside this file says the same):

- A file's data (its bytes and size) survives only as of its last fsync. A file never flushed comes
  back empty.
- A name (create, mkdir, rename, unlink, link) survives only as of the last fsync of the folder that
  holds it: a folder's entries come back exactly as they were at its last fsync (a folder never
  flushed comes back empty). A rename flushed in its folder whose file was never flushed brings back
  the name with an empty file (or its data as of its last fsync).
- Nothing else is kept in order: a flush of a file says nothing about its name, nor a flush of a
  folder about its files' data.

That is the strictest reading of POSIX that real file systems are allowed: a cut in the default
mode ("lose") keeps exactly what was flushed and nothing more. The other modes model the system
writing some of the rest back before the power went off, which it may (so a test also sees what a
less strict file system can leave): "names" (every folder as of the cut, file data only as
flushed), "data" (every file's data as of the cut, folders only as flushed), "all" (nothing lost),
"torn" (as "data", and the write the power went off at half done: its first half survives, as a
sector-by-sector write can leave it), and "mixed:SEED" (each folder and each file, independently and reproducibly from SEED, as of its
last flush or as of any later moment up to the cut: the system wrote it back then).

Operations are atomic and happen in the order the kernel hands them over (one thread). Each
mutating operation (create, mknod, mkdir, unlink, rmdir, rename, link, symlink, write, truncate,
chmod, chown, utimens, setxattr, removexattr, fsync, fsyncdir) is counted and recorded. Armed to cut
at the N-th one, the file system powers off at that operation instead of doing it: the process that
made it is killed (SIGKILL: the machine is off, so nothing it does afterwards reaches any disk), the
operation and every later one fail with EIO until power-on, and the tree rolls back to what
survives. Power-on makes the rolled-back tree the current one, all of it flushed (it is what is
on the disk).

Out of scope (as for every test of this kind): reordering inside the drive, torn sectors, a write
cut in the middle other than in the torn mode (elsewhere a write happens whole or not at all), and
write caches that claim a flush
they did not do. Only names and file data are modelled: permissions and times come back as they
were at the file's or folder's last flush, or as created.

Control: connect to SOCKET, send one JSON object on one line, read one JSON object on one line.
  {"cmd": "status"}                       power, count, armed cut, whether it happened
  {"cmd": "arm", "at": N or null, "mode": "lose", "kill": true}
                                          count from 0 again, clear the log, cut at the N-th
                                          mutating operation (null: only count)
  {"cmd": "cut", "mode": "lose"}          cut now (the power goes off)
  {"cmd": "power-on"}                     power on again, with what survived
  {"cmd": "sync"}                         flush everything (as `sync` and a quiet minute would)
  {"cmd": "reset"}                        an empty file system, flushed, powered on, not armed
  {"cmd": "log"}                          the operations since arm: [{"n", "op", "path", ...}]
Every answer has "ok": true, or "ok": false and "error".
"""

import argparse
import base64
import errno
import hashlib
import json
import os
import random
import signal
import socket
import stat
import sys
import threading
import time

try:  # PyPI's fusepy
    from fuse import FUSE, FuseOSError, Operations, fuse_get_context
except ImportError:  # Debian's python3-fusepy
    from fusepy import FUSE, FuseOSError, Operations, fuse_get_context

MODES = ("lose", "names", "data", "all", "torn")


def now_ns():
    return time.time_ns()


class Inode:
    """A file, a folder or a symbolic link, as it is now and as it was last flushed."""

    def __init__(self, ino, kind, mode, uid, gid):
        self.ino = ino
        self.kind = kind  # "file", "dir" or "link"
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.data = bytearray()  # a file's bytes, a link's target
        self.entries = {}  # a folder's names: name -> ino
        self.atime = self.mtime = self.ctime = now_ns()
        # As of the last flush: (data or entries, mode, mtime); None when never flushed.
        self.flushed = None
        # As created, for one never flushed that comes back through its name.
        self.created = (mode, self.mtime)
        # Every version since the last flush, oldest first, the current one last: what the system
        # may have written back by itself before a cut (the "mixed" mode picks one).
        self.versions = []

    def snapshot(self):
        contents = bytes(self.data) if self.kind != "dir" else dict(self.entries)
        return (contents, self.mode, self.mtime)

    def changed(self):
        self.versions.append(self.snapshot())

    def flush(self):
        self.flushed = self.snapshot()
        self.versions = []


class PowerCutFS(Operations):
    use_ns = True

    def __init__(self):
        self.lock = threading.RLock()
        self.next_fh = 1
        self.reset()

    # -- state ----------------------------------------------------------------------------------

    def reset(self):
        with self.lock:
            self.inodes = {}
            self.next_ino = 1
            root = self.new_inode("dir", stat.S_IFDIR | 0o755, 0, 0)
            self.root = root.ino
            root.flush()
            self.handles = {}
            self.on = True
            self.count = 0
            self.cut_at = None
            self.cut_done = None  # the operation the power went off at, once it did
            self.kill = True
            self.mode = "lose"
            self.log = []

    def new_inode(self, kind, mode, uid, gid):
        inode = Inode(self.next_ino, kind, mode, uid, gid)
        self.inodes[inode.ino] = inode
        self.next_ino += 1
        return inode

    def survivor(self, mode):
        """How each inode comes back: a function (inode) -> (contents, mode, mtime)."""
        rng = None
        if mode.startswith("mixed:"):
            rng = random.Random(mode)
        elif mode not in MODES:
            raise ValueError(f"unknown cut mode {mode!r}: one of {', '.join(MODES)} or mixed:SEED")

        def current(inode):
            return inode.snapshot()

        def as_flushed(inode):
            if inode.flushed is not None:
                return inode.flushed
            if inode.kind == "link":  # a link's target is part of its creation
                return (bytes(inode.data), inode.created[0], inode.created[1])
            return (b"" if inode.kind != "dir" else {}, inode.created[0], inode.created[1])

        def choose(inode):
            if mode == "all":
                return current(inode)
            if mode == "names":
                return current(inode) if inode.kind == "dir" else as_flushed(inode)
            if mode in ("data", "torn"):
                return current(inode) if inode.kind != "dir" else as_flushed(inode)
            if rng is not None:
                return rng.choice([as_flushed(inode)] + inode.versions)
            return as_flushed(inode)

        return choose

    def roll_back(self, mode):
        """Replaces the tree with what survives a cut in `mode`, all of it flushed."""
        choose = self.survivor(mode)
        kept = {}
        # Sorted so that "mixed" draws in the same order every time.
        pending = [self.root]
        while pending:
            ino = pending.pop()
            if ino in kept or ino not in self.inodes:
                continue
            inode = self.inodes[ino]
            contents, inode.mode, inode.mtime = choose(inode)
            if inode.kind == "dir":
                inode.entries = {name: child for name, child in contents.items() if child in self.inodes}
                pending.extend(sorted(inode.entries.values(), reverse=True))
            else:
                inode.data = bytearray(contents)
            inode.ctime = inode.mtime
            inode.flush()
            kept[ino] = inode
        self.inodes = kept
        self.handles = {}

    # -- control --------------------------------------------------------------------------------

    def control(self, request):
        command = request.get("cmd")
        with self.lock:
            if command == "status":
                return {"on": self.on, "count": self.count, "at": self.cut_at, "cut": self.cut_done}
            if command == "arm":
                at = request.get("at")
                if at is not None and (not isinstance(at, int) or at < 1):
                    raise ValueError("'at' is a positive operation number, or null")
                mode = request.get("mode", "lose")
                self.survivor(mode)  # checks the mode
                if not self.on:
                    raise ValueError("the power is off: power on first")
                self.count, self.cut_at, self.cut_done = 0, at, None
                self.mode, self.kill = mode, bool(request.get("kill", True))
                self.log = []
                return {}
            if command == "cut":
                mode = request.get("mode", self.mode)
                self.survivor(mode)
                if self.on:
                    self.power_off(mode, at=None, pid=None)
                return {}
            if command == "power-on":
                self.on = True
                self.cut_at = None
                return {}
            if command == "sync":
                if not self.on:
                    raise ValueError("the power is off")
                for inode in self.inodes.values():
                    inode.flush()
                return {}
            if command == "reset":
                self.reset()
                return {}
            if command == "log":
                return {"log": self.log}
        raise ValueError(f"unknown command {command!r}")

    def power_off(self, mode, at, pid):
        self.on = False
        self.cut_done = {"at": at, "mode": mode, "pid": pid}
        if pid and self.kill and pid != os.getpid():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.roll_back(mode)

    def serve(self, path):
        if os.path.exists(path):
            os.unlink(path)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        os.chmod(path, 0o600)
        server.listen(8)

        def loop():
            while True:
                connection, _ = server.accept()
                with connection:
                    try:
                        line = connection.makefile("rb").readline()
                        answer = {"ok": True, **self.control(json.loads(line))}
                    except Exception as error:  # reported to the client, never fatal
                        answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
                    connection.sendall((json.dumps(answer) + "\n").encode())

        threading.Thread(target=loop, daemon=True).start()

    # -- helpers --------------------------------------------------------------------------------

    def powered(self):
        if not self.on:
            raise FuseOSError(errno.EIO)

    def mutation(self, op, torn=None, **details):
        """Counts a mutating operation; cuts the power when it is the armed one (in the torn mode,
        a write cut is half done first: `torn` does that half)."""
        self.powered()
        self.count += 1
        if self.cut_at is not None and self.count == self.cut_at:
            if self.mode == "torn" and torn is not None:
                torn()
            self.power_off(self.mode, at=self.count, pid=fuse_get_context()[2])
            raise FuseOSError(errno.EIO)
        self.log.append({"n": self.count, "op": op, **details})

    def lookup(self, path):
        inode = self.inodes[self.root]
        for part in [p for p in path.split("/") if p]:
            if inode.kind != "dir":
                raise FuseOSError(errno.ENOTDIR)
            if part not in inode.entries:
                raise FuseOSError(errno.ENOENT)
            inode = self.inodes[inode.entries[part]]
        return inode

    def parent(self, path):
        head, _, name = path.rstrip("/").rpartition("/")
        folder = self.lookup(head or "/")
        if folder.kind != "dir":
            raise FuseOSError(errno.ENOTDIR)
        if not name:
            raise FuseOSError(errno.EINVAL)
        return folder, name

    def target(self, path, fh):
        """The inode an operation is about: its open handle's when it has one, else its path's."""
        if fh is not None and fh in self.handles:
            return self.inodes[self.handles[fh]]
        if path is None:
            raise FuseOSError(errno.EBADF)
        return self.lookup(path)

    def open_handle(self, inode):
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = inode.ino
        return fh

    def touch(self, inode):
        inode.mtime = inode.ctime = now_ns()
        inode.changed()

    def links(self, inode):
        if inode.kind == "dir":
            return 2 + sum(1 for child in inode.entries.values() if self.inodes[child].kind == "dir")
        names = sum(1 for folder in self.inodes.values() if folder.kind == "dir"
                    for child in folder.entries.values() if child == inode.ino)
        return max(1, names)

    # -- reading --------------------------------------------------------------------------------

    def getattr(self, path, fh=None):
        with self.lock:
            self.powered()
            inode = self.target(path, fh)
            kind = {"file": stat.S_IFREG, "dir": stat.S_IFDIR, "link": stat.S_IFLNK}[inode.kind]
            return {
                "st_ino": inode.ino,
                "st_mode": kind | (inode.mode & 0o7777),
                "st_nlink": self.links(inode),
                "st_uid": inode.uid,
                "st_gid": inode.gid,
                "st_size": len(inode.data) if inode.kind != "dir" else 0,
                "st_atime": inode.atime,
                "st_mtime": inode.mtime,
                "st_ctime": inode.ctime,
                "st_blocks": (len(inode.data) + 511) // 512,
            }

    def access(self, path, amode):
        with self.lock:
            self.powered()
            self.lookup(path)
            return 0

    def readdir(self, path, fh):
        with self.lock:
            self.powered()
            inode = self.lookup(path)
            if inode.kind != "dir":
                raise FuseOSError(errno.ENOTDIR)
            return [".", ".."] + sorted(inode.entries)

    def readlink(self, path):
        with self.lock:
            self.powered()
            inode = self.lookup(path)
            if inode.kind != "link":
                raise FuseOSError(errno.EINVAL)
            return inode.data.decode()

    def open(self, path, flags):
        with self.lock:
            self.powered()
            inode = self.lookup(path)
            if inode.kind == "dir" and flags & (os.O_WRONLY | os.O_RDWR):
                raise FuseOSError(errno.EISDIR)
            return self.open_handle(inode)

    def opendir(self, path):
        with self.lock:
            self.powered()
            inode = self.lookup(path)
            if inode.kind != "dir":
                raise FuseOSError(errno.ENOTDIR)
            return self.open_handle(inode)

    def read(self, path, size, offset, fh):
        with self.lock:
            self.powered()
            inode = self.target(path, fh)
            return bytes(inode.data[offset : offset + size])

    def statfs(self, path):
        with self.lock:
            self.powered()
            return {"f_bsize": 4096, "f_frsize": 4096, "f_blocks": 1 << 20, "f_bfree": 1 << 19,
                    "f_bavail": 1 << 19, "f_files": 1 << 16, "f_ffree": 1 << 15, "f_namemax": 255}

    def flush(self, path, fh):
        with self.lock:
            self.powered()
            return 0

    def release(self, path, fh):
        with self.lock:
            self.handles.pop(fh, None)
            return 0

    def releasedir(self, path, fh):
        return self.release(path, fh)

    # -- mutating -------------------------------------------------------------------------------

    def create(self, path, mode, fi=None):
        with self.lock:
            self.mutation("create", path=path)
            folder, name = self.parent(path)
            if name in folder.entries:
                raise FuseOSError(errno.EEXIST)
            uid, gid, _ = fuse_get_context()
            inode = self.new_inode("file", mode & 0o7777, uid, gid)
            folder.entries[name] = inode.ino
            self.touch(folder)
            return self.open_handle(inode)

    def mknod(self, path, mode, dev):
        with self.lock:
            self.mutation("mknod", path=path)
            if not stat.S_ISREG(mode):
                raise FuseOSError(errno.EPERM)
            folder, name = self.parent(path)
            if name in folder.entries:
                raise FuseOSError(errno.EEXIST)
            uid, gid, _ = fuse_get_context()
            folder.entries[name] = self.new_inode("file", mode & 0o7777, uid, gid).ino
            self.touch(folder)

    def mkdir(self, path, mode):
        with self.lock:
            self.mutation("mkdir", path=path)
            folder, name = self.parent(path)
            if name in folder.entries:
                raise FuseOSError(errno.EEXIST)
            uid, gid, _ = fuse_get_context()
            folder.entries[name] = self.new_inode("dir", mode & 0o7777, uid, gid).ino
            self.touch(folder)

    def symlink(self, target, source):
        with self.lock:
            self.mutation("symlink", path=target, to=source)
            folder, name = self.parent(target)
            if name in folder.entries:
                raise FuseOSError(errno.EEXIST)
            uid, gid, _ = fuse_get_context()
            inode = self.new_inode("link", 0o777, uid, gid)
            inode.data = bytearray(source.encode())
            folder.entries[name] = inode.ino
            self.touch(folder)

    def link(self, target, source):
        with self.lock:
            self.mutation("link", path=target, to=source)
            inode = self.lookup(source)
            if inode.kind == "dir":
                raise FuseOSError(errno.EPERM)
            folder, name = self.parent(target)
            if name in folder.entries:
                raise FuseOSError(errno.EEXIST)
            folder.entries[name] = inode.ino
            self.touch(folder)

    def unlink(self, path):
        with self.lock:
            self.mutation("unlink", path=path)
            folder, name = self.parent(path)
            if name not in folder.entries:
                raise FuseOSError(errno.ENOENT)
            if self.inodes[folder.entries[name]].kind == "dir":
                raise FuseOSError(errno.EISDIR)
            del folder.entries[name]
            self.touch(folder)

    def rmdir(self, path):
        with self.lock:
            self.mutation("rmdir", path=path)
            folder, name = self.parent(path)
            if name not in folder.entries:
                raise FuseOSError(errno.ENOENT)
            inode = self.inodes[folder.entries[name]]
            if inode.kind != "dir":
                raise FuseOSError(errno.ENOTDIR)
            if inode.entries:
                raise FuseOSError(errno.ENOTEMPTY)
            del folder.entries[name]
            self.touch(folder)

    def rename(self, old, new):
        with self.lock:
            self.powered()
            # What the renamed file holds, and whether that much was flushed: the tests read it.
            details = {"path": old, "to": new}
            try:
                source = self.lookup(old)
            except FuseOSError:
                source = None
            if source is not None and source.kind == "file":
                details["ino"] = source.ino
                details["sha256"] = hashlib.sha256(source.data).hexdigest()
                details["data"] = source.data.decode("utf-8", "replace") if len(source.data) <= 65536 else None
                details["flushed"] = source.flushed is not None and source.flushed[0] == bytes(source.data)
            self.mutation("rename", **details)
            if source is None:
                raise FuseOSError(errno.ENOENT)
            old_folder, old_name = self.parent(old)
            new_folder, new_name = self.parent(new)
            if old_name not in old_folder.entries:
                raise FuseOSError(errno.ENOENT)
            replaced = new_folder.entries.get(new_name)
            if replaced is not None and replaced != source.ino:
                replaced_inode = self.inodes[replaced]
                if (replaced_inode.kind == "dir") != (source.kind == "dir"):
                    raise FuseOSError(errno.EISDIR if replaced_inode.kind == "dir" else errno.ENOTDIR)
                if replaced_inode.kind == "dir" and replaced_inode.entries:
                    raise FuseOSError(errno.ENOTEMPTY)
            del old_folder.entries[old_name]
            new_folder.entries[new_name] = source.ino
            self.touch(old_folder)
            self.touch(new_folder)
            source.ctime = now_ns()

    def write(self, path, data, offset, fh):
        with self.lock:
            def apply(part):
                inode = self.target(path, fh)
                if inode.kind != "file":
                    raise FuseOSError(errno.EISDIR)
                if offset > len(inode.data):
                    inode.data.extend(b"\0" * (offset - len(inode.data)))
                inode.data[offset : offset + len(part)] = part
                self.touch(inode)

            # What it writes, for the tests (a journal's records), when it is small enough.
            written = base64.b64encode(bytes(data)).decode() if len(data) <= 65536 else None
            self.mutation("write", torn=lambda: apply(data[: max(1, len(data) // 2)]), path=path, offset=offset,
                          size=len(data), data=written)
            apply(data)
            return len(data)

    def truncate(self, path, length, fh=None):
        with self.lock:
            self.mutation("truncate", path=path, size=length)
            inode = self.target(path, fh)
            if inode.kind != "file":
                raise FuseOSError(errno.EISDIR)
            if length < len(inode.data):
                del inode.data[length:]
            else:
                inode.data.extend(b"\0" * (length - len(inode.data)))
            self.touch(inode)

    def chmod(self, path, mode):
        with self.lock:
            self.mutation("chmod", path=path, mode=oct(mode & 0o7777))
            inode = self.lookup(path)
            inode.mode = mode & 0o7777
            inode.ctime = now_ns()
            inode.changed()

    def chown(self, path, uid, gid):
        with self.lock:
            self.mutation("chown", path=path)
            inode = self.lookup(path)
            if uid != -1 and uid != 0xFFFFFFFF:
                inode.uid = uid
            if gid != -1 and gid != 0xFFFFFFFF:
                inode.gid = gid
            inode.ctime = now_ns()
            inode.changed()

    def utimens(self, path, times=None):
        with self.lock:
            self.mutation("utimens", path=path)
            inode = self.lookup(path)
            inode.atime, inode.mtime = times if times else (now_ns(), now_ns())
            inode.ctime = now_ns()
            inode.changed()

    def setxattr(self, path, name, value, options, position=0):
        with self.lock:
            self.mutation("setxattr", path=path, name=name)
            raise FuseOSError(errno.ENOTSUP)

    def removexattr(self, path, name):
        with self.lock:
            self.mutation("removexattr", path=path, name=name)
            raise FuseOSError(errno.ENOTSUP)

    def fsync(self, path, datasync, fh):
        with self.lock:
            self.mutation("fsync", path=path)
            self.target(path, fh).flush()

    def fsyncdir(self, path, datasync, fh):
        with self.lock:
            self.mutation("fsyncdir", path=path)
            inode = self.target(path, fh)
            if inode.kind != "dir":
                raise FuseOSError(errno.ENOTDIR)
            inode.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mountpoint")
    parser.add_argument("--control", required=True, help="the Unix socket to take commands on")
    arguments = parser.parse_args()
    filesystem = PowerCutFS()
    filesystem.serve(arguments.control)
    # One thread: operations happen one at a time, in the order the kernel hands them over. No
    # caching in the kernel: after a cut, every name and byte is asked for again.
    FUSE(
        filesystem,
        arguments.mountpoint,
        foreground=True,
        nothreads=True,
        use_ino=True,
        hard_remove=True,
        direct_io=True,
        entry_timeout=0,
        attr_timeout=0,
        negative_timeout=0,
        fsname="powercutfs",
        subtype="powercutfs",
    )


if __name__ == "__main__":
    sys.exit(main())
