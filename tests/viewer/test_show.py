"""kubb3d.show: a world, a throw, a scenario and a replay as headless PNG pictures."""

import numpy as np
import pytest
from PIL import Image

import kubb3d

pytest.importorskip("pyglet")


def _grass_share(path, size):
    img = np.asarray(Image.open(path).convert("RGB")).astype(int)
    assert img.shape == (size[1], size[0], 3)
    return ((img[..., 1] > img[..., 0] + 15) & (img[..., 1] > img[..., 2] + 15)).mean()


def test_show_world_throw_scenario_and_replay(tmp_path, root, cli):
    with kubb3d.World.standard() as world:
        out = kubb3d.show(world, tmp_path / "world.png", width=320, height=180)
        assert out == tmp_path / "world.png" and _grass_share(out, (320, 180)) > 0.3
        params = kubb3d.aim(world, "B3", kubb3d.ThrowParams()).params
        result = kubb3d.throw_baton(world, params)
    out = kubb3d.show(result, tmp_path / "throw.png", width=320, height=180)
    assert _grass_share(out, (320, 180)) > 0.3
    out = kubb3d.show(
        root / "scenarios" / "dm_leaning_on_field_kubb.toml", tmp_path / "scenario.png", width=320, height=180
    )
    assert _grass_share(out, (320, 180)) > 0.2
    replay = tmp_path / "m.jsonl"
    assert cli("match", "-q", "--round-cap", "3", "--replay", str(replay)).returncode == 0
    out = kubb3d.show(replay, tmp_path / "replay.png", width=320, height=180)
    assert _grass_share(out, (320, 180)) > 0.2
    with pytest.raises(TypeError, match="kubb3d.show takes"):
        kubb3d.show(42, tmp_path / "x.png")


def test_show_without_a_path_or_display_says_where_it_wrote(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with kubb3d.World.standard() as world, pytest.warns(UserWarning) as warned:
        out = kubb3d.show(world, width=160, height=90)
    assert out is not None and out.resolve() == (tmp_path / "kubb3d-show.png").resolve() and out.exists()
    assert [str(w.message) for w in warned] == [f"kubb3d.show: no display, so the picture was saved to {out.resolve()}"]
