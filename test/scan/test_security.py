"""Hostile trees: nothing in them runs, nothing outside them is read, every file's work is bounded.

Each attack would write a marker file if executed, or put a secret from outside the tree into the
report; the reports (text, JSON, SARIF) are checked for neither, and for a clear note."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import pytest

from physframe_ros.cli import main
from physframe_ros.scan import safe_eval
from physframe_ros.scan.safe_eval import BUILTINS, MATH, ExpressionLimit, UnsafeExpression, evaluate
from physframe_ros.scan.scanner import scan

SECRET = "TOPSECRET-8c1f"
XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
PARENS = '<xacro:property name="l" value="("/><xacro:property name="r" value=")"/>'


def _tree(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path, Path]:
    """A scanned tree ``ws`` with package ``pkg`` holding ``files``; the secret and marker outside it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / "secret.yaml").write_text(f"leak: {SECRET}\n")
    (outside / "secret.xacro").write_text(f'<robot {XACRO_NS}><link name="{SECRET}"/></robot>\n')
    ws = tmp_path / "ws"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "package.xml").write_text('<package format="3"><name>pkg</name></package>\n')
    marker = tmp_path / "MARKER"
    for rel, text in files.items():
        path = ws / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("@MARKER@", str(marker)).replace("@OUT@", str(outside)))
    return ws, outside, marker


