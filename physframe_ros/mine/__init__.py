"""The implicit-convention miner (PhysFrame Appendix B): static transforms in many projects -> rules."""

from .miner import MineError, Observation, mine, read_csv

__all__ = ["MineError", "Observation", "mine", "read_csv"]
