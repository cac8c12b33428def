"""A short, bounded fuzz run (fixed seeds) over the decoder and every bag reader: benchmarks/fuzz.py runs the long ones."""

from __future__ import annotations

import pytest
from bag.fuzzbags import BAG_KINDS, bag_target, decoder_target, robot_messages, run, run_replay
from bag.tfbags import write_rosbag1


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


def test_every_bit_of_a_ros1_bag_header_record_flipped_loses_nothing_silently(tmp_path):
    """One bit flipped in the bag header record (index_pos, conn_count, chunk_count): once 126 of 128
    messages were lost with no finding. Every such flip: all messages read or reported lost, or exit 2."""
    messages = robot_messages(2.0)
    seed = write_rosbag1(messages, tmp_path / "seed.bag").read_bytes()
    header_len = int.from_bytes(seed[13:17], "little")
    case = tmp_path / "case.bag"
    silent = []
    for at in range(17, 17 + header_len + 4):  # the header's fields and the data length after them
        for bit in range(8):
            damaged = bytearray(seed)
            damaged[at] ^= 1 << bit
            case.write_bytes(bytes(damaged))
            status, loss = run_replay(case, len(messages))
            assert status in (0, 1, 2)
            if loss:
                silent.append((at, bit, loss))
    assert len(messages) == 128 and not silent
