"""Reading the YAML files users hand us (conventions, expected trees, mined rules) with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def read_yaml(path: str | Path, error: type[ValueError] = ValueError) -> Any:
    """The parsed document; ``error`` (a ValueError) names the file and what went wrong, in one line."""
    import yaml

    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        raise error(f"{path}: not valid YAML: {str(exc).splitlines()[0]}") from None
