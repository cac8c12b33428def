"""Find what to scan: ROS 1 and ROS 2 packages (by ``package.xml``) and the files the parsers read."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .context import ReadRefused, read_regular

# Build outputs and tool folders: never sources, often huge.
SKIP_DIRS = frozenset({"build", "install", "log", "devel", "devel_isolated", "install_isolated", "build_isolated",
                       ".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".mypy_cache",
                       ".pytest_cache", ".ruff_cache"})
IGNORE_MARKERS = ("COLCON_IGNORE", "CATKIN_IGNORE", "AMENT_IGNORE")

CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h")
XACRO_SUFFIXES = (".xacro",)

_NAME_RE = re.compile(r"<name>\s*([^<\s]+)\s*</name>")

# Unit-test code: fixtures there build messages with empty frames and look up made-up frames on
# purpose. Skipped unless --include-tests; a file named on the command line is always read.
TEST_DIRS = frozenset({"test", "tests"})
_TEST_FILE_RE = re.compile(r"(?:test_[\w.]*|\w*_tests?|\w*_unittest|conftest|[\w.]*\.test)\.(?:py|cpp|cc|cxx|hpp|h)", re.IGNORECASE)


def is_test_file(name: str) -> bool:
    """A gtest, pytest or launch_testing source by its name (``test_x.cpp``, ``x_test.py``, ``conftest.py``,
    ``test_x.launch.py``)."""
    return _TEST_FILE_RE.fullmatch(name) is not None


@dataclass(frozen=True)
class Package:
    name: str
    path: str  # directory relative to the scan root ("" for the root itself)
    ros_version: int  # 1 (catkin) or 2 (ament); 2 when unknown


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative to the scan root, '/' separated
    kind: str  # cpp, python, launch_py, launch_xml, launch_yaml, params_yaml, urdf, xacro, sdf, cartographer_lua
    size: int = 0


@dataclass
class Workspace:
    root: Path
    packages: dict[str, Package] = field(default_factory=dict)
    files: list[SourceFile] = field(default_factory=list)
    build_files: list[str] = field(default_factory=list)  # CMakeLists.txt and setup.py, for executables
    # the scanned paths, relative to the root: a workspace root above them only lends its other packages to $(find)
    targets: tuple[str, ...] = ("",)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): unreadable dirs, duplicates
    _by_dir: dict[str, Package] = field(default_factory=dict, repr=False)

    def in_targets(self, path: str) -> bool:
        """Whether ``path`` (relative to the root) lies in a scanned path, not only in the workspace around them."""
        return any(not t or path == t or path.startswith(t + "/") for t in self.targets)

    def package_of(self, path: str) -> Package | None:
        """The innermost package holding ``path`` (a walk up its directories)."""
        if len(self._by_dir) != len(self.packages):
            self._by_dir = {p.path: p for p in self.packages.values()}
        d = path
        while True:
            pkg = self._by_dir.get(d)
            if pkg is not None:
                return pkg
            if not d:
                return None
            d = d.rpartition("/")[0]


def classify(name: str, rel: str = "") -> str | None:
    """The parser a file name calls for, or None when the scanner does not read it. ``rel``: the file's path,
    for ROS 1 launch files named ``*.xml`` in a ``launch`` folder (``launch/move_base.xml``, which roslaunch
    includes like any other)."""
    low = name.lower()
    if low.endswith((".launch.py", "_launch.py", "-launch.py")):
        return "launch_py"
    if low.endswith((".launch.yaml", ".launch.yml")):
        return "launch_yaml"
    if low.endswith((".yaml", ".yml")):
        return "params_yaml"
    if low.endswith((".launch", ".launch.xml")) or (low.endswith(".xml") and "launch" in rel.split("/")[:-1]):
        return "launch_xml"
    if low.endswith(".py"):
        return "python"
    if low.endswith(CPP_SUFFIXES):
        return "cpp"
    if low.endswith(XACRO_SUFFIXES):
        return "xacro"
    if low.endswith(".urdf"):
        return "urdf"
    if low.endswith((".sdf", ".world")):
        return "sdf"
    if low.endswith(".lua"):
        return "cartographer_lua"  # read only when it configures cartographer_ros
    return None


_YAML_LAUNCH = re.compile(rb"^launch[ \t]*:", re.MULTILINE)


def refine_kind(kind: str | None, path: str, rel: str) -> str | None:
    """A ``.yaml`` in a ``launch`` folder whose top-level key is ``launch:`` is a ROS 2 YAML launch file whatever its
    name (``ros2 launch sensor_interfacing panorama_cameras.yaml``); other YAML there holds parameters."""
    if kind != "params_yaml" or "launch" not in rel.split("/")[:-1]:
        return kind
    try:
        head = read_regular(path, 1 << 20)
    except (OSError, ReadRefused):
        return kind  # the parser reports what is wrong with it
    return "launch_yaml" if _YAML_LAUNCH.search(head) else kind


def _excluded(rel: str, name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*") for p in patterns)


def find_workspace(d: Path) -> Path | None:
    """The git repository or colcon/catkin workspace ``d`` lies in, when it is above ``d``: the nearest ancestor
    (8 levels at most) holding ``.git`` or a ``src`` folder beside a workspace marker (build, install, devel...)."""
    for parent in list(d.parents)[:8]:
        if (parent / ".git").exists() or ((parent / "src").is_dir() and any((parent / m).exists() for m in _WORKSPACE_MARKERS)):
            return parent
    return None


_WORKSPACE_MARKERS = (".catkin_workspace", ".catkin_tools", "build", "install", "devel", "log")


AUTO = "auto"
MAX_WORKSPACE_DIRS = 20000  # directories walked for the packages around the scanned paths (a home directory under git)
# `$(find pkg)`, `$(find-pkg-share pkg)`, `FindPackageShare('pkg')`, `get_package_share_directory("pkg")`, `package://pkg/`
_PACKAGE_REF = re.compile(
    r"""\$\(find(?:-pkg-share)?\s+([\w-]+)\)|(?:FindPackageShare|get_package_share_directory)\(\s*(?:package\s*=\s*)?['"]([\w-]+)['"]"""
    r"|package://([\w-]+)/"
)
_REFERRING_KINDS = frozenset({"launch_xml", "launch_py", "launch_yaml", "xacro", "urdf"})


def discover(paths: Iterable[str | Path], exclude: Iterable[str] = (), include_tests: bool = False,
             workspace: str | Path | None = None) -> Workspace:
    """Walk the given files and directories once. Symlinks are followed only where they stay inside
    the scan root (each directory once: loops are cut by device/inode); one that leaves it is a
    problem naming it, never followed (a link to ``/`` would walk the whole machine). Packages
    linked in from elsewhere are scanned when their directories are given too. Test folders and
    test files found on the walk are skipped unless ``include_tests``. ``workspace``: a directory above
    the paths (a repository or workspace root) whose other packages ``$(find pkg)`` may name; it becomes the
    root, its packages are indexed, and only the paths' files are read (``Workspace.targets``). ``"auto"``: the
    enclosing repository or workspace (``find_workspace``), used only when the paths name packages it holds and
    they do not."""
    resolved = [Path(p).resolve() for p in paths]
    for p in resolved:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or directory")
    dirs = [p if p.is_dir() else p.parent for p in resolved]
    common = Path(os.path.commonpath([str(d) for d in dirs]))
    around = Path(workspace).resolve() if workspace is not None and workspace != AUTO else None
    if around is not None and around != common and around not in common.parents:
        raise ValueError(f"--workspace {workspace}: the scanned paths are not inside it")
    if around is not None and around != common:
        return _in_workspace(resolved, around, tuple(exclude), include_tests)
    ws = _discover(resolved, common, tuple(exclude), [], include_tests)
    if not ws.packages:
        # Files or a folder inside one package: make the package the root, so $(find pkg) resolves.
        enclosing = sorted({e for e in (_enclosing_package(d) for d in dirs) if e is not None})
        if enclosing:
            ws = _discover(resolved, Path(os.path.commonpath([str(e) for e in enclosing])), tuple(exclude), enclosing, include_tests)
    if workspace == AUTO:
        around = find_workspace(ws.root)
        wanted = _unresolved_packages(ws) if around is not None else set()
        if around is not None and wanted:
            wider = _in_workspace(resolved, around, tuple(exclude), include_tests)
            if wanted & set(wider.packages):
                return wider
    return ws


def _in_workspace(resolved: list[Path], around: Path, patterns: tuple[str, ...], include_tests: bool) -> Workspace:
    """The paths' files, rooted at the workspace ``around`` them, with every package of the workspace indexed."""
    ws = _discover(resolved, around, patterns, [], include_tests)
    ws.targets = tuple(_rel(p, around) for p in resolved)
    _walk(around, around, ws, patterns, set(), include_tests, files=False)
    return ws


def _unresolved_packages(ws: Workspace) -> set[str]:
    """Packages the launch files and robot descriptions name (``$(find pkg)``...) that the scanned tree does not hold."""
    names: set[str] = set()
    for f in ws.files:
        if f.kind in _REFERRING_KINDS:
            try:
                text = read_regular(ws.root / f.path, 1 << 20).decode("utf-8", errors="replace")
            except OSError:
                continue
            names.update(next(g for g in m.groups() if g) for m in _PACKAGE_REF.finditer(text))
    return names - set(ws.packages)


def _discover(resolved: list[Path], root: Path, patterns: tuple[str, ...], packages: list[Path], include_tests: bool) -> Workspace:
    ws = Workspace(root)
    for pkg_dir in packages:
        _add_package(pkg_dir, _rel(pkg_dir, root), ws)
    seen_dirs: set[tuple[int, int]] = set()
    for p in resolved:
        if p.is_file():
            rel = p.relative_to(root).as_posix()
            kind = refine_kind(classify(p.name, rel), str(p), rel)
            if kind:
                ws.files.append(SourceFile(rel, kind, p.stat().st_size))
            continue
        _walk(p, root, ws, patterns, seen_dirs, include_tests)
    ws.files.sort(key=lambda f: f.path)
    return ws


def _enclosing_package(d: Path) -> Path | None:
    """The nearest directory at or above ``d`` holding a package.xml (or a rosbuild manifest.xml), within 8 levels."""
    for parent in [d, *d.parents][:9]:
        if (parent / "package.xml").is_file() or _rosbuild(parent, os.listdir(parent)):
            return parent
    return None


def _rosbuild(d: Path | str, names: Iterable[str]) -> bool:
    """A rosbuild package (ROS 1 before catkin, PR2's stacks): a manifest.xml beside a CMakeLists.txt, and no
    package.xml; it is named after its directory."""
    names = set(names)
    return "package.xml" not in names and "manifest.xml" in names and "CMakeLists.txt" in names


def _walk(top: Path, root: Path, ws: Workspace, patterns: tuple[str, ...], seen: set[tuple[int, int]], include_tests: bool,
          files: bool = True) -> None:
    """Packages and source files under ``top``; with ``files`` False, the workspace around the scanned paths: its
    packages only, those of the paths (already walked) and duplicates left as they are."""
    # Directories as strings (normalised, as pathlib would make them): thousands of them, pathlib is slow.
    root_s = str(root)
    real_root = os.path.realpath(root_s)
    stack = [str(top)]
    budget = MAX_WORKSPACE_DIRS
    while stack:
        d = stack.pop()
        if not files:
            budget -= 1
            if budget < 0:
                break
        try:
            st = os.stat(d)
        except OSError as exc:
            ws.problems.append((_rel_str(d, root_s), f"cannot read directory: {exc.strerror}"))
            continue
        if (st.st_dev, st.st_ino) in seen:
            continue  # symlink loop or a package linked in twice
        seen.add((st.st_dev, st.st_ino))
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as exc:
            ws.problems.append((_rel_str(d, root_s), f"cannot read directory: {exc.strerror}"))
            continue
        names = {e.name for e in entries}
        if any(m in names for m in IGNORE_MARKERS):
            continue
        rel_dir = _rel_str(d, root_s)
        if not files and ws.in_targets(rel_dir):
            continue
        if "package.xml" in names or _rosbuild(d, names):
            if files:
                _add_package(Path(d), rel_dir, ws)
            elif not any(p.path == rel_dir for p in ws.packages.values()):
                _add_package(Path(d), rel_dir, Workspace(root, ws.packages))
        for e in entries:
            rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
            if _excluded(rel, e.name, patterns):
                continue
            if e.is_symlink():
                target = os.path.realpath(e.path)
                if target != real_root and not target.startswith(real_root.rstrip(os.sep) + os.sep):
                    ws.problems.append((rel, f"symbolic link to {target}, outside the scanned tree; not followed "
                                             "(give that path too to scan it)"))
                    continue
            try:
                is_dir = e.is_dir()  # follows symlinks
            except OSError:
                continue
            if is_dir:
                if e.name not in SKIP_DIRS and not e.name.startswith(".") and (include_tests or e.name not in TEST_DIRS):
                    stack.append(e.path)
                continue
            if not files:
                continue
            if e.name in ("CMakeLists.txt", "setup.py"):
                ws.build_files.append(rel)
            kind = refine_kind(classify(e.name, rel), e.path, rel)
            if kind is None and "." not in e.name and e.name not in _NOT_SCRIPTS and _python_script(e.path):
                kind = "python"  # a ROS 1 executable installed by catkin_install_python: scripts/nmea_serial_driver
            if kind and (include_tests or kind not in ("cpp", "python", "launch_py") or not is_test_file(e.name)):
                try:
                    size = e.stat().st_size
                except OSError:
                    continue  # dangling symlink
                ws.files.append(SourceFile(rel, kind, size))


_NOT_SCRIPTS = frozenset({"LICENSE", "README", "AUTHORS", "CONTRIBUTORS", "COPYING", "NOTICE", "Makefile", "Dockerfile", "CHANGELOG"})


def _python_script(path: str) -> bool:
    """An extension-less regular file whose first line is a Python shebang (``#!/usr/bin/env python``). Only its
    first bytes are read, never from a FIFO or device."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as fh:
            head = fh.read(128)
    except OSError:
        return False
    first = head.split(b"\n", 1)[0]
    return first.startswith(b"#!") and b"python" in first


def _rel(d: Path, root: Path) -> str:
    try:
        rel = d.relative_to(root).as_posix()
    except ValueError:  # reached through a symlink pointing outside the root
        rel = d.as_posix()
    return "" if rel == "." else rel


def _rel_str(d: str, root: str) -> str:
    """``_rel(Path(d), Path(root))`` for normalised path strings."""
    if os.sep != "/":
        return _rel(Path(d), Path(root))
    if d == root:
        return ""
    prefix = root if root.endswith("/") else root + "/"
    return d[len(prefix):] if d.startswith(prefix) else d


def _add_package(d: Path, rel_dir: str, ws: Workspace) -> None:
    if not (d / "package.xml").exists() and (d / "manifest.xml").is_file():
        if d.name not in ws.packages:
            ws.packages[d.name] = Package(d.name, rel_dir, 1)
        return
    try:
        text = read_regular(d / "package.xml", 1 << 20).decode("utf-8", errors="replace")
    except ReadRefused as exc:
        ws.problems.append((f"{rel_dir}/package.xml".lstrip("/"), str(exc)))
        return
    except OSError as exc:
        ws.problems.append((f"{rel_dir}/package.xml".lstrip("/"), f"cannot read: {exc.strerror}"))
        return
    m = _NAME_RE.search(text)
    if not m:
        ws.problems.append((f"{rel_dir}/package.xml".lstrip("/"), "package.xml has no <name>"))
        return
    name = m.group(1)
    version = 1 if re.search(r"<buildtool_depend>\s*catkin\s*<", text) else 2
    if name in ws.packages:
        ws.problems.append((f"{rel_dir}/package.xml".lstrip("/"), f"package '{name}' also defined in {ws.packages[name].path or '.'}; using the first"))
        return
    ws.packages[name] = Package(name, rel_dir, version)