def _reports(ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Text, JSON and SARIF reports of ``ws`` (and the expected tree), concatenated."""
    out = []
    for fmt in ("text", "json", "sarif"):
        main(["scan", str(ws), "--format", fmt, "--no-progress", "--expected-out", str(tmp_path / f"expected.{fmt}.yaml")])
        out.append(capsys.readouterr().out)
        out.append((tmp_path / f"expected.{fmt}.yaml").read_text())
    return "\n".join(out)


def _robot(body: str) -> str:
    return f'<robot name="r" {XACRO_NS}>{PARENS}<link name="base_link"/>{body}</robot>\n'


ATTACKS = {
    # $(eval) with the parentheses xacro's lexer refuses built from ${} properties: real xacro runs it
    "eval_open": _robot("<link name=\"$(eval open${l}'@MARKER@','w'${r}.write${l}'x'${r})\"/>"),
    "eval_exec": _robot("<link name=\"$(eval exec${l}'import os; os.system(\\'touch @MARKER@\\')'${r})\"/>"),
    "eval_import": _robot("<link name=\"$(eval __import__${l}'os'${r}.system${l}'touch @MARKER@'${r})\"/>"),
    # ${} without a double underscore: xacro's own guard lets these through
    "expr_type": _robot("<link name=\"${python.type(python.vars)}\"/>"),
    "expr_getattr": _robot("<link name=\"${[c for c in python.type(1).mro()]}\"/>"),
    "expr_builtin_str": _robot("<link name=\"${python.vars(python)}\"/>"),
    # reading outside the tree
    "yaml_abs": _robot("<link name=\"${xacro.load_yaml('@OUT@/secret.yaml')['leak']}\"/>"),
    "yaml_rel": _robot("<link name=\"${load_yaml('../../../outside/secret.yaml').leak}\"/>"),
    "include_abs": _robot('<xacro:include filename="@OUT@/secret.xacro"/>'),
    "include_rel": _robot('<xacro:include filename="../../../outside/secret.xacro"/>'),
    "include_find": _robot('<xacro:include filename="$(find pkg)/../../outside/secret.xacro"/>'),
    "include_glob": _robot('<xacro:include filename="@OUT@/*.xacro"/>'),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_hostile_xacro_neither_runs_nor_reads_outside(tmp_path: Path, capsys: pytest.CaptureFixture[str], attack: str) -> None:
    ws, _outside, marker = _tree(tmp_path, {f"urdf/{attack}.urdf.xacro": ATTACKS[attack]})
    reports = _reports(ws, tmp_path, capsys)
    assert not marker.exists()
    assert SECRET not in reports
    assert f"pkg/urdf/{attack}.urdf.xacro" in reports and "PARSE_ERROR" in reports


def test_the_note_names_what_was_tried(tmp_path: Path) -> None:
    ws, outside, _marker = _tree(tmp_path, {"urdf/r.urdf.xacro": ATTACKS["include_abs"]})
    [note] = [f.message for f in scan([ws]).findings if f.code == "PARSE_ERROR"]
    assert note == (f"pkg/urdf/r.urdf.xacro: xacro tried to read {outside}/secret.xacro, which is outside the scanned tree; "
                    "not read; its joints are not checked")


def test_a_symlink_leaving_the_tree_is_not_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, outside, _marker = _tree(tmp_path, {"urdf/r.urdf.xacro": _robot('<xacro:include filename="inc.xacro"/>')})
    (ws / "pkg" / "urdf" / "inc.xacro").symlink_to(outside / "secret.xacro")
    (ws / "pkg" / "linked.urdf").symlink_to(outside / "secret.xacro")
    (ws / "pkg" / "root").symlink_to("/")  # discovery would walk the whole machine
    t0 = time.perf_counter()
    reports = _reports(ws, tmp_path, capsys)
    assert time.perf_counter() - t0 < 30
    assert SECRET not in reports
    result = scan([ws])
    notes = {f.location.file: f.message for f in result.findings if f.code == "PARSE_ERROR" and f.location}
    assert notes["pkg/root"] == "pkg/root: symbolic link to /, outside the scanned tree; not followed (give that path too to scan it)"
    assert "pkg/linked.urdf" in notes
    assert "outside the scanned tree" in notes["pkg/urdf/r.urdf.xacro"]
    assert result.files == 1  # only r.urdf.xacro; nothing under / was listed


def test_a_launch_file_loading_a_hostile_xacro_runs_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, _outside, marker = _tree(tmp_path, {
        "urdf/evil.urdf.xacro": ATTACKS["eval_open"],
        "launch/robot.launch.py": (
            "from launch import LaunchDescription\nfrom launch.substitutions import Command\nfrom launch_ros.actions import Node\n"
            "from launch_ros.substitutions import FindPackageShare\n"
            "def generate_launch_description():\n"
            "    desc = Command(['xacro ', FindPackageShare('pkg'), '/urdf/evil.urdf.xacro', ' name:=x'])\n"
            "    return LaunchDescription([Node(package='robot_state_publisher', executable='robot_state_publisher',\n"
            "                                   parameters=[{'robot_description': desc}])])\n"),
        "launch/robot.launch": ("<launch><arg name='model' default='$(find pkg)/urdf/evil.urdf.xacro'/>"
                                "<param name='robot_description' command=\"$(find xacro)/xacro '$(arg model)' a:=$(eval 1+1)\"/>"
                                "<node pkg='robot_state_publisher' type='robot_state_publisher' name='rsp'/></launch>\n"),
        "launch/robot.launch.yaml": "launch:\n- let: {name: x, value: !!python/object/apply:os.system ['touch @MARKER@']}\n",
    })
    reports = _reports(ws, tmp_path, capsys)
    assert not marker.exists()
    assert "not evaluated" in reports or "not defined" in reports


def test_a_roslaunch_eval_runs_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """roslaunch's `$(eval)` goes through the scan's interpreter: what could run code or read files stays unknown, and
    an element it would have decided is kept (nothing is left out on a value the scan refused to compute)."""
    attacks = ["open('@MARKER@', 'w').write('x')", "__import__('os').system('touch @MARKER@')",
               "exec('import os; os.system(\\'touch @MARKER@\\')')", "[c for c in ().__class__.__base__.__subclasses__()]",
               "open('@OUT@/secret.txt').read()", "'x' * 10**9"]
    params = "".join(f'<param name="frame_{i}" value="$(eval {a})"/><param if="$(eval {a})" name="odom_frame" value="/odom"/>'
                     for i, a in enumerate(attacks))
    ws, _outside, marker = _tree(tmp_path, {"launch/evil.launch": f'<launch><node pkg="p" type="n" name="n">{params}</node></launch>\n'})
    reports = _reports(ws, tmp_path, capsys)
    assert not marker.exists() and SECRET not in reports
    assert "parameter 'odom_frame' of node 'n': frame id '/odom'" in reports


def test_yaml_tags_and_aliases_in_loaded_yaml_are_harmless(tmp_path: Path) -> None:
    bomb = "a: &a ['xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx','xxxxxxxxxx']\n"
    for i in range(1, 9):
        bomb += f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]\n"
    ws, _outside, marker = _tree(tmp_path, {
        "urdf/tags.yaml": "x: !!python/object/apply:os.system ['touch @MARKER@']\n",
        "urdf/bomb.yaml": bomb,
        "urdf/tags.urdf.xacro": _robot("<link name=\"${load_yaml('tags.yaml')}\"/>"),
        "urdf/bomb.urdf.xacro": _robot("<link name=\"${str(load_yaml('bomb.yaml'))}\"/>"),
    })
    t0 = time.perf_counter()
    notes = {f.location.file: f.message for f in scan([ws]).findings if f.location}
    assert time.perf_counter() - t0 < 20
    assert not marker.exists()
    assert "could not determine a constructor" in notes["pkg/urdf/tags.urdf.xacro"]
    assert "limit" in notes["pkg/urdf/bomb.urdf.xacro"]


BOMBS = {
    # 200 bytes that reach gigabytes through real xacro: a doubling property chain ...
    "doubling": _robot('<xacro:property name="p0" value="xxxxxxxxxxxxxxxx"/>'
                       + "".join(f'<xacro:property name="p{i}" value="${{p{i - 1}}}${{p{i - 1}}}"/>' for i in range(1, 40))
                       + '<link name="${p39}"/>'),
    # ... one text joining the same large value many times ...
    "joined": _robot('<xacro:property name="a" value="${\'x\' * 900000}"/><link name="' + "${a}" * 2000 + '"/>'),
    # ... a macro that calls itself twice ...
    "macro_tree": _robot('<xacro:macro name="m" params="d"><xacro:if value="${d &lt; 60}"><link name="l${d}"/>'
                         '<xacro:m d="${d+1}"/><xacro:m d="${d+1}"/></xacro:if></xacro:macro><xacro:m d="0"/>'),
    # ... without end ...
    "macro_loop": _robot('<xacro:macro name="m"><xacro:m/></xacro:macro><xacro:m/>'),
    # ... and arithmetic that builds huge values
    "power": _robot('<link name="${9**9**9}"/>'),
    "repeat": _robot("<link name=\"${'x' * 10**12}\"/>"),
    "range": _robot('<link name="${len(list(range(10**12)))}"/>'),
    "comprehension": _robot('<link name="${len([1 for a in range(10**5) for b in range(10**5)])}"/>'),
    "format": _robot("<link name=\"${'%999999999s' % 'x'}\"/>"),
}


@pytest.mark.parametrize("bomb", sorted(BOMBS))
def test_xacro_expansion_is_bounded(tmp_path: Path, bomb: str) -> None:
    ws, _outside, _marker = _tree(tmp_path, {"urdf/b.urdf.xacro": BOMBS[bomb]})
    t0 = time.perf_counter()
    [note] = [f.message for f in scan([ws]).findings if f.code == "PARSE_ERROR"]
    assert time.perf_counter() - t0 < 30
    assert "limit" in note or "longer than" in note, note


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_special_files_are_never_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, _outside, _marker = _tree(tmp_path, {"urdf/ok.urdf": "<robot name='r'><link name='a'/></robot>\n"})
    os.mkfifo(ws / "pkg" / "blocks.launch.py")
    os.mkfifo(ws / "pkg" / "CMakeLists.txt")
    os.mkfifo(ws / "pkg" / "gps_node")  # extension-less: its shebang is looked for, never on a FIFO
    if os.path.exists("/dev/zero"):
        os.symlink(ws / "pkg" / "zero.urdf", ws / "pkg" / "zero_link.urdf")  # a link inside the tree to a device
        os.symlink("/dev/zero", ws / "pkg" / "zero.urdf")
    t0 = time.perf_counter()
    reports = _reports(ws, tmp_path, capsys)
    assert time.perf_counter() - t0 < 30
    assert "pkg/blocks.launch.py: not a regular file (FIFO, device or socket); not read" in reports


def test_a_file_over_the_size_limit_is_skipped_and_not_reread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, _outside, _marker = _tree(tmp_path, {"big.urdf": "<robot name='r'>" + " " * (5 << 20) + "</robot>\n"})
    reports = _reports(ws, tmp_path, capsys)
    assert "pkg/big.urdf: larger than 4 MB; skipped" in reports


@pytest.mark.parametrize("kind", ["py", "py%", "cpp"])
def test_doubling_values_in_code_are_bounded(tmp_path: Path, kind: str) -> None:
    if kind.startswith("py"):
        double = "a = '%s%s' % (a, a)\n" if kind == "py%" else "a = a + a\n"
        code = "import tf2_ros\na = 'x'\n" + double * 45 + "t.header.frame_id = a\nbr.sendTransform(t)\n"
        kind = "py"
    else:
        code = ('#include <tf2_ros/transform_broadcaster.h>\nvoid f() {\n  std::string a = "x";\n' + "  a = a + a;\n" * 45
                + "  t.header.frame_id = a;\n  br.sendTransform(t);\n}\n")
    ws, _outside, _marker = _tree(tmp_path, {f"src/node.{kind}": code})
    t0 = time.perf_counter()
    result = scan([ws])
    assert time.perf_counter() - t0 < 30
    assert all(len(e.child) < 10_000 and len(e.parent) < 10_000 for e in result.expected.edges)


# --- the evaluator itself ----------------------------------------------------------------------------
NAMES = {**BUILTINS, **MATH, "a": "left", "n": 3, "xs": [1.0, 2.0, 3.0], "d": {"k": "v"}}


@pytest.mark.parametrize("expr, value", [
    ("pi/2", math.pi / 2), ("radians(90)", math.pi / 2), ("a == 'left'", True), ("a + '_wheel'", "left_wheel"),
    ("n * 2 if n > 2 else 0", 6), ("-n ** 2", -9), ("xs[1:]", [2.0, 3.0]), ("d['k']", "v"), ("d.get('z', 1)", 1),
    ("[x * 2 for x in xs if x > 1]", [4.0, 6.0]), ("' '.join(str(x) for x in xs)", "1.0 2.0 3.0"), ("a.upper()", "LEFT"),
    ("'%s_%d' % (a, n)", "left_3"), ("f'{a}_link'", "left_link"), ("sorted(d.keys())", ["k"]), ("max(xs) - min(xs)", 2.0),
    ("sum(xs)", 6.0), ("list(map(int, xs))", [1, 2, 3]), ("round(sqrt(2), 3)", 1.414), ("not a or n", 3),
    ("1 < n <= 3", True), ("'0 0 1'.split()", ["0", "0", "1"]), ("dict(zip(['x'], [1]))", {"x": 1}), ("len(range(10))", 10),
])
def test_the_evaluator_computes_what_descriptions_use(expr: str, value: object) -> None:
    assert evaluate(expr, NAMES) == value


@pytest.mark.parametrize("expr", [
    "__import__('os')", "().__class__", "''.__class__.__mro__", "a.__class__", "xs.append", "open('/etc/passwd')",
    "getattr(a, 'upper')", "eval('1')", "exec('1')", "lambda: 1", "(lambda: 1)()", "type(1)", "vars()", "globals()",
    "a.format(1)", "'{0.__class__}'.format(a)", "[].pop", "str.join", "int.__subclasses__()", "d.__getitem__('k')",
    "[f for f in (lambda: 1,)]", "{**d}", "f'{a!s:>{n}}'", "a.upper.__self__",
])
def test_the_evaluator_refuses_what_could_run_code(expr: str) -> None:
    with pytest.raises((UnsafeExpression, NameError)):
        evaluate(expr, NAMES)


@pytest.mark.parametrize("expr", [
    "'x' * 10**9", "[0] * 10**9", "2 ** 100000", "1 << 100000", "'%999999999d' % 1", "'a'.ljust(10**9)",
    "list(range(10**9))", "[x for x in range(10**5) for y in range(10**5)]", "('x' * 10**6).replace('x', 'yy')",
    "'-'.join(['x' * 10**5] * 20)", "str([['x' * 10**5] * 10] * 10)", "factorial(10**6)", "10**4000 * 10**4000",
])
def test_the_evaluator_stops_at_its_limits(expr: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(ExpressionLimit):
        evaluate(expr, NAMES)
    assert time.perf_counter() - t0 < 5


def test_limits_are_what_the_docs_say() -> None:
    assert (safe_eval.MAX_STR, safe_eval.MAX_ITEMS, safe_eval.MAX_INT_BITS) == (1_000_000, 100_000, 4096)


def test_reports_strip_terminal_escapes_from_frame_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evil = "b\\x1b[2J\\x1b]0;pwn\\x07"  # clears the screen and retitles the terminal
    stp = "Node(package='tf2_ros', executable='static_transform_publisher', arguments=['--frame-id', '{p}', '--child-frame-id', '{c}'])"
    ws, _outside, _marker = _tree(tmp_path, {"launch/two.launch.py": (
        "from launch import LaunchDescription\nfrom launch_ros.actions import Node\n"
        "def generate_launch_description():\n    return LaunchDescription([\n        "
        + ",\n        ".join(stp.format(p=p, c=evil) for p in ("a", "z")) + "])\n")})
    main(["scan", str(ws), "--no-progress"])
    text = capsys.readouterr().out
    assert "INVALID_FRAME_ID" in text and "b\\x1b[2J\\x1b]0;pwn\\x07" in text  # shown, as visible escapes
    assert "\x1b" not in text and "\x07" not in text
    main(["scan", str(ws), "--no-progress", "--format", "json"])
    assert "b\x1b[2J\x1b]0;pwn\x07" in json.loads(capsys.readouterr().out)["tree"]["frames"]  # data formats keep it exact


def test_a_file_that_needs_too_much_memory_costs_only_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from physframe_ros.scan import scanner

    ws, _outside, _marker = _tree(tmp_path, {
        "a_hungry.urdf": "<robot name='r'/>\n",
        "b_ok.urdf": "<robot name='r'><link name='a'/><link name='b'/><joint name='j' type='fixed'><parent link='a'/>"
                     "<child link='b'/></joint></robot>\n"})
    dispatch = scanner._dispatch

    def hungry(text: str, rel: str, *args: object) -> object:
        if rel.endswith("a_hungry.urdf"):
            return bytearray(4 << 30)  # stands in for a parser that keeps allocating
        return dispatch(text, rel, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(scanner, "_dispatch", hungry)  # forked workers inherit it
    result = scan([ws])
    notes = [f.message for f in result.findings if f.code == "PARSE_ERROR"]
    assert notes == ["pkg/a_hungry.urdf: analysing it needs more than the memory limit of 1024 MB; the file is not checked"]
    assert [(e.parent, e.child) for e in result.expected.edges] == [("a", "b")]


def test_declared_source_encodings_are_honoured(tmp_path: Path) -> None:
    ws, _outside, _marker = _tree(tmp_path, {})
    def robot(parent: str, child: str) -> str:
        return (f"<robot name='r'><link name='{parent}'/><link name='{child}'/><joint name='j' type='fixed'><parent link='{parent}'/>"
                f"<child link='{child}'/></joint></robot>\n")

    (ws / "pkg" / "latin1.urdf").write_bytes(("<?xml version='1.0' encoding='ISO-8859-1'?>\n" + robot("a", "cam\u00e9ra")).encode("latin-1"))
    (ws / "pkg" / "utf16.urdf").write_bytes(robot("b", "kam\u00e9ra").encode("utf-16"))
    (ws / "pkg" / "cookie.launch.py").write_bytes((
        "# -*- coding: latin-1 -*-\nfrom launch import LaunchDescription\nfrom launch_ros.actions import Node\n"
        "def generate_launch_description():\n    return LaunchDescription([Node(package='tf2_ros', executable='static_transform_publisher',"
        " arguments=['--frame-id', 'c', '--child-frame-id', 'p\u00e9'])])\n").encode("latin-1"))
    edges = {(e.parent, e.child) for e in scan([ws]).expected.edges}
    assert edges == {("a", "cam\u00e9ra"), ("b", "kam\u00e9ra"), ("c", "p\u00e9")}


def test_windows_line_ends_are_line_ends(tmp_path: Path) -> None:
    """DukeRobotics' robosub static transforms YAML, saved with CRLF: `frame_id: base_link` is base_link, not a frame
    name ending in a carriage return (whitespace tf2 rejects); lines keep their numbers."""
    ws, _outside, _marker = _tree(tmp_path, {})
    (ws / "pkg" / "transforms.yaml").write_bytes(b"transforms:\r\n  imu:\r\n    frame_id: base_link\r\n    child_frame_id: '/imu'\r\n")
    found = [(f.code, f.location and f.location.line) for f in scan([ws]).findings if f.code == "INVALID_FRAME_ID"]
    assert found == [("INVALID_FRAME_ID", 4)]


def _tagged_processes(tag: str) -> list[int]:
    """Processes whose environment holds ``tag`` (the scan and the workers it forked)."""
    pids = []
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and f"PHYSFRAME_TEST_TAG={tag}".encode() in (d / "environ").read_bytes():
                pids.append(int(d.name))
        except OSError:
            pass
    return pids


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_ctrl_c_stops_the_scan_and_its_workers(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import uuid

    slow = _robot('<xacro:macro name="m" params="d"><xacro:if value="${d &lt; 18}"><link name="l${d}"/>'
                  '<xacro:m d="${d+1}"/><xacro:m d="${d+1}"/></xacro:if></xacro:macro><xacro:m d="0"/>')
    ws, _outside, _marker = _tree(tmp_path, {f"urdf/slow{i}.urdf.xacro": slow for i in range(4)})
    tag = uuid.uuid4().hex
    proc = subprocess.Popen([sys.executable, "-m", "physframe_ros.cli", "scan", str(ws), "--no-progress", "--jobs", "2"],
                            env={**os.environ, "PHYSFRAME_TEST_TAG": tag}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # as a terminal starts it: a runner started in the background (colcon test) leaves SIGINT ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 20
    while len(_tagged_processes(tag)) < 3 and time.monotonic() < deadline:  # the scan and two workers
        time.sleep(0.1)
    assert len(_tagged_processes(tag)) == 3
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=10)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    assert _tagged_processes(tag) == []


def test_what_real_descriptions_use_still_expands(tmp_path: Path) -> None:
    seeds = Path(__file__).parent / "fuzz_seeds"
    ws, _outside, _marker = _tree(tmp_path, {
        "urdf/arm.urdf.xacro": (seeds / "arm.urdf.xacro").read_text(),  # properties, math, macros with blocks, if, $(arg), $(eval)
        "urdf/limits.yaml": (seeds / "limits.yaml").read_text(),  # xacro.load_yaml of in-tree YAML, dotified
        "urdf/ns.urdf.xacro": _robot(
            '<xacro:arg name="side" default="left"/><xacro:property name="cfg" value="${dotify(dict(a=1))}"/>'
            "<xacro:property name=\"names\" value=\"${[s + '_wheel' for s in ['front', 'rear']]}\"/>"
            "<link name=\"${names[1]}\"/><link name=\"$(arg side)_${cfg.a}\"/>"
            "<joint name=\"j\" type=\"fixed\"><parent link=\"base_link\"/><child link=\"${names[1]}\"/></joint>"
            "<joint name=\"k\" type=\"fixed\"><parent link=\"base_link\"/>"
            "<child link=\"$(eval side + '_' + 'x' * 2 if pi &gt; 3 else '')\"/></joint>"),
    })
    result = scan([ws])
    assert [f.message for f in result.findings if f.code == "PARSE_ERROR"] == []
    edges = {(e.parent, e.child) for e in result.expected.edges}
    assert {("base_link", "shoulder_link"), ("shoulder_link", "camera_link"), ("shoulder_link", "tool0"),
            ("base_link", "rear_wheel"), ("base_link", "left_xx")} <= edges
    assert [e.static for e in result.expected.edges if e.child in ("camera_link", "tool0")] == [False, True]


def test_a_nodelet_plugin_description_outside_the_tree_is_not_read(tmp_path: Path) -> None:
    """package.xml names the plugin description the nodelet lookup reads: `${prefix}/../..` or a symlink out of the
    tree is never opened, so its library names nothing."""
    from physframe_ros.scan.discovery import discover
    from physframe_ros.scan.executables import executable_sources

    outside = tmp_path / "outside"
    outside.mkdir()
    plugin = '<library path="lib/libukf"><class name="ukf/Ukf" type="Ukf" base_class_type="nodelet::Nodelet"/></library>\n'
    (outside / "plugins.xml").write_text(plugin)
    ws = tmp_path / "ws" / "ukf"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "ukf.cpp").write_text("void Ukf::onInit() {}\n")
    (ws / "CMakeLists.txt").write_text("add_library(ukf src/ukf.cpp)\n")
    for exported in ("${prefix}/../../outside/plugins.xml", "${prefix}/linked.xml"):
        (ws / "package.xml").write_text(f'<package format="2"><name>ukf</name><export><nodelet plugin="{exported}"/></export></package>\n')
        if not (ws / "linked.xml").exists():
            (ws / "linked.xml").symlink_to(outside / "plugins.xml")
        assert ("ukf", "ukf/Ukf") not in executable_sources(discover([tmp_path / "ws"]))
    (ws / "linked.xml").unlink()
    (ws / "linked.xml").write_text(plugin)  # the same description inside the tree is read
    assert executable_sources(discover([tmp_path / "ws"]))[("ukf", "ukf/Ukf")] == ["ukf/src/ukf.cpp"]
