"""The one error a bag reader raises: which file, what is wrong, and where reading broke."""

from __future__ import annotations

from pathlib import Path


class BagError(Exception):
    """A bag that cannot be read (at all, or past some point); ``str()`` is a one-line message."""

    def __init__(self, path: str | Path, reason: str, where: str | None = None) -> None:
        self.path = str(path)
        self.reason = " ".join(reason.split())  # one line, whatever the underlying library said
        self.where = where
        super().__init__(f"{self.path}: {self.reason}" + (f" ({where})" if where else ""))

    def at(self, where: str) -> BagError:
        """The same error, with a more useful position added by a caller that knows one."""
        return BagError(self.path, self.reason, f"{self.where}; {where}" if self.where else where)


class NoTfTopics(BagError):
    """The bag holds no topic with TF data; the message lists the topics it has."""
