"""Match.run(max_actions=N) stops and a later run goes on where it stopped: the same outcome,
events and replay, bit for bit, as one uninterrupted run; a match closed before its end says
so (MatchClosed), and the world and the replay file are released at the end or on close."""

from __future__ import annotations

import pytest

from kubb3d.errors import Kubb3dError, MatchClosed
from kubb3d.files import ExclusiveFile
from kubb3d.match import Match, MatchConfig


@pytest.mark.parametrize(("seed", "stops"), [(1, (5,)), (3, (12, 7))])
def test_a_run_stopped_by_max_actions_goes_on_as_one_run(tmp_path, seed, stops):
    cfg = MatchConfig(seed=seed, round_cap=4)
    whole = Match(cfg, replay=tmp_path / "whole.jsonl")
    out_whole = whole.run()
    assert out_whole is not None and whole.world is None  # closed at its end
    parts = Match(cfg, replay=tmp_path / "parts.jsonl")
    done = 0
    for n in stops:
        assert parts.run(max_actions=n) is None
        done += n
        assert parts.action_index == done and parts.world is not None  # still open: it can go on
    out = parts.run()
    assert out == out_whole
    assert parts.events == whole.events
    assert (tmp_path / "parts.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    assert parts.world is None and parts.log.fh is None  # released at the end
    assert parts.run() == out_whole  # a run of a match over gives its outcome
    with pytest.raises(RuntimeError, match="the match is over"):
        parts.step()


def test_a_match_closed_before_its_end_says_so_and_releases_its_file(tmp_path):
    path = tmp_path / "m.jsonl"
    with Match(MatchConfig(seed=3, round_cap=4), replay=path) as m:
        assert m.run(max_actions=6) is None
    assert m.world is None and m.closed
    ExclusiveFile(path, create=False).close()  # the lock is free again
    for call in (m.run, m.step, m.pending):
        with pytest.raises(MatchClosed, match="closed before its end.*Match.resume") as exc:
            call()
        assert isinstance(exc.value, Kubb3dError) and "\n" not in str(exc.value)
    resumed = Match.resume(path)  # what goes on after a close
    assert resumed.run() is not None
