# SPDX-License-Identifier: GPL-2.0-only
"""Results directories: completeness, ownership, the lock and the manifest (docs/results.md).

The Python half of the contract that MrcResultsDir implements in C++; every script in
analysis/ uses this module, and it imports only the standard library.

* :func:`incomplete_reason` / :func:`check_complete`: is a directory a complete run?
* :func:`owned_files` / :func:`remove_owned`: the files a directory's manifests list, and
  removing exactly those (never anything else, never a whole tree).
* :class:`Lock`: the exclusive ``flock`` on ``.mrc-lock`` that keeps one writer per directory.
* :class:`Manifest` and :func:`add_outputs`: writing ``manifest.json``.

Every error is a :class:`ResultsDirError` whose str() is one line.  A file name in a manifest is
a path relative to the manifest's directory, with ``/`` separators; a name ending in ``/`` with
``{"dir": true}`` is a directory (a sweep's point directory), not a file.
"""

import errno
import fcntl
import hashlib
import json
import os
import threading
import time

FORMAT = "mrc-results/1"
MANIFEST = "manifest.json"
MANIFEST_TMP = MANIFEST + ".tmp"
RUN = "run.json"
LOCK = ".mrc-lock"
# Files that belong to the directory itself: never listed, never foreign.
BOOKKEEPING = (MANIFEST, MANIFEST_TMP, LOCK)

NO_MANIFEST = "no manifest.json (not written by an MRC program, or written before manifests existed)"

_held = set()  # (st_dev, st_ino) of the .mrc-lock files this process holds
_held_guard = threading.Lock()
_manifest_guard = threading.RLock()  # one manifest change at a time in this process (see Manifest)


class ResultsDirError(Exception):
    """A results directory cannot be used, written or cleared; str(e) is a one-line message.
    ``path``: the file concerned, where there is one."""

    def __init__(self, message, path=None):
        super().__init__(message)
        self.path = path


class ResultsDirInUse(ResultsDirError):
    """Another process holds the directory's lock: "'<dir>' is in use by another run (<program>,
    pid <pid>)"."""


class ResultsDirForeign(ResultsDirError):
    """A file no manifest lists: "'<root>' holds '<path>', which no run wrote"; path: that file."""


def _os_error(e, path=None):
    """A ResultsDirError for a failed write: "cannot write '<path>': <strerror>"."""
    where = path or getattr(e, "filename", None) or "?"
    return ResultsDirError("cannot write '%s': %s" % (where, e.strerror or e), where)


# ------------------------------------------------------------------ reading

def _read_json(path, label):
    """(object, None) or (None, one-line reason); (None, None) if the file does not exist."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as e:
        return None, "%s: cannot read: %s" % (label, getattr(e, "strerror", None) or e)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return None, "%s: line %d, column %d: invalid JSON: %s" % (label, e.lineno, e.colno, e.msg)
    if not isinstance(data, dict):
        return None, "%s: expected a JSON object" % label
    return data, None


def _check_name(name):
    """Why a manifest's file name is unusable, or None: names are relative, normalised and stay
    inside the directory."""
    bare = name[:-1] if name.endswith("/") else name
    if (not bare or bare.startswith("/") or "\\" in bare or "\0" in bare
            or any(part in ("", ".", "..") for part in bare.split("/"))):
        return "file name %r is not a path inside the directory" % name
    return None


def read_manifest(root):
    """manifest.json of root as a dict, or None if there is none.  Raises ResultsDirError if it
    is unreadable, not JSON, not format mrc-results/1, or names a file outside root."""
    data, why = _read_json(os.path.join(root, MANIFEST), MANIFEST)
    if why:
        raise ResultsDirError(why, os.path.join(root, MANIFEST))
    if data is None:
        return None
    if data.get("format") != FORMAT:
        raise ResultsDirError("%s: format is %s, expected %s" % (MANIFEST, json.dumps(data.get("format")), FORMAT),
                              os.path.join(root, MANIFEST))
    files = data.get("files")
    if not isinstance(files, dict):
        raise ResultsDirError("%s: 'files' is not an object" % MANIFEST, os.path.join(root, MANIFEST))
    for name, entry in files.items():
        why = _check_name(name)
        if why is None and entry is not None and not isinstance(entry, dict):
            why = "the entry of %s is neither null nor an object" % name
        if why:
            raise ResultsDirError("%s: %s" % (MANIFEST, why), os.path.join(root, MANIFEST))
    return data


def csv_rows(path):
    """Data rows of a CSV file: its non-empty lines minus the header (0 for an empty file)."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                n += 1
    return max(0, n - 1)


