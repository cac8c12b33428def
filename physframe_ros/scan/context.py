"""What every parser needs to know about the scanned tree: where it is and where its packages are."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

MAX_FILE_BYTES = 4 << 20  # generated sources this large are not hand-written frame code
_GENERATED_BY_XACRO = (".urdf", ".sdf", ".world")
_CHOICE = re.compile("\x02([^\x02\x03]*)\x03")


def choice_marker(name: str) -> str:
    """Stands for a value the robot chooses at launch (an environment variable such as TURTLEBOT3_MODEL)."""
    return f"\x02{name}\x03"


def choice_names(text: str) -> list[str]:
    return _CHOICE.findall(text)


def choices_as_placeholders(text: str) -> str:
    """A chosen value inside a frame name becomes the expected tree's placeholder, ``{ROBOT_NAME}/base_link``."""
    return _CHOICE.sub(lambda m: "{" + m.group(1) + "}", text)


def choice_pattern(text: str) -> re.Pattern[str]:
    """A path with choice markers as a regular expression, each choice a named group of one path component."""
    parts = _CHOICE.split(text)  # literal, name, literal, name, ...
    seen: set[str] = set()
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen or not part.isidentifier():
            out.append("[^/]+")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>[^/]+)")
    return re.compile("".join(out))


class ReadRefused(OSError):
    """A path the scan does not read: outside the scanned tree, not a regular file, or too large.
    ``str()`` is the one-line reason (without the path, which the caller names)."""

    def __init__(self, reason: str, limit: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.limit = limit  # a size limit, not a policy

    def __str__(self) -> str:
        return self.reason


@lru_cache(maxsize=16)
def _plain_root(root: str) -> bool:
    """A root pathlib leaves as it is (absolute, normalised, not ``/``): joining it is concatenation."""
    return os.sep == "/" and root != "/" and root.startswith("/") and str(Path(root)) == root and os.path.normpath(root) == root


@lru_cache(maxsize=16)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def read_regular(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` bytes of a regular file; ReadRefused for anything else or a larger file."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ReadRefused("not a regular file (FIFO, device or socket); not read")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between the two looks
            raise ReadRefused("not a regular file (FIFO, device or socket); not read")
        if st.st_size > limit:
            raise ReadRefused(f"larger than {_size(limit)}; skipped", limit=True)
        data = fh.read(st.st_size + 1)
        if len(data) > st.st_size:  # grew since the stat: read on, up to the limit
            data += fh.read(limit + 1 - len(data))
        if len(data) > limit:
            raise ReadRefused(f"larger than {_size(limit)}; skipped", limit=True)
        return data


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB"


@dataclass(frozen=True, eq=False)
class ScanContext:
    """Small and picklable: worker processes get one copy at start-up. Compared and hashed by
    identity, so per-scan caches can key on it."""

    root: str  # absolute path of the scan root
    packages: dict[str, str] = field(default_factory=dict)  # package name -> directory relative to root
    env: dict[str, str] = field(default_factory=dict)  # the robot's environment as the user gives it (--env); never the scanner's own

    def env_value(self, name: str) -> str:
        """A variable of the robot's environment: its given value, or a choice marker that the
        robot descriptions it names are expanded over (one variant per file it can pick)."""
        return self.env[name] if name in self.env else choice_marker(name)

    def abs(self, rel: str) -> Path:
        return Path(self.root) / rel

    def abs_str(self, rel: str) -> str:
        """``str(self.abs(rel))``; without pathlib for a plain relative path (the parsers ask often)."""
        if rel and rel[0] != "/" and "//" not in rel and rel[-1] != "/" and "/./" not in f"/{rel}/" and _plain_root(self.root):
            return f"{self.root}/{rel}"
        return str(self.abs(rel))

    def rel(self, path: str | Path) -> str | None:
        """``path`` relative to the root, or None when it lies outside the scanned tree."""
        p = os.path.normpath(str(path))
        root = os.path.normpath(self.root)
        if p == root:
            return ""
        if not p.startswith(root + os.sep):
            return None
        if os.sep == "/":  # both normalised and p below root: what relpath would compute
            return p[len(root) + 1:]
        return Path(os.path.relpath(p, root)).as_posix()

    def inside(self, path: str | Path) -> bool:
        """Whether ``path`` with every symlink followed lies in the scanned tree."""
        real = os.path.realpath(os.path.join(self.root, path))
        root = _real_root(self.root)
        return real == root or real.startswith(root.rstrip(os.sep) + os.sep)

    def read_bytes(self, path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
        """The bytes of a regular file in the scanned tree (``path`` absolute or relative to the root),
        at most ``limit``; ReadRefused for a file outside the tree (symlinks followed), a FIFO, device
        or socket (never opened: opening one can block or have effects), or a larger file."""
        full = os.path.join(self.root, path)
        if not self.inside(full):
            raise ReadRefused("outside the scanned tree; not read")
        return read_regular(full, limit)

    def package_dir(self, name: str) -> str | None:
        """Absolute directory of a package inside the tree: what ``$(find pkg)`` and
        ``FindPackageShare`` stand for (an installed share dir mirrors the source package)."""
        rel = self.packages.get(name)
        return None if rel is None else self.abs_str(rel)

    def source_file(self, path: str | None) -> str | None:
        """The tree file (relative path) a resolved launch-time path stands for, or None.

        ``$(find pkg)/x`` resolves to the package's source directory; when ``x`` is not there the
        install rule copied it from elsewhere in the package, so it is looked up by name."""
        if not path:
            return None
        rel = self.rel(path)
        if rel is None or not self.inside(rel):
            return None
        if os.path.isfile(self.abs_str(rel)):
            return rel
        for name, pkg_dir in self.packages.items():
            if pkg_dir and (rel + "/").startswith(pkg_dir + "/"):
                found = self.locate_share_path(name, rel[len(pkg_dir):])
                return self.rel(found) if found else None
        return None

    def locate_share_path(self, package: str, rest: str) -> str | None:
        """Map ``share/<package>/<rest>`` to a file in the source package: the same relative path,
        or else a unique file with that name anywhere in the package (installed from another folder)."""
        base = self.package_dir(package)
        if base is None:
            return None
        rest = rest.strip("/")
        name = os.path.basename(rest)
        # a robot description the build generates from its xacro (catkin's and ament's `xacro_add_files(urdf/x.urdf.xacro
        # INSTALL DESTINATION urdf)` installs urdf/x.urdf): read the xacro it comes from
        for wanted, path in ((name, rest), *(((name + ".xacro", rest + ".xacro"),) if name.endswith(_GENERATED_BY_XACRO) else ())):
            cand = os.path.join(base, path)
            if os.path.isfile(cand) and self.inside(cand):
                return cand
            if not wanted:
                return None
            hits = []
            for d, dirs, files in os.walk(base):  # os.walk does not follow symlinked directories
                dirs[:] = [x for x in dirs if x not in ("build", "install", "log", ".git")]
                if wanted in files:
                    hits.append(os.path.join(d, wanted))
            if hits:
                return hits[0] if len(hits) == 1 and self.inside(hits[0]) else None
        return None
