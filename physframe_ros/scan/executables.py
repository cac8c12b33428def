"""Which source files make up each node executable: CMakeLists.txt and setup.py, read as text.

``add_executable(name srcs...)``, ``add_library`` linked with ``target_link_libraries`` or registered with
``rclcpp_components_register_node(... PLUGIN "ns::Class" EXECUTABLE name)`` (the plugin class is what
a composable node names), ``set(VAR ...)`` and ``${PROJECT_NAME}``, ``OUTPUT_NAME`` renames,
``install(PROGRAMS script [RENAME name])`` and ``catkin_install_python(PROGRAMS ...)`` script nodes;
setup.py ``console_scripts`` entry points ``name = pkg.module:main``. ROS 1 Python nodes are scripts
named by ``<node type=...>`` and found by file name in the package. A ROS 1 nodelet is named by its plugin's lookup
name (``<node pkg="nodelet" type="nodelet" args="load fla_ukf/FLAUKFNodelet manager">``): the plugin description its
package.xml exports (``<nodelet plugin="${prefix}/nodelet_plugins.xml"/>``) gives the class's library
(``<library path="lib/libfla_ukf_nodelet">``), and CMakeLists.txt that library's sources.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict

from .context import read_regular
from .discovery import Package, Workspace
from .xml_lines import XmlError, parse_xml

_COMMANDS = (r"project|set|add_executable|add_library|target_link_libraries|rclcpp_components_register_nodes?|cuda_add_executable|"
             r"set_target_properties|install|catkin_install_python")
_CALL = re.compile(rf"\b({_COMMANDS})\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.I | re.S)
_VAR = re.compile(r"\$\{(\w+)\}")
_ENTRY = re.compile(r"""['"]\s*([\w.-]+)\s*=\s*([\w.]+)\s*(?::\s*\w+)?\s*['"]""")
_KEYWORDS = frozenset({"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "SHARED", "STATIC", "MODULE", "OBJECT", "INTERFACE", "PUBLIC",
                       "PRIVATE", "IMPORTED", "ALIAS", "PLUGIN", "EXECUTABLE", "CACHE", "STRING", "PARENT_SCOPE"})
# install(PROGRAMS ...) arguments that end the file list
_INSTALL_KEYWORDS = frozenset({"DESTINATION", "PERMISSIONS", "CONFIGURATIONS", "COMPONENT", "RENAME", "OPTIONAL", "EXCLUDE_FROM_ALL"})

ExecutableMap = dict[tuple[str, str], list[str]]


def executable_sources(ws: Workspace) -> ExecutableMap:
    """(package, executable) -> source files (relative to the scan root)."""
    out: ExecutableMap = {}
    libraries: dict[str, tuple[Package, dict[str, list[str]]]] = {}  # package name -> (package, its CMake libraries)
    for build_file in ws.build_files:
        pkg = ws.package_of(build_file)
        if pkg is None:
            continue
        try:
            text = read_regular(ws.root / build_file).decode("utf-8", errors="replace")
        except OSError:  # unreadable, not a regular file, or too large: no executables from it
            continue
        folder = os.path.dirname(build_file)
        if build_file.endswith("CMakeLists.txt"):
            exes, libs = _cmake(text, folder)
            for exe, srcs in exes.items():
                out.setdefault((pkg.name, exe), []).extend(srcs)
            libraries.setdefault(pkg.name, (pkg, {}))[1].update(libs)
        else:
            for exe, src in _setup_py(text, folder):
                out.setdefault((pkg.name, exe), []).append(src)
    for pkg, libs in libraries.values():  # a package's nodelets, once, whichever of its CMakeLists builds their library
        for lookup, lib in _nodelets(ws, pkg):
            for key in {(pkg.name, lookup), (lookup.split("/")[0], lookup)}:
                out.setdefault(key, []).extend(libs.get(lib, ()))
    return out


