"""``physframe replay``: the monitor's checks over the TF data of a recorded bag."""

from .driver import ReplayOptions, ReplayResult, replay

__all__ = ["ReplayOptions", "ReplayResult", "replay"]
