"""A short, bounded fuzz run (fixed seeds) over the decoder and every bag reader: benchmarks/fuzz.py runs the long ones."""

from __future__ import annotations

import pytest
from bag.fuzzbags import BAG_KINDS, bag_target, decoder_target, run


def test_decoder_survives_damaged_messages():
    tally = run(decoder_target(), cases=3000, seconds=None, seed=7)
    assert tally.outcomes["ok"] == 3000, tally.examples


@pytest.mark.parametrize("kind", BAG_KINDS)
def test_damaged_bags_never_crash_hang_or_lose_messages_silently(kind, tmp_path):
    tally = run(bag_target(kind, tmp_path, duration=1.0), cases=25, seconds=None, seed=11)
    assert tally.outcomes["ok"] == tally.cases, tally.examples
    assert set(tally.exits) <= {0, 1, 2}


def test_view_of_damaged_bags_exits_0_or_2(tmp_path):
    tally = run(bag_target("mcap", tmp_path, command="view", duration=1.0), cases=15, seconds=None, seed=3)
    assert tally.outcomes["ok"] == tally.cases, tally.examples
    assert set(tally.exits) <= {0, 2}