def _cmake(text: str, folder: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The executables' sources, and the libraries' (each with those of the libraries it links)."""
    text = re.sub(r"#[^\n]*", "", text)
    variables: dict[str, str] = {}
    libs: dict[str, list[str]] = {}
    exes: dict[str, list[str]] = {}
    links: dict[str, list[str]] = defaultdict(list)
    renamed: dict[str, str] = {}  # OUTPUT_NAME -> target: what a launch file names is the installed name

    def expand(word: str) -> str:
        return _VAR.sub(lambda m: variables.get(m.group(1), ""), word)

    for m in _CALL.finditer(text):
        cmd = m.group(1).lower()
        words = [expand(w) for w in m.group(2).replace('"', " ").split()]
        if not words:
            continue
        if cmd == "project":
            variables["PROJECT_NAME"] = words[0]
        elif cmd == "set":
            variables[words[0]] = " ".join(w for w in words[1:] if w not in _KEYWORDS)
        elif cmd in ("add_executable", "cuda_add_executable", "add_library"):
            srcs = [_src(folder, s) for w in words[1:] for s in w.split() if s not in _KEYWORDS and "." in s]
            (libs if cmd == "add_library" else exes)[words[0]] = srcs
        elif cmd == "target_link_libraries":
            links[words[0]].extend(w for w in words[1:] if w not in _KEYWORDS)
        elif cmd == "set_target_properties":
            if "OUTPUT_NAME" in words[:-1]:
                renamed[words[words.index("OUTPUT_NAME") + 1]] = words[0]
        elif cmd in ("install", "catkin_install_python"):
            # install(PROGRAMS scripts/node.py DESTINATION lib/${PROJECT_NAME} [RENAME node]): a script node
            if words[0] != "PROGRAMS":
                continue
            files = []
            for w in words[1:]:
                if w in _INSTALL_KEYWORDS:
                    break
                files.append(w)
            rename = words[words.index("RENAME") + 1] if "RENAME" in words[:-1] else None
            for f in files:
                exes.setdefault(rename if rename and len(files) == 1 else os.path.basename(f), []).append(_src(folder, f))
        else:  # rclcpp_components_register_node(s)(lib [PLUGIN] "x::Y" ... [EXECUTABLE name])
            names = [w for w in words[1:] if "::" in w]  # plugin classes: what a ComposableNode names
            if "EXECUTABLE" in words and words.index("EXECUTABLE") + 1 < len(words):
                names.append(words[words.index("EXECUTABLE") + 1])
            for name in names:
                links[name].append(words[0])
                exes.setdefault(name, [])
    def linked(target: str) -> list[str]:
        out: list[str] = []
        seen: set[str] = set()
        stack = list(links.get(target, ()))
        while stack:
            lib = stack.pop()
            if lib in seen or lib not in libs:
                continue
            seen.add(lib)
            out.extend(libs[lib])
            stack.extend(links.get(lib, ()))
        return out

    for exe, srcs in exes.items():
        srcs.extend(linked(exe))
    for name, target in renamed.items():
        if target in exes:
            exes.setdefault(name, exes[target])
        if target in libs:
            libs.setdefault(name, libs[target])
    return exes, {lib: [*srcs, *(s for s in linked(lib) if s not in srcs)] for lib, srcs in libs.items()}


_NODELET_EXPORT = re.compile(r"<nodelet\s+plugin\s*=\s*[\"']\$\{prefix\}/([^\"']+)[\"']")


def _nodelets(ws: Workspace, pkg: Package) -> list[tuple[str, str]]:
    """(lookup name, CMake library) of each nodelet class the package's plugin descriptions export."""
    folder = ws.root / pkg.path if pkg.path else ws.root
    try:
        manifest = read_regular(folder / "package.xml").decode("utf-8", errors="replace")
    except OSError:
        return []
    out = []
    inside = ws.root.resolve()
    for rel in _NODELET_EXPORT.findall(manifest):
        path = (folder / rel).resolve()
        if not path.is_relative_to(inside):
            continue  # `${prefix}/../..` or a symlink out of the tree: never read
        try:
            root = parse_xml(read_regular(path).decode("utf-8", errors="replace"))
        except (OSError, XmlError):
            continue  # a plugin description that is absent or broken names no nodelet
        libraries = [root] if root.tag == "library" else root.findall("library")
        for library in libraries:
            lib = os.path.basename(library.get("path") or "")
            lib = lib[3:] if lib.startswith("lib") else lib
            for cls in library.findall("class"):
                lookup = cls.get("name") or cls.get("type") or ""
                if lookup and lib and "nodelet" in (cls.get("base_class_type") or ""):
                    out.append((lookup, lib))
    return out


def _src(folder: str, path: str) -> str:
    return os.path.normpath(os.path.join(folder, path)).replace(os.sep, "/") if folder else os.path.normpath(path)


def _setup_py(text: str, folder: str) -> list[tuple[str, str]]:
    block = text.split("console_scripts", 1)
    if len(block) < 2:
        return []
    body = block[1].split("]", 1)[0]
    return [(name, _src(folder, module.replace(".", "/") + ".py")) for name, module in _ENTRY.findall(body)]