def _is_csv(name):
    return name.lower().endswith(".csv")


def incomplete_reason(path, in_run=False):
    """None if the directory is a complete run, else a one-line reason.

    Complete: run.json and manifest.json exist (a sweep directory, program "sweep", has no
    run.json), both say "complete": true, and every file with a non-null manifest entry exists
    with the listed "bytes" and, where listed, "rows" (CSV data rows, header excluded); an entry
    {"dir": true} must be a directory.  sha256 is not verified.

    in_run (a program analysing its own directory before it marks it complete): both
    "complete" flags and the null entries (files still being written) are ignored; the listed
    files must still match.
    """
    if not os.path.isdir(path):
        return "not a directory" if os.path.exists(path) else "directory not found"
    try:
        manifest = read_manifest(path)
    except ResultsDirError as e:
        return str(e)
    if manifest is None:
        return NO_MANIFEST
    sweep = manifest.get("program") == "sweep"
    run, why = _read_json(os.path.join(path, RUN), RUN)
    if why:
        return why
    if run is None and not sweep:
        return "no run.json"
    if not in_run:
        if run is not None and run.get("complete") is not True:
            return "incomplete run (%s)" % (run.get("incomplete_reason") or "run.json says \"complete\": false")
        if manifest.get("complete") is not True:
            return "incomplete run (manifest.json says \"complete\": false)"
    for name, entry in manifest["files"].items():
        if entry is None:
            if in_run:
                continue
            return "%s is being written (its manifest entry is null)" % name
        full = os.path.join(path, *name.rstrip("/").split("/"))
        if entry.get("dir"):
            if not os.path.isdir(full):
                return "%s is missing" % name
            continue
        try:
            size = os.stat(full).st_size
        except FileNotFoundError:
            return "%s is missing" % name
        except OSError as e:
            return "%s: cannot read: %s" % (name, e.strerror)
        if not os.path.isfile(full):
            return "%s is not a file" % name
        if "rows" in entry and _is_csv(name):
            try:
                rows = csv_rows(full)
            except OSError as e:
                return "%s: cannot read: %s" % (name, e.strerror)
            if rows != entry["rows"]:
                return "%s has %d rows, the manifest says %s" % (name, rows, entry["rows"])
        if "bytes" in entry and size != entry["bytes"]:
            return "%s has %d bytes, the manifest says %s" % (name, size, entry["bytes"])
    return None


def check_complete(path, allow_partial=False, in_run=False):
    """(True, None) if the directory is complete (see :func:`incomplete_reason`).  Otherwise
    (False, reason) when allow_partial, else raise ResultsDirError(reason)."""
    reason = incomplete_reason(path, in_run=in_run)
    if reason is None:
        return True, None
    if allow_partial:
        return False, reason
    raise ResultsDirError(reason, path)


# ------------------------------------------------------------------ ownership

def _rel(path, root):
    return os.path.relpath(path, root).replace(os.sep, "/")


