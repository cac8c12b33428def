"""SARIF 2.1.0 output: rule ids are the finding codes, so GitHub code scanning annotates pull requests."""

from __future__ import annotations

import hashlib
from typing import Any, Iterable

from .. import __version__
from ..core.findings import CODES, Finding, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_dict(findings: Iterable[Finding]) -> dict[str, Any]:
    findings = list(findings)
    codes = sorted({f.code for f in findings}, key=list(CODES).index)
    rule_index = {c: i for i, c in enumerate(codes)}
    rules = [
        {
            "id": c,
            "name": "".join(w.capitalize() for w in c.split("_")),
            "shortDescription": {"text": CODES[c].summary},
            "fullDescription": {"text": f"{CODES[c].category}: {CODES[c].summary}"},
            "defaultConfiguration": {"level": _LEVEL[CODES[c].severity]},
            "properties": {"category": CODES[c].category},
        }
        for c in codes
    ]
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": rule_index[f.code],
            "level": _LEVEL[f.level],
            "message": {"text": f.message},
            "properties": {"frames": list(f.frames)},
            # stable across edits that only move lines, so code scanning keeps one alert per problem
            "partialFingerprints": {"physframe/v1": _fingerprint(f)},
        }
        if f.location is not None:
            region: dict[str, int] = {}
            if f.location.line:
                region["startLine"] = f.location.line
                if f.location.column:
                    region["startColumn"] = f.location.column
            phys: dict[str, Any] = {"artifactLocation": {"uri": f.location.file, "uriBaseId": "%SRCROOT%"}}
            if region:
                phys["region"] = region
            result["locations"] = [{"physicalLocation": phys}]
        results.append(result)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "physframe", "version": __version__, "semanticVersion": __version__, "rules": rules}},
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the scanned root directory"}}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def _fingerprint(f: Finding) -> str:
    text = "|".join([f.code, f.location.file if f.location else "", *f.frames])
    return hashlib.sha256(text.encode()).hexdigest()[:32]
