"""Property tests: random upright kubbs away from other bodies stand; random lying kubbs are fallen."""


from helpers import kubb, snap
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.judge import Status, piece_status

xs = st.floats(-3.9, 3.9)
ys = st.floats(-2.4, 2.4)
angles = st.floats(-180.0, 180.0)


@settings(max_examples=150, deadline=None)
@given(x=xs, y=ys, yaw=angles, tilt=st.floats(0.0, 20.0), toward=angles, flip=st.booleans())
def test_upright_pose_is_standing(x, y, yaw, tilt, toward, flip):
    # tilts up to 20° stay inside the 25° tipping angle of a 7×15 cm kubb
    k = kubb("K", x, y, tilt_deg=tilt + (180.0 if flip else 0.0) if not flip else 180.0 - tilt, toward_deg=toward)
    status, reason = piece_status(snap(k), "K")
    assert status is Status.STANDING, reason


@settings(max_examples=150, deadline=None)
@given(x=xs, y=ys, yaw=angles)
def test_lying_pose_is_fallen(x, y, yaw):
    status, reason = piece_status(snap(kubb("K", x, y, lying_yaw_deg=yaw)), "K")
    assert status is Status.FALLEN, reason
    assert "lies" in reason


@settings(max_examples=100, deadline=None)
@given(x=xs, y=ys, tilt=st.floats(27.0, 65.0), toward=angles)
def test_tilted_past_tipping_without_support_is_not_standing(x, y, tilt, toward):
    status, _ = piece_status(snap(kubb("K", x, y, tilt_deg=tilt, toward_deg=toward)), "K")
    assert status is Status.FALLEN