def owned_files(root, extra=()):
    """Every file under root (absolute paths, in a sorted walk), when each is owned; else raise
    ResultsDirError naming the first foreign one.

    A file is owned when the manifest.json of its directory, or of an ancestor directory up to
    root, lists it by its path relative to that manifest's directory (a null entry counts), or
    when it is manifest.json, manifest.json.tmp or .mrc-lock itself; `extra` names more owned
    files by path relative to root (the files an outer manifest, such as a sweep's, lists for
    root).  Anything that is not a directory (a symbolic link too) is a file here; symbolic
    links to directories are not followed.  A root that does not exist owns nothing ([]).
    A foreign file raises ResultsDirForeign; an unreadable manifest ResultsDirError.
    """
    root = os.path.abspath(root)
    if not os.path.lexists(root):
        return []
    if not os.path.isdir(root) or os.path.islink(root):
        raise ResultsDirError("'%s' is not a directory" % root, root)
    extra = {e.strip("/") for e in extra}
    listed = {}  # directory -> set of names its manifest lists (None: no manifest)
    owned = []

    def names_of(d):
        if d not in listed:
            m = read_manifest(d)
            listed[d] = None if m is None else {n for n, e in m["files"].items()
                                                 if not (isinstance(e, dict) and e.get("dir"))}
        return listed[d]

    def walk_error(e):
        raise ResultsDirError("cannot read '%s': %s" % (e.filename, e.strerror), e.filename)

    for d, dirs, files in os.walk(root, onerror=walk_error):
        dirs.sort()
        links = [n for n in dirs if os.path.islink(os.path.join(d, n))]
        dirs[:] = [n for n in dirs if n not in links]
        for name in sorted(files + links):
            full = os.path.join(d, name)
            if name in BOOKKEEPING or _rel(full, root) in extra:
                owned.append(full)
                continue
            a = d
            while True:
                names = names_of(a)
                if names is not None and _rel(full, a) in names:
                    owned.append(full)
                    break
                if a == root:
                    raise ResultsDirForeign("'%s' holds '%s', which no run wrote" % (root, _rel(full, root)),
                                            full)
                a = os.path.dirname(a)
    return owned


