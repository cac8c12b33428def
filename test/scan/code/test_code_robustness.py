"""Bad input never raises out of the analyzers, never recurses without bound and never stalls."""

from __future__ import annotations

import random

import pytest

from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code import cpp as cpp_module
from physframe_ros.scan.code import python as python_module
from physframe_ros.scan.code import walker as walker_module


@pytest.mark.parametrize("analyze", [analyze_cpp, analyze_python])
def test_garbage_and_empty_input(analyze) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    for text in ("", "\x00\x01\x02", "}}}{{{", "".join(chr(rng.randrange(1, 0x3000)) for _ in range(5000))):
        facts = analyze(text, "junk.src")
        assert facts.edges == [] and facts.lookups == []
        assert all(f.code == "PARSE_ERROR" for f in facts.findings)


def test_deep_nesting_is_bounded() -> None:
    deep_expr = "(" * 5000 + "1" + ")" * 5000
    deep_blocks = "  if (x) {\n" * 3000 + "  br.sendTransform(t);\n" + "  }\n" * 3000
    cpp = "void f(tf2_ros::TransformBroadcaster & br) {\n  double x = " + deep_expr + ";\n" + deep_blocks + "}\n"
    facts = analyze_cpp(cpp, "deep.cpp")
    assert all(f.code == "PARSE_ERROR" for f in facts.findings)
    py = "def f(br):\n    x = " + deep_expr + "\n    br.sendTransform(t)\n"
    facts = analyze_python(py, "deep.py")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"]
    assert facts.findings[0].location is not None and facts.findings[0].location.line == 2


def test_mutual_recursion_terminates() -> None:
    text = (
        "tf2::Quaternion a();\n"
        "tf2::Quaternion b() { return a(); }\n"
        "tf2::Quaternion a() { return b(); }\n"
        'void f(tf2_ros::TransformBroadcaster & br) {\n  geometry_msgs::msg::TransformStamped t;\n  t.header.frame_id = "odom";\n'
        '  t.child_frame_id = "base_link";\n  t.transform.rotation = tf2::toMsg(a());\n  br.sendTransform(t);\n}\n'
    )
    facts = analyze_cpp(text, "loop.cpp")
    assert [(e.parent, e.child, e.rotation) for e in facts.edges] == [("odom", "base_link", None)]
    py = "def a():\n    return b()\n\n\ndef b():\n    return a()\n\n\ndef f(br):\n    br.sendTransform(a())\n"
    assert analyze_python(py, "loop.py").findings == []


def test_step_budget_stops_one_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shared budget, where the walkers' hot loops read it (and the analyzers' messages)
    for module in (walker_module, cpp_module, python_module):
        monkeypatch.setattr(module, "STEP_BUDGET", 50)
    body = "".join(f'  geometry_msgs::msg::TransformStamped t{i};\n  t{i}.header.frame_id = "a";\n' for i in range(100))
    facts = analyze_cpp("void f() {\n" + body + "}\n", "huge.cpp")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"]
    assert "stopped" in facts.findings[0].message
    facts = analyze_python("def f():\n" + "".join(f"    t{i} = TransformStamped()\n" for i in range(100)), "huge.py")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"]


def test_internal_failure_becomes_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object) -> None:
        raise RuntimeError("simulated analyzer bug")

    monkeypatch.setattr(cpp_module._CppFile, "run", boom)
    facts = analyze_cpp("void f() {}", "x.cpp")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"]
    assert "simulated analyzer bug" in facts.findings[0].message and facts.findings[0].location is not None
    monkeypatch.setattr(python_module._PyFile, "run", boom)
    facts = analyze_python("x = 1\n", "x.py")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"]