def _locked_by_other(path):
    """(program, pid) if another process holds the flock on this .mrc-lock, else None."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        with _held_guard:
            if (st.st_dev, st.st_ino) in _held:
                return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                return _holder(fd)
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def remove_owned(root, remove_root=False, extra=()):
    """Remove exactly the files :func:`owned_files` finds (it raises, and nothing is removed, if
    any file is foreign), then the directories under root that became empty, bottom-up, and root
    itself too if remove_root and it became empty.  The data files go first, then
    manifest.json.tmp and manifest.json, the .mrc-lock files last.  A .mrc-lock that another
    process holds raises "'<dir>' is in use by another run (<program>, pid <pid>)" before
    anything is removed; one this process holds (a :class:`Lock`) is kept.  Returns the removed
    files.  Never removes a directory that still holds anything."""
    root = os.path.abspath(root)
    files = owned_files(root, extra)
    for f in files:
        if os.path.basename(f) == LOCK:
            other = _locked_by_other(f)
            if other:
                raise ResultsDirInUse("'%s' is in use by another run (%s, pid %s)"
                                      % (os.path.dirname(f), other[0], other[1]), f)

    def rank(f):
        base = os.path.basename(f)
        return (base == LOCK) * 2 + (base in (MANIFEST, MANIFEST_TMP))

    removed = []
    emptied = set()
    for f in sorted(files, key=rank):
        if os.path.basename(f) == LOCK:
            try:
                st = os.stat(f)
                with _held_guard:
                    if (st.st_dev, st.st_ino) in _held:
                        continue
            except OSError:
                pass
        try:
            os.unlink(f)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise _os_error(e, f)
        removed.append(f)
        d = os.path.dirname(f)
        while len(d) >= len(root) and d not in emptied:
            emptied.add(d)
            if d == root:
                break
            d = os.path.dirname(d)
    for d in sorted(emptied, key=lambda p: -p.count(os.sep)):
        if d == root and not remove_root:
            continue
        try:
            os.rmdir(d)
        except OSError:
            pass  # not empty: it holds a directory of its own that was empty before
    return removed


# ------------------------------------------------------------------ the lock

def _holder(fd):
    """(program, pid) written in a .mrc-lock; retries for 100 ms while it is still empty."""
    text = ""
    for _ in range(10):
        try:
            text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        if text:
            break
        time.sleep(0.01)
    parts = text.split()
    if len(parts) >= 2:
        return " ".join(parts[:-1]), parts[-1]
    return (parts[0] if parts else "unknown program"), "?"


class Lock:
    """``with Lock(root, program):`` -- root (created if need be) is this process's alone.

    Takes an exclusive, non-blocking flock on root/.mrc-lock and writes "<program> <pid>" into
    it.  If another process holds it, raises ResultsDirInUse
    "'<root>' is in use by another run (<program>, pid <pid>)" at once.  A lock file removed or
    replaced between open and flock is opened again.  On exit the file is unlinked, then closed.
    The lock dies with the process (a leftover .mrc-lock is not held by anyone).  Other failures
    (a read-only directory, ...) raise ResultsDirError "cannot write '<path>': <strerror>"."""

    def __init__(self, root, program):
        self.root, self.program = root, program
        self.path = os.path.join(root, LOCK)
        self.fd = None
        self.key = None

    def __enter__(self):
        try:
            os.makedirs(self.root, exist_ok=True)
        except OSError as e:
            raise _os_error(e)
        for _ in range(20):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o644)
            except OSError as e:
                raise _os_error(e, self.path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    os.close(fd)
                    raise _os_error(e, self.path)
                program, pid = _holder(fd)
                os.close(fd)
                raise ResultsDirInUse("'%s' is in use by another run (%s, pid %s)" % (self.root, program, pid),
                                      self.root)
            fst = os.fstat(fd)
            try:
                st = os.stat(self.path)
            except FileNotFoundError:
                st = None
            if st is None or (st.st_dev, st.st_ino) != (fst.st_dev, fst.st_ino):
                os.close(fd)  # the holder unlinked it as we opened it: take the new one
                continue
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, ("%s %d\n" % (self.program, os.getpid())).encode(), 0)
            except OSError as e:
                os.close(fd)
                raise _os_error(e, self.path)
            self.fd, self.key = fd, (fst.st_dev, fst.st_ino)
            with _held_guard:
                _held.add(self.key)
            return self
        raise ResultsDirError("'%s': cannot take the lock %s (it keeps being replaced)" % (self.root, LOCK),
                              self.path)

    def __exit__(self, *exc):
        self.release()
        return False

    def release(self):
        if self.fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        with _held_guard:
            _held.discard(self.key)
        os.close(self.fd)
        self.fd = None


# ------------------------------------------------------------------ the manifest

def file_entry(path, sha256=False):
    """The manifest entry of an existing file: {"bytes"}, plus "rows" for a .csv, plus "sha256"
    if asked."""
    entry = {"bytes": os.stat(path).st_size}
    if _is_csv(path):
        entry["rows"] = csv_rows(path)
    if sha256:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        entry["sha256"] = h.hexdigest()
    return entry


class Manifest:
    """root/manifest.json: {"format": "mrc-results/1", "program", "complete", "files"}.

    Loaded if it exists (its program is kept), created (complete false, no files) if not.  Each
    change re-reads the file, applies itself and saves through manifest.json.tmp and a rename,
    so changes made meanwhile elsewhere (:func:`add_outputs`, another Manifest, another
    process using this module) are kept.  Safe to use from several threads.  OSErrors become
    ResultsDirError "cannot write '<path>': <strerror>"."""

    def __init__(self, root, program):
        self.root = root
        self.path = os.path.join(root, MANIFEST)
        self._guard = _manifest_guard
        self.data = self._load(program)

    def _load(self, program):
        data = read_manifest(self.root)
        if data is None:
            data = {"format": FORMAT, "program": program, "complete": False, "files": {}}
        return data

    @property
    def program(self):
        return self.data["program"]

    @property
    def files(self):
        return self.data["files"]

    @property
    def complete(self):
        return self.data.get("complete") is True

    def _change(self, apply):
        """Re-read, apply, save.  Python writers of this manifest in other processes (two
        scripts recording their outputs at once) take turns: each holds a flock on the
        manifest.json it read until its replacement is in place."""
        with self._guard:
            for _ in range(100):
                try:
                    fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
                except FileNotFoundError:
                    fd = None
                except OSError as e:
                    raise ResultsDirError("cannot read '%s': %s" % (self.path, e.strerror), self.path)
                try:
                    if fd is not None:
                        fcntl.flock(fd, fcntl.LOCK_EX)
                        fst = os.fstat(fd)
                        try:
                            st = os.stat(self.path)
                        except FileNotFoundError:
                            st = None
                        if st is None or (st.st_dev, st.st_ino) != (fst.st_dev, fst.st_ino):
                            continue  # replaced while we waited: read the new one
                    self.data = self._load(self.data["program"])
                    apply(self.data)
                    self.save()
                    return
                finally:
                    if fd is not None:
                        os.close(fd)
            raise ResultsDirError("'%s' keeps being replaced" % self.path, self.path)

    def text(self):
        """The manifest as written: the layout of docs/results.md, one file per line."""
        files = self.data["files"]
        lines = ["{",
                 '  "format": %s,' % json.dumps(FORMAT),
                 '  "program": %s,' % json.dumps(self.data["program"]),
                 '  "complete": %s,' % json.dumps(self.data.get("complete") is True),
                 '  "files": {' + ("" if files else "}")]
        for i, (name, entry) in enumerate(files.items()):
            lines.append("    %s: %s%s" % (json.dumps(name), json.dumps(entry), "," if i + 1 < len(files) else ""))
        if files:
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def save(self):
        text = self.text()
        tmp = os.path.join(self.root, MANIFEST_TMP)
        with self._guard:
            try:
                os.makedirs(self.root, exist_ok=True)
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, self.path)
            except OSError as e:
                raise _os_error(e)

    def begin(self, *names):
        """These files are about to be written: their entries become null."""
        self._change(lambda d: d["files"].update((n, None) for n in names))

    def finish(self, *names, sha256=False):
        """These files are written: their entries get bytes (and rows, sha256) from the files."""
        entries = {}
        for n in names:
            try:
                entries[n] = file_entry(os.path.join(self.root, *n.split("/")), sha256)
            except OSError as e:
                raise ResultsDirError("cannot read '%s': %s" % (os.path.join(self.root, n), e.strerror),
                                      os.path.join(self.root, n))
        self._change(lambda d: d["files"].update(entries))

    def forget(self, *names):
        """These files are gone: drop their entries."""
        def apply(d):
            for n in names:
                d["files"].pop(n, None)
        self._change(apply)

    def add_dirs(self, *names):
        """Directories with manifests of their own (a sweep's points): "<name>/": {"dir": true}."""
        self._change(lambda d: d["files"].update((n.rstrip("/") + "/", {"dir": True}) for n in names))

    def set_complete(self, complete):
        def apply(d):
            d["complete"] = bool(complete)
        self._change(apply)


def add_outputs(root, paths):
    """Record files an analysis script wrote into root's existing manifest (its "complete" stays
    as it is).  `paths` are file paths (absolute, or relative to the current directory); those
    outside root are skipped, and so is everything if root has no (readable) manifest.  Returns
    the names recorded."""
    try:
        if read_manifest(root) is None:
            return []
    except ResultsDirError:
        return []
    base = os.path.abspath(root)
    names = []
    for p in paths:
        full = os.path.abspath(p)
        if full.startswith(base + os.sep) and os.path.isfile(full):
            name = _rel(full, base)
            if os.path.basename(name) not in BOOKKEEPING:
                names.append(name)
    if names:
        m = Manifest(root, "unknown")
        m.finish(*names)
    return names
