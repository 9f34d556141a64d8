"""The physical world: one PyBullet DIRECT client per :class:`World`.

Engine settings (all set explicitly; facts and measurements in docs/physics.md):

==========================  ===========  =======================================
setting                     value        why
==========================  ===========  =======================================
time step                   1/960 s      converged: halving it moves the hit rate
                            (:data:`DT`)  by 0.7 ± 1.3 points (docs/physics.md)
quiet step                  1/240 s      settling once all is slow (a free
                            (:data:`QUIET_DT`)  flight far from everything is not
                                         stepped: :meth:`World.set_flight_state`)
solver iterations           50           stable stacks of kubbs (block building)
deterministic pairs         on           bit-identical runs across processes
split impulse               every        pushing a piece out of the ground adds
                            contact      no speed (nominal rebounds)
contact ERP                 0.08         PyBullet's own (:data:`CONTACT_ERP`)
ground                      static box   the plane's contacts made rebounds
                            (maximal)    depend on the step
bodies                      maximal      continuous collision detection acts
                            coordinates  only on those
CCD swept sphere            0.8 × the    no tunnelling up to 40 m/s; allowed
                            thin size    penetration 5 mm (no frozen bodies)
linear / angular damping    0            air drag is modelled explicitly
                                         (:mod:`kubb3d.physics.aero`)
sleeping                    enabled;     pieces at rest cost nothing (a pair
                            static       of two bodies asleep is skipped)
                            bodies
                            asleep
==========================  ===========  =======================================

A field baton lying on the flat ground, the only fast piece and far from every other, slides or
rolls at the quiet step too, its velocities kept half a step ahead (:meth:`World._slide_for`;
docs/physics.md "A field baton sliding alone").

Table-top sets (Kubbuteo) step at :data:`TABLE_DT` (and the quiet step while everything is
slow, or while one disk slides alone far from everything, its velocities kept half a step
ahead: :meth:`World._slide_for`), without CCD; the board is a static maximal-coordinate box like
the field's ground, and the disks carry small spheres in their rims that give them a contact
point each on the board at every step (kubb3d/assets.py ``FACE_SPHERES``; docs/physics.md
"Table-top sets").

Rest detection (:meth:`World.run_until_rest`): every :data:`SAMPLE_INTERVAL`
seconds the velocities of all movable pieces are read; the world is at rest
when for :data:`SETTLE_S` seconds (:data:`TABLE_SETTLE_S` on a table top) no piece is faster than :data:`REST_SPEED`
(m/s) or turns faster than :data:`REST_TURN` (rad/s) and no kubb or king is
balanced on an edge or corner (centre of mass not above the support polygon of
its contacts): a balance that will tip is not rest.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable, Generator

import numpy as np
from kubb3d.physics._pybullet import pb

from kubb3d.model_files import com_local as piece_com_local
from kubb3d.model_files import model_path
from kubb3d.equipment import EquipmentSet, get_set
from kubb3d.judge.geometry import convex_hull
from kubb3d.physics.aero import RodDrag, piece_drag
from kubb3d.physics.ground import WOOD_ON_WOOD_FRICTION, WOOD_ON_WOOD_RESTITUTION, Ground, get_ground
from kubb3d.pitch import KING_ID, SIDES, Pitch
from kubb3d.snapshot import GROUND_ID, Contact, PieceState, Snapshot, leans

DT = 1.0 / 960.0
"""s: the default time step while pieces can collide fast. Chosen by convergence (docs/physics.md
"Time step"): 150 elite throws fell 0.473 kubbs per baton at 1/960 s and 0.473 at 1/1920 s, but
0.40 at 1/240 s (a 10 m/s baton end moves 4 cm per step there, most of a kubb's width)."""
QUIET_STEPS = 4
"""The quiet step is this many fine steps long (at most :data:`QUIET_DT`): halving ``dt`` halves
both, so a convergence check moves every step."""
QUIET_DT = 1.0 / 240.0
"""s: the longest step, taken while nothing moves faster than :data:`QUIET_SPEED` (settling, the rest hold) and
during free flight far from anything once the engine flies it (see :meth:`World.flight_clearance`;
far from everything a throw's flight is integrated outside the engine, :meth:`World.set_flight_state`)."""
QUIET_SPEED = 0.3
"""m/s: the fastest point of every piece below this: steps of :data:`QUIET_DT` (a point moves
1.25 mm per step)."""
TABLE_DT = 1.0 / 960.0
"""s: time step for table-top sets (a 2 m/s disk moves 2 mm per step, a quarter of its thickness)."""

FLOOR_ID = "floor"
"""Contacts with the floor below a table-top board (a piece there is off the board)."""
FLOOR_MARGIN = 0.001
"""m: a table-top piece that touches the floor (its bounding sphere this close to it, and a
contact) has fallen off the board for good (a piece cannot climb the 0.75 m back): it is stopped
where it is and no longer holds up the rest test (docs/physics.md "Table-top sets"). So is a
piece falling beside the board with all of it this far below the board top and beside the board,
not moving towards it (:meth:`World._gone`): it is laid on the floor below at once instead of
falling there."""

GRAVITY = 9.81
"""m/s², standard gravity (rounded)."""

REST_SPEED = 0.01
"""m/s: a piece slower than this counts as at rest."""
REST_TURN = 0.1
"""rad/s: a piece turning slower than this counts as at rest."""
SETTLE_S = 0.5
"""s: how long the world must stay at rest (every piece slow and statically stable) before it
counts as at rest. kubb3d's decision (the rule documents are silent on how long to wait for a kubb
that falls late): half a second, long enough for a block rocking on its end to settle and a
block starting to tip from near its balance to be seen moving."""
TABLE_SETTLE_S = 0.25
"""s: the settle window on a table top (Kubbuteo). kubb3d's decision, scaled from
:data:`SETTLE_S` by dynamic similarity: a piece's rocking and tipping times go as √(size / g),
and a Kubbuteo kubb (31.75 mm, KT "Equipment") is 0.21 of a 150 mm kubb, so its times are 0.46 of
a field kubb's (0.23 s for 0.5 s). Measured over 3,733 rest holds of club Kubbuteo matches: the
rulings at 0.25 s of stillness and at 0.5 s differ once, a kubb lying on another ruled leaning
then fallen (knocked either way); docs/physics.md "Rest on a table top"."""
SAMPLE_INTERVAL = 1.0 / 30.0
"""s: time between rest checks and tilt-history samples."""
FORCE_WINDOW = 1.0 / 60.0
"""s: :meth:`World.settle_forces` reads each contact's normal force as its mean over this long a
window at the quiet step (4 steps of 1/240 s). Over a window the contact impulses on a piece at
rest balance its weight's impulse up to its change of momentum: a kubb leaning 1.5° past its
tipping angle ends the window turning at most 0.0005 rad/s, 1 % of its torque balance over
1/60 s (a window of 1/30 s read the same to a few %, at twice the cost; docs/physics.md "The
contact forces the judge reads")."""
STABLE_MARGIN = 0.001
"""m: a block's centre of mass must lie this far inside the support polygon of its contacts to
count as statically stable."""
GROUND_TOUCH = 0.004
"""m: on the flat ground a block's corner this close to the ground surface supports it (collision
meshes are 1 mm inside the visual block, and grass gives a fraction of a millimetre). On terrain
only points that touch, or are near enough by :data:`REST_CREEP`, support it."""
MARGINAL_SETTLE_S = 2.0
"""s: the settle window while a block on terrain rests on touching points that hold its centre of
mass less than :data:`TERRAIN_STABLE_MARGIN` inside their hull (:meth:`World._terrain_support`):
it may be creeping over that edge, and a king doing so was seen to start tipping 0.6-0.8 s after
0.5 s of stillness. kubb3d's decision, measured with ``benchmarks/false_rest.py`` (docs/physics.md
"Rest on the heightfield")."""
TERRAIN_STABLE_MARGIN = 0.0005
"""m: on terrain a block's centre of mass must lie this far inside the support polygon of
:meth:`World._terrain_support` (its points are real contacts, not corners within
:data:`GROUND_TOUCH`). kubb3d's decision, measured with ``benchmarks/false_rest.py``: with
:data:`STABLE_MARGIN` (1 mm) a few more kubbs and kings than with 0.5 mm were not at rest within 5 s,
and no tip after a rest call was caught by it that 0.5 mm missed (300 of each case; docs/physics.md
"Rest on the heightfield")."""
CONTACT_GAP = 0.002
"""m: contact points farther apart than this (the contact breaking threshold) do not support."""
REST_CREEP = 0.002
"""m: on terrain a corner or contact of a block that is off the ground supports it only if the
block, tipping about its other supports until that point comes down, would move its centre of
mass at most this far (and turn at most :data:`REST_CREEP_TURN`). kubb3d's decision, measured
with ``benchmarks/false_rest.py`` (docs/physics.md "Rest on the heightfield"): with 0.5 mm and
0.5° kubbs standing on three corners of 1 cm terrain, their centre of mass near the diagonal of
two of them and the fourth corner 0.4-1 mm up, were never at rest (8 of 300)."""
REST_CREEP_TURN = math.radians(2.0)
"""rad: see :data:`REST_CREEP`."""
HELD_S = MARGINAL_SETTLE_S
"""s: on the field a world is also at rest when no point of any piece has moved more than
:data:`REST_CREEP` from where it was this long ago, whatever the velocities and the balance test
say: the engine holds it. Three things never passed the rest test while nothing moved: a baton
rolled by its own rolling resistance (fixed in :meth:`World._resist_rolling`), a kubb standing
still on a crest of 1 cm terrain with its centre of mass above the crest (balanced on an edge
by :meth:`World.unstable_pieces`, the engine holding it for ever, or creeping at 0.1 mm/s) and a
king on terrain rocking by 0.02 mm at 15 Hz, its speed at every other sample 0.0102 m/s
(docs/physics.md "A baton that never came to rest"). As long as the marginal settle window: a
block that starts to tip from near its balance is seen to move within it."""
HELD_STILL = 0.00001
"""m: ... and a block that :meth:`World.unstable_pieces` found balanced on an edge in that time
counts only if it did not move ever faster: in the last quarter of the window no more than
:data:`HELD_GROWTH` times its move in the quarter before plus this. A block starting to tip moves
ever faster (a king balanced along a crest of 1 cm terrain, its fastest point at 0.12, 0.37 and
1.9 mm/s 0.2 s apart before it tipped 5 mm: tests/test_physics.py); a kubb the engine held on a
crest did not move at all, another crept 0.1 mm/s steadily for 15 s."""
HELD_GROWTH = 2.0
"""See :data:`HELD_STILL`."""
SUPPORT_TOUCH = 0.00005
"""m: on terrain a corner of a block's bounding box this close to the heightfield, or a ground
contact this close, touches it and supports the block whatever :data:`REST_CREEP` says (a block
standing flat reads −0.02 … +0.01 mm at its corners)."""
SPLIT_IMPULSE_THRESHOLD = 1.0
"""m: contacts shallower than this (all of them) resolve penetration by split impulse, so pushing
a piece out of the ground adds no speed to it. Bullet's default (−0.04 m) feeds shallow
penetrations back as velocity: a kubb dropped on its end from 1 m onto grass rebounded 4–5 cm
instead of e²·h = 2.25 cm (docs/physics.md "Ground contact")."""
FLAT_GROUND_HALF_EXTENTS = (60.0, 60.0, 1.0)
"""m: the flat ground is a static box 120 × 120 × 2 m with its top face at z = 0, created with
maximal coordinates (a rigid-body contact, with split impulse) rather than PyBullet's plane: on
the plane a block landing flat or a baton landing lying down bounced 0–2.5× its nominal height
depending on the step, on the box it rebounds e²·h (docs/physics.md "Ground contact")."""
CCD_ALLOWED_PENETRATION = 0.005
"""m: penetration a swept-sphere CCD contact may leave. With 0 a body resting at the swept
sphere's depth is stopped at the start of every step while its velocity is kept (a baton lying
on grass and given 6 m/s did not move at all): docs/physics.md "Frozen bodies"."""

CONTACT_ERP = 0.08
"""The share of a contact's penetration that split impulse removes per step: PyBullet's own value
(setting it gives bit-identical runs), set explicitly because a pooled client may have had another
(:meth:`World.set_contact_erp`). A Kubbuteo disk sliding on the board rests on its face spheres
and does not depend on it (kubb3d/assets.py ``FACE_SPHERES``; docs/physics.md "Table-top sets")."""

TERRAIN_CONTACT_PROCESSING = 0.0
"""m: a terrain heightfield's contacts reach the solver only once they touch (PyBullet's
``contactProcessingThreshold`` of the heightfield body; Bullet's default processes every contact
within the 2 mm breaking threshold). A piece sliding over the heightfield otherwise met the next
triangle's edge a fraction of a millimetre ahead as a contact whose normal leans back against
its motion, and it slid 7–44 % short of v²/(2μg) depending on its heading and the step
(docs/physics.md "Ground contact")."""

TERRAIN_APRON = 5.0
"""m: a terrain heightfield reaches this far beyond the pitch on every side. With 1 m a kubb
knocked or a baton sliding more than a metre past a baseline fell off its edge, and the throw
ended in a :class:`PhysicsGlitch` (docs/physics.md "Ground contact")."""

ROLLING_ROW_FRICTION = 1e-9
"""m: the rolling friction PyBullet gets for a field baton: next to nothing. Bullet resists rolling
about two fixed horizontal axes of each contact (the ground's x and y), each limited on its own,
and those rows took up the pitch of the sliding friction, so that a baton pushed along its axis at
30–60° to them drifted sideways, more at finer steps; the rolling resistance of a field baton acts
about its own axis instead (:meth:`World._resist_rolling`). It stays above 0 because Bullet gives a
contact its spinning-friction row only when the contact has rolling friction
(``btSequentialImpulseConstraintSolver::convertContact``); its rolling rows, limited to this much
times the normal impulse, do nothing (docs/physics.md "A baton sliding on the ground").

On a terrain heightfield a baton has it only while it moves faster than
:data:`TERRAIN_ROLL_SPEED`, and Bullet's rolling friction while it is slower."""

TERRAIN_ROLL_SPEED = 0.2
"""m/s: on a terrain heightfield a field baton whose centre of mass moves faster than this gets its
rolling resistance as the torque about its own axis (:meth:`World._resist_rolling`, as on the flat
ground) and Bullet's rolling friction rows (c_rr · r about the ground's two horizontal axes) only
while it is slower. The torque alone let batons at rest on 1 cm terrain creep up to 12 mm in 3 s
(Bullet's rows damp the rocking of the end spheres on the triangles) and let a baton roll down a
gradient of 0.15 (below c_rr = 0.25) at 6 mm/s: a torque limited to what stops one step's turn
is no static resistance. Bullet's rows alone made a baton sliding along its axis drift sideways,
more at finer steps (60°: 21, 29 and 44 mm at 1/960, 1/1920 and 1/3840 s), and one rolling at
30–45° stop 28–30 % short. With the switch at 0.2 m/s the slide's drift no longer grows with the
step, a roll from 3 m/s stops within 0.8 % of the formula at 0–45°, batons at rest creep as with
the rows alone, and on a plane slope a baton holds below c_rr and rolls down above it with the
formula's acceleration (docs/physics.md "A baton sliding on the ground", measured with
benchmarks/terrain_baton.py)."""

WORLD_LIMIT = 50.0
"""m: a piece farther than this from the pitch centre (or NaN) is a physics glitch."""

SLIDE_MARGIN = 0.005
"""m: a disk sliding alone on a table top (and a baton on the field, with every other piece's
and stake's bounding sphere and no edges) takes the long step (:attr:`World.quiet_dt`) only while
its bounding sphere about its centre of mass stays this far (plus two long steps' travel, plus
how far the other pieces can move until the next sample) from every other piece's and from the
board's edges (docs/physics.md "Table-top sets": a disk sliding alone)."""
SLIDE_FLAT_COS = math.cos(math.radians(3.0))
"""A disk lies flat (and may slide at the long step) while its axis is within 3° of the vertical."""
SLIDE_STEADY_VZ = 0.01
"""m/s: ... and while its centre of mass moves up or down slower than this,"""
SLIDE_STEADY_AZ = 1.0
"""m/s²: ... gained less than this vertical speed per second in the last step (it lies on the
board: the board carries its weight),"""
SLIDE_STEADY_TILT = 0.5
"""rad/s: ... turns about a horizontal axis slower than this (it does not rock onto its rim),"""
SLIDE_FRICTION_SLACK = 1.1
"""... and lost at most this many times μ·g of horizontal speed per second in the last step (only
the board's friction acts on it: no collision)."""
SLIDE_STEADY_CHANGE = 0.25
"""m/s²: a field baton goes over to the long step only when its accelerations over its last two
steps differ by at most this at any of its points (:func:`_steady`): its velocities are put half
a step ahead by the accelerations of its last step (:meth:`World.shift_step`), and at its landing
or when it starts to roll those change from one step to the next (a baton set rolling on grass
decelerated its roll 222 rad/s² in its first step and 74 rad/s² from its third, and going over to
the long step after its first step it rolled 9.5 mm, 0.35 %, too far)."""
SLIDE_LEVEL_SIN = math.sin(math.radians(3.0))
"""A field baton lies on the ground (and may slide or roll at the long step) while its axis is
within 3° of the horizontal, and then as a disk on a table top: rising or sinking slower than
:data:`SLIDE_STEADY_VZ`, less than :data:`SLIDE_STEADY_AZ` of vertical acceleration, rocking (about
the horizontal axis across it) slower than :data:`SLIDE_STEADY_TILT`, and slowed by at most
:data:`SLIDE_FRICTION_SLACK` times (μ + k·v)·g, k the ground's plowing (s/m), plus its air drag
(docs/physics.md "A field baton sliding alone")."""


_NO_TURN = (-2, 0.0)
""":attr:`_Piece.last_turn` of a baton whose turn was not read in the step before."""

_BOX_CORNERS = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)

_CLIENT_POOL: list[int] = []
"""Disconnected worlds hand their PyBullet client back here; a new World reuses one after
``resetSimulation`` (connecting costs ~25 ms, a reset ~2 ms). Every engine parameter is set
again on reuse, so a world's results do not depend on what the client did before."""


def _acquire_client() -> int:
    while _CLIENT_POOL:
        cid = _CLIENT_POOL.pop()
        if pb.isConnected(cid):
            return cid
    return pb.connect(pb.DIRECT)


def prepare_client() -> bool:
    """Connect a PyBullet client into this process's pool now, so that the first :class:`World`
    takes it instead of connecting (~15-25 ms) in its first throw: for a process that starts
    before it is given work (a Dask worker's preload, :mod:`kubb3d.experiment.dask_worker`).
    The world resets and configures the client it takes as any reused one, so results do not
    change. Returns False if the pool already held a connected client (nothing done)."""
    if any(pb.isConnected(cid) for cid in _CLIENT_POOL):
        return False
    _CLIENT_POOL.append(pb.connect(pb.DIRECT))
    return True


@functools.lru_cache(maxsize=None)
def _fixed_cylinder(set_name: str, kind: str) -> tuple | None:
    """What PyBullet's URDF importer makes of a fixed piece whose model is one collision cylinder
    at the body origin (a stake), read once per process from its URDF: (radius m, length m, the
    rgba colour of its visual); None for any other model (it is loaded from the URDF).

    Such a piece is built with ``createMultiBody`` from a cylinder shape instead, all stakes of a
    world in one call (0.1 ms for six against 0.8 ms for six URDF loads, docs/speed.md "Ninth
    round"). The body is the same to the bit: the importer also makes a ``btCylinderShapeZ`` of
    half extents (r, r, length / 2) with a 1 mm margin (the single child of its compound, which
    it unwraps), with no mass and no inertia; both go through the same URDF-to-Bullet conversion.
    Its visual is the piece's bounding box in the URDF's colour, not the URDF's mesh (which cost
    0.2-0.4 ms more per world): kubb3d never renders PyBullet's visual shapes.
    Dynamic pieces keep the importer: ``createMultiBody`` gives a compound of several shapes a
    margin of 0 when it enters the broadphase (the importer's is 1 mm) and computes their inertia
    from the compound's bounding box, and changing it afterwards leaves Bullet's world-frame
    inverse inertia stale until the body next moves."""
    from xml.etree import ElementTree

    path = model_path(set_name, kind)
    link = ElementTree.parse(path).getroot().find("link")
    if link is None:
        return None
    collisions, visuals = link.findall("collision"), link.findall("visual")
    mass = link.find("inertial/mass")
    if mass is None or float(mass.get("value", "nan")) != 0.0 or len(collisions) != 1 or len(visuals) != 1:
        return None
    for element in (link.find("inertial"), collisions[0], visuals[0]):
        origin = element.find("origin")
        values = f'{origin.get("xyz", "0 0 0")} {origin.get("rpy", "0 0 0")}' if origin is not None else "0"
        if any(float(v) != 0.0 for v in values.split()):
            return None
    shape, color = collisions[0].find("geometry/cylinder"), visuals[0].find("material/color")
    if shape is None or color is None or len(collisions[0].find("geometry")) != 1:
        return None
    rgba = tuple(float(v) for v in color.get("rgba", "").split())
    return (float(shape.get("radius")), float(shape.get("length")), rgba)


class PhysicsGlitch(RuntimeError):
    """The simulation produced an impossible state (NaN, a piece far outside the world)."""


@dataclass
class _Piece:
    id: str
    kind: str
    shape: str
    half_extents: tuple[float, float, float]
    body: int
    mass: float
    com_local: tuple[float, float, float]
    side: str | None
    drag: RodDrag | None
    max_tilt: float = 0.0
    cos_max_tilt: float = 1.0
    stable_pose: tuple | None = None
    """(centre of mass, quat) at which the piece was last found statically stable."""
    ref_axis: tuple[float, float, float] = (0.0, 0.0, 1.0)
    max_lean: tuple[float, float] | None = None
    """rad: the history split by direction (:attr:`kubb3d.snapshot.PieceState.max_lean`), kept
    for Kubbuteo disk kubbs only, whose tipping angle depends on the direction (None otherwise)."""

    sampled: tuple | None = None
    """(centre of mass, quat) at the last :meth:`World.sample` since the history started (None:
    none yet), so that an unmoved piece's history is not computed again."""

    radius: float = 0.0
    """m: the bounding sphere's radius about the bounding-box centre (set from the half extents)."""
    reach: float = 0.0
    """m: no point of the piece is farther than this from its centre of mass (the bounding
    sphere's radius plus the centre of mass's offset from the bounding-box centre)."""
    disk_reach: float = 0.0
    """m: the same bound for a table-top disk (a baton, or a kubb: a disk with a flat), from its
    shape: a disk of radius R and half thickness t lies within √(R² + t²) of its centre, which is
    R − R' from the bounding-box centre (R' the half extent across the flat); :attr:`reach` for
    other pieces (set by :meth:`World.add_piece`)."""

    roll: tuple[float, float, float] | None = None
    """A field baton's rolling resistance (c_rr · r m, moment of inertia about its axis kg·m², about
    a diameter kg·m²) that :meth:`World._resist_rolling` applies on the field's ground (on terrain
    while it is fast, :data:`TERRAIN_ROLL_SPEED`); None for every other piece."""
    rows: float | None = None
    """m: on a terrain heightfield, the Bullet rolling friction a field baton has while it moves
    slower than :data:`TERRAIN_ROLL_SPEED` (:meth:`World._resist_rolling`); None on the flat
    ground."""
    rows_on: bool = True
    """... and whether it has it now (else :data:`ROLLING_ROW_FRICTION` and the torque)."""
    last_turn: tuple[int, float] = (-2, 0.0)
    """(:attr:`World._tick`, its turn about its axis ω·u rad/s) when :meth:`World._resist_rolling`
    last read it (a field baton only; :data:`_NO_TURN` when kubb3d has set its velocity since)."""
    awake: bool = True
    """A field baton is looked at by :meth:`World._resist_rolling` in every step: it moved at the
    last :meth:`World._motion` check, or was set in motion or woken by kubb3d since (a baton asleep
    costs no call per step)."""
    ground_read: tuple | None = None
    """(:attr:`World._tick`, normal force N, its normal-weighted direction (3 floats)) of its
    ground contacts as :meth:`World.touching_now` or a :class:`ContactWatch` last read them (a
    field baton only)."""
    pose_read: tuple | None = None
    """(:attr:`World._tick`, what :meth:`World.com_pose` or a :class:`ContactWatch` last read) (a
    field baton only)."""
    velocity_read: tuple | None = None
    """(:attr:`World._tick`, what :meth:`World.com_velocity` or a :class:`ContactWatch` last read)
    (a field baton only; set to None by whatever sets its velocity)."""

    corners: np.ndarray = field(init=False, repr=False)
    """m, shape (8, 3): the corners of the bounding box in the body frame (set from the half
    extents)."""

    def __post_init__(self) -> None:
        self.corners, self.radius, self.reach = _box_geometry(tuple(self.half_extents), tuple(self.com_local))
        self.disk_reach = self.reach

    def reset_tilt(self, q) -> None:
        """Start the history afresh (the piece was set up, DM §5): the reference is the upright
        direction, the world vertical on the end the piece stands on now (up or down), never the
        pose it was placed in, so a piece set up tilted starts at its tilt from that direction."""
        axis = _axis(q)
        self.ref_axis = (0.0, 0.0, 1.0) if axis[2] >= 0.0 else (0.0, 0.0, -1.0)
        self.cos_max_tilt = abs(axis[2])
        self.max_tilt = math.acos(min(1.0, self.cos_max_tilt))
        self.sampled = None
        if self.shape == "disk" and self.kind == "kubb":
            self.max_lean = leans(q, self.ref_axis)

    def lean_so_far(self, q) -> tuple[float, float] | None:
        """The recorded :attr:`max_lean` with the pose ``q`` included (None: not kept)."""
        if self.max_lean is None:
            return None
        side, plane = leans(q, self.ref_axis)
        return (max(self.max_lean[0], side), max(self.max_lean[1], plane))

    def turn_cos(self, q) -> float:
        """cos of the angle between the long axis now and at the last set-up."""
        a, r = _axis(q), self.ref_axis
        return a[0] * r[0] + a[1] * r[1] + a[2] * r[2]


@dataclass
class _Slide:
    """A table-top disk or a field baton sliding alone (:meth:`World._start_slide`): the step it
    takes now, its velocities before the last step (their change over that step gives the
    accelerations that keep its velocities half a step ahead, :meth:`World.shift_step`), the
    other pieces' spheres and the last exact clearance."""

    piece: _Piece
    ratio: int
    """the long step is this many fine steps"""
    h: float
    thin: int
    """the disk's thin body axis (0, 1 or 2); a field baton's long axis"""
    on_field: bool = False
    """a baton on the flat field ground (else a disk on a table top)"""
    v: tuple | None = None
    w: tuple | None = None
    others: list = field(default_factory=list)
    """(x, y, z, r): another piece's centre of mass, m, and both pieces' reach
    (:attr:`_Piece.disk_reach`), m"""
    others_speed: float = 0.0
    """m/s: the fastest point of the other pieces when they were read"""
    others_time: float = 0.0
    """s: when they were read (world time)"""
    acc: tuple | None = None
    """a field baton's accelerations (m/s², rad/s²) over the step before the last one, if that
    step was a checked one (it takes the long step only when they held over two steps)"""
    at: tuple | None = None
    gap: float = -math.inf
    wait: int = 0
    """fine steps to take before the next check"""


def _steady(before: tuple | None, now: tuple, reach: float) -> bool:
    """True if a piece's accelerations over two steps in a row (a, α: m/s², rad/s²; ``before``
    None: not measured) differ at no point within ``reach`` m of its centre of mass by more than
    :data:`SLIDE_STEADY_CHANGE` (|Δa| + |Δα|·reach)."""
    if before is None:
        return False
    da = math.sqrt(sum((x - y) ** 2 for x, y in zip(before[:3], now[:3])))
    dw = math.sqrt(sum((x - y) ** 2 for x, y in zip(before[3:], now[3:])))
    return da + dw * reach <= SLIDE_STEADY_CHANGE


@functools.lru_cache(maxsize=None)
def _box_geometry(half_extents: tuple, com_local: tuple) -> tuple[np.ndarray, float, float]:
    """(:attr:`_Piece.corners` (read-only: the pieces of a kind share it), :attr:`_Piece.radius`,
    :attr:`_Piece.reach`) of a piece's half extents and centre of mass, m."""
    corners = _BOX_CORNERS * np.array(half_extents)
    corners.setflags(write=False)
    radius = math.sqrt(sum(h * h for h in half_extents))
    return corners, radius, radius + math.sqrt(sum(c * c for c in com_local))


@functools.lru_cache(maxsize=256)
def _lowest_corner(half_extents: tuple, quat_xyzw: tuple) -> float:
    """z of the lowest corner of a bounding box of ``half_extents`` (m) turned by ``quat_xyzw``,
    relative to its centre, m."""
    m = np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)
    return float(((_BOX_CORNERS * np.array(half_extents)) @ m.T)[:, 2].min())


def _axis(q) -> tuple[float, float, float]:
    """The body +z axis (a kubb's or the king's long axis) in the world for ``quat_xyzw``."""
    x, y, z, w = q
    return (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))


@dataclass
class Terrain:
    """Uneven ground: a smooth random heightfield.

    Attributes:
        amplitude: standard deviation of the height, m (e.g. 0.01 for 1 cm bumps).
        wavelength: typical distance between bumps, m.
        seed: the heightfield's seed (it is part of the scene, not of a throw).
    """

    amplitude: float
    wavelength: float = 1.0
    seed: int = 0

    def heights(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Height z(x, y), m, for a grid (len(ys), len(xs)): a sum of 24 random plane waves."""
        rng = np.random.default_rng(self.seed)
        n = 24
        k = 2 * np.pi / self.wavelength * rng.uniform(0.5, 1.5, n)
        ang = rng.uniform(0, 2 * np.pi, n)
        phase = rng.uniform(0, 2 * np.pi, n)
        X, Y = np.meshgrid(xs, ys)
        z = np.zeros_like(X)
        for i in range(n):
            z += np.cos(k[i] * (np.cos(ang[i]) * X + np.sin(ang[i]) * Y) + phase[i])
        return self.amplitude * z * math.sqrt(2.0 / n)


@dataclass
class RunStats:
    """What happened during :meth:`World.run_until_rest`.

    Attributes:
        steps: physics steps taken.
        time: simulated time at the end, s.
        at_rest: True if the world came to rest before the time limit.
    """

    steps: int
    time: float
    at_rest: bool


class World:
    """A Kubb pitch in its own PyBullet DIRECT client.

    Args:
        equipment: set name or :class:`EquipmentSet`.
        pitch: the pitch (default 5×8 m).
        ground: ground name or :class:`Ground`.
        dt: fixed time step, s (default :data:`DT`, or :data:`TABLE_DT` on a table-top board).
        air_drag: apply quadratic air drag to flying pieces.
        terrain: optional uneven ground (heightfield); None for a flat plane.
        stakes: add the corner and centre-line stakes as fixed bodies.
        solver_iterations: constraint solver iterations per step.
        quiet_dt: the long step, s (default: :data:`QUIET_STEPS` × ``dt``, at most
            :data:`QUIET_DT`, on a table-top board too). Pass ``dt`` to step at ``dt``
            throughout, free flights too (the plain stepping ``kubb3d bench`` compares against:
            a longer quiet step lets :func:`kubb3d.throw.simulate` integrate a free flight far
            from everything outside the engine).

    Raises:
        ValueError: unknown equipment or ground, non-positive ``dt``, ``quiet_dt`` shorter
            than ``dt``.
    """

    def __init__(
        self,
        equipment: str | EquipmentSet = "standard",
        pitch: Pitch | None = None,
        ground: str | Ground | None = None,
        *,
        dt: float | None = None,
        air_drag: bool = True,
        terrain: Terrain | None = None,
        stakes: bool = True,
        solver_iterations: int = 50,
        quiet_dt: float | None = None,
    ) -> None:
        self.equipment = get_set(equipment) if isinstance(equipment, str) else equipment
        board = self.equipment.board
        if dt is None:
            dt = TABLE_DT if board is not None else DT
        if not (dt > 0 and math.isfinite(dt)):
            raise ValueError(f"dt must be a positive number of seconds, got {dt}")
        if pitch is None:
            pitch = Pitch(board.length, board.width, self.equipment.baseline_inset) if board else Pitch()
        self.pitch = pitch
        if ground is None:
            ground = "board" if board else "grass"
        self.ground = get_ground(ground) if isinstance(ground, str) else ground
        self.dt = float(dt)
        if quiet_dt is None:
            self.quiet_dt = max(self.dt, min(QUIET_STEPS * self.dt, QUIET_DT))
        elif not (quiet_dt >= self.dt and math.isfinite(quiet_dt)):
            raise ValueError(f"quiet_dt must be at least dt = {self.dt} s, got {quiet_dt}")
        else:
            self.quiet_dt = float(quiet_dt)
        self._step_dt = self.dt
        self._taken_dt = self.dt
        """s: the length of the last step taken (PyBullet reports a contact's normal force as its
        impulse over the step length set now: :meth:`_force_scale`)"""
        self.settle_s = TABLE_SETTLE_S if board is not None else SETTLE_S
        """s: how long everything must stay still before the world counts as at rest (the default
        of :meth:`iter_until_rest`)."""
        self._elapsed = 0.0
        self.air_drag = air_drag
        self.terrain = terrain
        self.time = 0.0
        self.steps = 0
        self._pieces: dict[str, _Piece] = {}
        self._rollers: list[_Piece] = []
        """the field batons, in the order they were added (:meth:`_resist_rolling`)"""
        self._movable: list[_Piece] = []
        """every piece but the stakes, in the order they were added (as :attr:`_pieces`)"""
        self._tick = 0
        """physics steps taken (:attr:`steps` counts them only once a :meth:`step` call ends)"""
        self._off_board: set[str] = set()
        self._placed_awake: set[str] = set()
        """Pieces added awake or set with :meth:`set_pose` (woken, or given a velocity) since the
        world last came to rest or was put to sleep: they may move without being hit
        (:meth:`others_at_rest`)."""
        self._stepped_since_rest = False
        """A step was taken since the world was built, last came to rest or was put to sleep
        (:meth:`others_at_rest` reads the pieces' velocities only then)."""
        self._solved_gap = TERRAIN_CONTACT_PROCESSING if terrain is not None else math.inf
        """m: the farthest a ground contact the solver processed in a step can be (on terrain
        PyBullet also reports the heightfield's contacts of an earlier step that were not solved in
        the last one, with that step's force: :meth:`_resist_rolling`)"""
        self._settling: list[str] = []
        """Blocks on terrain the last :meth:`unstable_pieces` found on a marginal support (they
        make the settle window :data:`MARGINAL_SETTLE_S`)."""
        self._sampled_at = -1
        """:attr:`steps` at the last :meth:`sample` (the poses it read are the poses while no step
        is taken)"""
        self._slide: _Slide | None = None
        self._mean_forces: tuple[int, dict[tuple[int, int], float]] | None = None
        """(:attr:`_tick` at the end of the last settle window, mean normal force N per body pair)"""
        self._by_body: dict[int, str] = {}
        self._kinds: dict[str, tuple] = {}
        """kind → (half extents m, shape, drag model, centre of mass in the body frame m) of this
        world's equipment (:meth:`_register`)"""
        self._shapes: dict[str, tuple[int, int]] = {}
        """kind → (collision shape, visual shape) made in this world for :func:`_fixed_cylinder`"""
        self._cid = _acquire_client()
        self._forces: list[Callable[[], None]] = []
        self._acting: list[Callable[[], None]] = []
        """the hooks of :attr:`_forces` that are no mere contact watch"""
        self._untouched = False
        """no piece could touch another one in the last step (its contacts need no watch)"""
        self._configure(solver_iterations)
        self._ground_body = self._make_ground()
        self._by_body[self._ground_body] = GROUND_ID
        if board is not None:
            # a table top: the board is the playing ground, the plane below it is the floor
            self._by_body[self._ground_body] = FLOOR_ID
            top = pb.loadURDF(
                str(model_path(self.equipment.name, "board")),
                basePosition=(0.0, 0.0, -board.thickness / 2),
                useFixedBase=True,
                useMaximalCoordinates=True,
                physicsClientId=self._cid,
            )
            self._set_surface(top)
            self._by_body[top] = GROUND_ID
        self._ground_bodies = frozenset(b for b, pid in self._by_body.items() if pid == GROUND_ID)
        if stakes and self.equipment.stake is not None:
            half = self.equipment.stake.length / 2
            spots = [
                (sid, (x, y, self.ground_height(x, y) + half)) for sid, (x, y) in self.pitch.stake_positions().items()
            ]
            bodies = self._new_bodies("stake", [pos for _, pos in spots])
            for (sid, pos), body in zip(spots, bodies):
                self._register(sid, "stake", body, pos, (0.0, 0.0, 0.0, 1.0), None, True)

    # ------------------------------------------------------------------ set-up
    def _configure(self, solver_iterations: int) -> None:
        c = self._cid
        pb.resetSimulation(physicsClientId=c)
        pb.setPhysicsEngineParameter(
            fixedTimeStep=self.dt,
            numSubSteps=0,
            numSolverIterations=int(solver_iterations),
            deterministicOverlappingPairs=1,
            enableConeFriction=1,
            restitutionVelocityThreshold=0.05,
            contactBreakingThreshold=0.002,
            allowedCcdPenetration=CCD_ALLOWED_PENETRATION,
            enableFileCaching=1,
            useSplitImpulse=1,
            splitImpulsePenetrationThreshold=SPLIT_IMPULSE_THRESHOLD,
            contactERP=CONTACT_ERP,
            physicsClientId=c,
        )
        pb.setGravity(0, 0, -GRAVITY, physicsClientId=c)

    def _make_ground(self) -> int:
        c = self._cid
        if self.terrain is None:
            # a thick static box, not PyBullet's plane: see FLAT_GROUND_HALF_EXTENTS
            top = -self.equipment.board.table_height if self.equipment.board is not None else 0.0
            hx, hy, hz = FLAT_GROUND_HALF_EXTENTS
            shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=FLAT_GROUND_HALF_EXTENTS, physicsClientId=c)
            visual = pb.createVisualShape(pb.GEOM_BOX, halfExtents=FLAT_GROUND_HALF_EXTENTS, physicsClientId=c)
            body = pb.createMultiBody(
                0, shape, visual, basePosition=(0, 0, top - hz), useMaximalCoordinates=True, physicsClientId=c
            )
        else:
            res, apron = 0.1, TERRAIN_APRON
            xs = np.arange(-self.pitch.length / 2 - apron, self.pitch.length / 2 + apron + 1e-9, res)
            ys = np.arange(-self.pitch.width / 2 - apron, self.pitch.width / 2 + apron + 1e-9, res)
            heights = self.terrain.heights(xs, ys)
            self._height_grid = (xs, ys, heights)
            shape = pb.createCollisionShape(
                pb.GEOM_HEIGHTFIELD,
                meshScale=(res, res, 1.0),
                heightfieldData=heights.ravel().tolist(),
                numHeightfieldRows=len(xs),
                numHeightfieldColumns=len(ys),
                physicsClientId=c,
            )
            # PyBullet centres a heightfield on the midpoint of its height range.
            mid = (heights.max() + heights.min()) / 2
            if self.equipment.board is not None:
                mid -= self.equipment.board.table_height
            body = pb.createMultiBody(0, shape, basePosition=(0, 0, mid), useMaximalCoordinates=True, physicsClientId=c)
            pb.changeDynamics(body, -1, contactProcessingThreshold=TERRAIN_CONTACT_PROCESSING, physicsClientId=c)
        self._set_surface(body)
        return body

    def _set_surface(self, body: int) -> None:
        """Give a static body the ground's friction, restitution and softness, and put it to sleep."""
        c = self._cid
        g = self.ground
        pb.changeDynamics(
            body,
            -1,
            lateralFriction=g.friction / math.sqrt(WOOD_ON_WOOD_FRICTION),
            restitution=g.restitution / math.sqrt(WOOD_ON_WOOD_RESTITUTION),
            rollingFriction=0.0,
            spinningFriction=0.0,
            # asleep: Bullet skips a pair of which neither body is awake, so a piece asleep on
            # the ground costs nothing per step (docs/physics.md "Sleeping static bodies")
            activationState=pb.ACTIVATION_STATE_SLEEP,
            physicsClientId=c,
        )
        if g.contact_stiffness is not None:
            pb.changeDynamics(
                body, -1, contactStiffness=g.contact_stiffness, contactDamping=g.contact_damping, physicsClientId=c
            )

    def ground_height(self, x: float, y: float) -> float:
        """Ground height at (x, y), m: 0 on a flat ground; on terrain the surface PyBullet
        collides with, i.e. each grid cell split into two planar triangles along the diagonal
        from (i+1, j) to (i, j+1) (Bullet's heightfield default; checked against ray tests)."""
        if self.terrain is None:
            return 0.0
        xs, ys, h = self._height_grid
        fx = float(np.interp(x, xs, np.arange(len(xs))))
        fy = float(np.interp(y, ys, np.arange(len(ys))))
        i, j = min(int(fx), len(xs) - 2), min(int(fy), len(ys) - 2)
        u, v = fx - i, fy - j
        if u + v <= 1.0:
            return float(h[j, i] + u * (h[j, i + 1] - h[j, i]) + v * (h[j + 1, i] - h[j, i]))
        return float(
            h[j + 1, i + 1] + (1 - u) * (h[j + 1, i] - h[j + 1, i + 1]) + (1 - v) * (h[j, i + 1] - h[j + 1, i + 1])
        )

    def height_on_ground(self, kind: str, x: float, y: float, quat_xyzw=(0.0, 0.0, 0.0, 1.0)) -> float:
        """z of the bounding-box centre, m, that puts a piece of ``kind`` at (x, y) in orientation
        ``quat_xyzw`` on the ground with no part of its bounding box below it: its lowest corner
        touches the ground (the flat ground: the bounding box's lowest extent) and, with a face
        down (a block standing or lying), nothing of the ground under that face reaches above it.

        On terrain the surface is planar over each triangle of the heightfield
        (:meth:`ground_height`), so its highest point under the face is at one of the face's
        corners, a grid vertex inside it, or where the face's edges cross a grid line or a cell's
        diagonal; all of them are checked. Placing a kubb at the ground height of its centre (as
        before) left a corner up to 6 mm below 1 cm terrain, where its corner sphere stuck
        (docs/physics.md "A kubb sliding on the ground").

        Raises:
            ValueError: unknown kind.
        """
        if kind not in ("kubb", "king", "baton", "stake"):
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        half = tuple(self.equipment.piece(kind).half_extents)
        if self.terrain is None:
            return float(self.ground_height(x, y) - _lowest_corner(half, tuple(quat_xyzw)))
        m = np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)
        corners = (_BOX_CORNERS * np.array(half)) @ m.T
        xs, ys, _ = self._height_grid
        res = float(xs[1] - xs[0])
        points = [(x + cx, y + cy, cz) for cx, cy, cz in corners]
        low = corners[:, 2] - corners[:, 2].min() < 1e-9
        if low.sum() == 4:  # a face down: the ground's crests under it
            face = corners[low][:, :2] + (x, y)
            centre = face.mean(axis=0)
            order = np.argsort(np.arctan2(face[:, 1] - centre[1], face[:, 0] - centre[0]))
            face = face[order]  # its corners round the face
            dz = float(corners[low][0, 2])
            grid = (face - (xs[0], ys[0])) / res  # grid-index coordinates
            for a, b in zip(grid, np.roll(grid, -1, axis=0)):
                for f in ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)):  # grid lines u = k, v = k, diagonals u + v = k
                    fa, fb = a @ f, b @ f
                    for k in range(math.ceil(min(fa, fb)), math.floor(max(fa, fb)) + 1):
                        if fb != fa:
                            u, v = a + (b - a) * (k - fa) / (fb - fa)
                            points.append((xs[0] + u * res, ys[0] + v * res, dz))
            lo, hi = grid.min(axis=0), grid.max(axis=0)
            for i in range(math.ceil(lo[0]), math.floor(hi[0]) + 1):
                for j in range(math.ceil(lo[1]), math.floor(hi[1]) + 1):
                    if support_margin(grid.tolist(), (float(i), float(j))) >= 0.0:
                        points.append((xs[0] + i * res, ys[0] + j * res, dz))
        return max(self.ground_height(px, py) - pz for px, py, pz in points)

    def add_piece(
        self,
        piece_id: str,
        kind: str,
        position,
        quat_xyzw=(0.0, 0.0, 0.0, 1.0),
        *,
        side: str | None = None,
        sleeping: bool = True,
    ) -> int:
        """Add a piece; ``position`` is the centre of its bounding box, m.

        Args:
            piece_id: unique id (see :mod:`kubb3d.pitch`).
            kind: ``kubb`` | ``king`` | ``baton`` | ``stake``.
            position: (x, y, z), m.
            quat_xyzw: orientation.
            side: owning side of a kubb ('A'/'B'); defaults to the half it stands in.
            sleeping: start asleep (woken by the first contact): saves time for
                pieces placed at rest.

        Returns:
            The PyBullet body id.

        Raises:
            ValueError: duplicate id or unknown kind.
        """
        if piece_id in self._pieces:
            raise ValueError(f"a piece with id {piece_id!r} already exists")
        if kind not in ("kubb", "king", "baton", "stake"):
            raise ValueError(f"unknown piece kind {kind!r}; expected kubb, king, baton or stake")
        self.equipment.piece(kind)  # ValueError for a kind the set does not have
        body = self._new_bodies(kind, [position], quat_xyzw)[0]
        return self._register(piece_id, kind, body, position, quat_xyzw, side, sleeping)

    def _new_bodies(self, kind: str, positions: list, quat_xyzw=(0.0, 0.0, 0.0, 1.0)) -> list[int]:
        """New PyBullet bodies of a kind at ``positions`` (bounding-box centres, m), all in
        orientation ``quat_xyzw``, in that order: from the piece's URDF, or for a fixed cylinder
        (:func:`_fixed_cylinder`) from its shapes, made once per world, all in one call."""
        eq, c = self.equipment, self._cid
        cylinder = _fixed_cylinder(eq.name, kind) if kind == "stake" else None
        if cylinder is None:
            return [
                pb.loadURDF(
                    str(model_path(eq.name, kind)),
                    basePosition=position,
                    baseOrientation=quat_xyzw,
                    useMaximalCoordinates=True,
                    useFixedBase=(kind == "stake"),
                    flags=pb.URDF_USE_INERTIA_FROM_FILE | pb.URDF_USE_IMPLICIT_CYLINDER,
                    physicsClientId=c,
                )
                for position in positions
            ]
        shapes = self._shapes.get(kind)
        if shapes is None:
            radius, length, rgba = cylinder
            shapes = self._shapes[kind] = (
                pb.createCollisionShape(pb.GEOM_CYLINDER, radius=radius, height=length, physicsClientId=c),
                # for a renderer reading the client (kubb3d's own render snapshots): the bounding box
                pb.createVisualShape(
                    pb.GEOM_BOX, halfExtents=(radius, radius, length / 2), rgbaColor=rgba, physicsClientId=c
                ),
            )
        col, vis = shapes
        args = dict(useMaximalCoordinates=True, physicsClientId=c)
        if len(positions) == 1:
            return [pb.createMultiBody(0.0, col, vis, positions[0], quat_xyzw, **args)]
        return list(pb.createMultiBody(0.0, col, vis, positions[0], quat_xyzw, batchPositions=positions, **args))

    def _register(self, piece_id: str, kind: str, body: int, position, quat_xyzw, side, sleeping: bool) -> int:
        """Give a new body of a piece its dynamics and keep its record (see :meth:`add_piece`)."""
        if piece_id in self._pieces:
            raise ValueError(f"a piece with id {piece_id!r} already exists")
        eq = self.equipment
        known = self._kinds.get(kind)
        if known is None:
            spec = eq.piece(kind)
            # getDynamicsInfo's local inertial position is unreliable for maximal-coordinate
            # bodies (measured: it returns unrelated numbers), so take it from the geometry.
            known = (tuple(spec.half_extents), spec.shape, piece_drag(eq, kind), piece_com_local(eq, kind))
            self._kinds[kind] = known
        half, shape, drag, com_local = known
        if kind == "kubb" and side is None:
            side = self.pitch.half_of(position[0])
        c = self._cid
        mass = pb.getDynamicsInfo(body, -1, physicsClientId=c)[0]
        g = self.ground
        mu = math.sqrt(WOOD_ON_WOOD_FRICTION)
        dyn = dict(
            lateralFriction=mu,
            restitution=math.sqrt(WOOD_ON_WOOD_RESTITUTION),
            linearDamping=0.0,
            angularDamping=0.0,
            rollingFriction=0.0,
            spinningFriction=0.0,
        )
        roll = None
        if kind == "baton":
            ground_mu = g.friction / mu
            # rolling resistance acts at the baton's rolling radius (for a disk baton lying flat it
            # only matters if it rolls on its rim); on the field a baton's acts about its own axis,
            # applied by _resist_rolling (ROLLING_ROW_FRICTION); on terrain only while it is fast
            # (TERRAIN_ROLL_SPEED: Bullet's rows hold a baton resting on the heightfield's triangles)
            crr_r = g.rolling_resistance * eq.baton.radius
            rows = None
            if eq.board is None and self.terrain is None:
                dyn["rollingFriction"] = ROLLING_ROW_FRICTION if g.spinning_friction > 0 else 0.0
                if crr_r > 0:
                    inertia = pb.getDynamicsInfo(body, -1, physicsClientId=c)[2]
                    roll = (crr_r, float(inertia[2]), float(inertia[0]))
            else:
                dyn["rollingFriction"] = crr_r / ground_mu
                if eq.board is None and crr_r > 0:
                    # on terrain: Bullet's rows while slow, the torque while fast (_resist_rolling)
                    inertia = pb.getDynamicsInfo(body, -1, physicsClientId=c)[2]
                    roll = (crr_r, float(inertia[2]), float(inertia[0]))
                    rows = crr_r / ground_mu
            dyn["spinningFriction"] = g.spinning_friction / ground_mu
        if kind != "stake":
            # Swept-sphere CCD stops a disk sliding flat on a board box (measured: it does not
            # move at all), so table-top sets go without it and use a 4x finer time step instead.
            dyn["ccdSweptSphereRadius"] = 0.0 if eq.board is not None else 0.8 * min(half[0], half[1])
            # the activation states are bit flags: enable sleeping and (maybe) sleep now, in one call
            dyn["activationState"] = pb.ACTIVATION_STATE_ENABLE_SLEEPING | (
                pb.ACTIVATION_STATE_SLEEP if sleeping else 0
            )
            dyn["sleepThreshold"] = REST_SPEED**2
        pb.changeDynamics(body, -1, physicsClientId=c, **dyn)
        piece = _Piece(piece_id, kind, shape, half, body, mass, com_local, side, drag, roll=roll)
        if kind == "baton":
            piece.rows = rows
        if eq.board is not None and kind in ("baton", "kubb"):
            t, r_flat, r = sorted(half)
            piece.disk_reach = math.hypot(r, t) + (r - r_flat) + math.sqrt(sum(x * x for x in com_local))
        piece.reset_tilt(quat_xyzw)
        self._pieces[piece_id] = piece
        if kind != "stake":
            self._movable.append(piece)
            if not sleeping:
                self._placed_awake.add(piece_id)
        self._by_body[body] = piece_id
        if roll is not None:
            self._rollers.append(piece)
        return body

    def setup_standard(self, sleeping: bool = True) -> None:
        """Place the ten baseline kubbs upright and the king on the centre point (DM §2), on
        terrain with no corner below the ground (:meth:`height_on_ground`).

        Args:
            sleeping: start the pieces asleep (see :meth:`add_piece`).
        """
        for side in SIDES:
            for kid, (x, y) in self.pitch.baseline_kubb_positions(side).items():
                # Kubbuteo disks stand with their faces towards the thrower (axis along x); on
                # terrain no corner below the ground (height_on_ground)
                self.add_piece(kid, "kubb", (x, y, self.height_on_ground("kubb", x, y)), side=side, sleeping=sleeping)
        x, y = self.pitch.king_position
        self.add_piece(KING_ID, "king", (x, y, self.height_on_ground("king", x, y)), sleeping=sleeping)

    @classmethod
    def standard(cls, *args, sleeping: bool = True, **kwargs) -> "World":
        """A world with stakes, the ten baseline kubbs and the king (arguments as :class:`World`)."""
        world = cls(*args, **kwargs)
        world.setup_standard(sleeping=sleeping)
        return world

    def remove_piece(self, piece_id: str) -> None:
        """Take a piece out of the world (KeyError if unknown)."""
        piece = self._pieces.pop(piece_id)
        if piece.roll is not None:
            self._rollers.remove(piece)
        if piece.kind != "stake":
            self._movable.remove(piece)
        self._off_board.discard(piece_id)
        self._placed_awake.discard(piece_id)
        del self._by_body[piece.body]
        pb.removeBody(piece.body, physicsClientId=self._cid)

    def close(self) -> None:
        """Release the PyBullet client (the world is unusable afterwards)."""
        if self._cid is not None and pb.isConnected(self._cid):
            _CLIENT_POOL.append(self._cid)  # reset by the next World that takes it
        self._cid = None

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # ------------------------------------------------------------------ access
    @property
    def ground_body(self) -> int:
        """PyBullet body id of the ground (for renderers)."""
        return self._ground_body

    @property
    def client(self) -> int:
        """The PyBullet client id (for renderers; the judge never uses it). The stakes are made in
        one ``createMultiBody`` call, and PyBullet's client side learns of the last body of such a
        call only: ``getNumBodies`` and ``getBodyUniqueId`` miss the other stakes (``syncBodyInfo``
        lists them; kubb3d never reads that list); their visual shapes are boxes (see
        :func:`_fixed_cylinder`)."""
        return self._cid

    def piece_ids(self, *kinds: str) -> list[str]:
        """Ids of the pieces, optionally only of the given kinds, in insertion order."""
        return [p.id for p in self._pieces.values() if not kinds or p.kind in kinds]

    def has_piece(self, piece_id: str) -> bool:
        """True if the world holds a piece with that id."""
        return piece_id in self._pieces

    def set_side(self, piece_id: str, side: str | None) -> None:
        """Record which half a kubb belongs to ('A'/'B'), e.g. after it was inkasted."""
        self._pieces[piece_id].side = side

    def com_pose(self, piece_id: str) -> tuple[tuple, tuple]:
        """(centre of mass position m, quat_xyzw) as plain tuples, straight from the engine (the
        cheap read for per-step loops; :meth:`pose` gives the bounding-box centre)."""
        p = self._pieces[piece_id]
        pose = pb.getBasePositionAndOrientation(p.body, physicsClientId=self._cid)
        if p.roll is not None:
            p.pose_read = (self._tick, pose)  # for _resist_rolling, this step
        return pose

    def com_velocity(self, piece_id: str) -> tuple[tuple, tuple]:
        """(linear velocity m/s, angular velocity rad/s) as plain tuples (see :meth:`velocity`)."""
        p = self._pieces[piece_id]
        vel = pb.getBaseVelocity(p.body, physicsClientId=self._cid)
        if p.roll is not None:
            p.velocity_read = (self._tick, vel)  # for _resist_rolling, this step
        return vel

    def contacts_of(self, piece_id: str) -> list[tuple[float, int, str, tuple, float]]:
        """Contact points of one piece from the last step, as (distance m, other body id, other
        piece id or ``ground``/``floor``, position on this piece m, normal force N); compare
        the body id with :attr:`ground_body` for the ground."""
        by = self._by_body
        return [
            (cp[8], cp[2], by.get(cp[2], "?"), cp[5], cp[9])
            for cp in pb.getContactPoints(bodyA=self._pieces[piece_id].body, physicsClientId=self._cid)
        ]

    def touching_now(self, piece_id: str) -> tuple[float, list[tuple[str, tuple]]]:
        """What one piece touched in the last step, for a per-step watch (cheaper than
        :meth:`contacts_of`): (the summed normal force of its contacts with :attr:`ground_body`, N;
        [(other piece id, or ``floor`` or ``?``; contact position on this piece, m) for every
        contact point with anything but the ground or the board (``ground``), in the engine's
        order]). On terrain the normal force counts only the contacts the solver processed in the
        last step (:meth:`_resist_rolling`)."""
        normal = nx = ny = nz = 0.0
        others = []
        g, by, flat = self._ground_body, self._by_body, self._ground_bodies
        p = self._pieces[piece_id]
        solved = self._solved_gap
        for cp in pb.getContactPoints(bodyA=p.body, physicsClientId=self._cid):
            b = cp[2]
            if b == g and cp[8] <= solved:
                f, d = cp[9], cp[7]
                normal += f
                nx += f * d[0]
                ny += f * d[1]
                nz += f * d[2]
            if b not in flat:
                others.append((by.get(b, "?"), cp[5]))
        if self._taken_dt != self._step_dt:
            k = self._force_scale()
            normal, nx, ny, nz = normal * k, nx * k, ny * k, nz * k
        if p.roll is not None:
            p.ground_read = (self._tick, normal, nx, ny, nz)  # for _resist_rolling, this step
        return normal, others

    def closest_distance(self, a: str, others, within: float) -> float:
        """Smallest signed distance, m, between piece ``a`` and any of the pieces ``others``
        (negative: overlap), or ``within`` if none is closer than that."""
        best = within
        ba = self._pieces[a].body
        for b in others:
            for cp in pb.getClosestPoints(ba, self._pieces[b].body, within, physicsClientId=self._cid):
                best = min(best, cp[8])
        return best

    def mass_properties(self, piece_id: str) -> tuple[float, tuple[float, float, float]]:
        """(mass kg, principal moments of inertia about the centre of mass kg·m²) as the engine
        holds them."""
        info = pb.getDynamicsInfo(self._pieces[piece_id].body, -1, physicsClientId=self._cid)
        return float(info[0]), tuple(float(v) for v in info[2])

    def kind(self, piece_id: str) -> str:
        """The kind of a piece."""
        return self._pieces[piece_id].kind

    def body_id(self, piece_id: str) -> int:
        """PyBullet body id of a piece."""
        return self._pieces[piece_id].body

    def pose(self, piece_id: str) -> tuple[np.ndarray, tuple[float, float, float, float]]:
        """(position of the bounding-box centre m shape (3,), quat_xyzw)."""
        p = self._pieces[piece_id]
        com, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=self._cid)
        return self._frame_from_com(p, com, q), q

    @staticmethod
    def _frame_from_com(p: _Piece, com, q) -> np.ndarray:
        if p.com_local == (0.0, 0.0, 0.0):
            return np.array(com)
        m = np.array(pb.getMatrixFromQuaternion(q)).reshape(3, 3)
        return np.array(com) - m @ np.array(p.com_local)

    def set_pose(
        self,
        piece_id: str,
        position,
        quat_xyzw=(0.0, 0.0, 0.0, 1.0),
        *,
        linear_velocity=(0, 0, 0),
        angular_velocity=(0, 0, 0),
        wake: bool = True,
    ) -> None:
        """Move a piece (bounding-box centre ``position``, m) and set its velocities (m/s, rad/s)."""
        p = self._pieces[piece_id]
        m = np.array(pb.getMatrixFromQuaternion(quat_xyzw)).reshape(3, 3)
        com = np.asarray(position, dtype=float) + m @ np.array(p.com_local)
        c = self._cid
        pb.resetBasePositionAndOrientation(p.body, com.tolist(), quat_xyzw, physicsClientId=c)
        pb.resetBaseVelocity(p.body, list(linear_velocity), list(angular_velocity), physicsClientId=c)
        p.pose_read = p.velocity_read = None
        p.last_turn = _NO_TURN  # a turn set here is not the contacts' answer (_resist_rolling)
        if wake:
            pb.changeDynamics(p.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=c)
        if wake or any(linear_velocity) or any(angular_velocity):
            self._placed_awake.add(piece_id)
        p.awake = True
        p.reset_tilt(quat_xyzw)  # placing a piece sets it up: its history starts here (DM §5)
        self._off_board.discard(piece_id)

    def velocity(self, piece_id: str) -> tuple[np.ndarray, np.ndarray]:
        """(linear velocity m/s, angular velocity rad/s), world frame."""
        v, w = pb.getBaseVelocity(self._pieces[piece_id].body, physicsClientId=self._cid)
        return np.array(v), np.array(w)

    def clear_history(self) -> None:
        """Start every piece's history afresh (call at the start of a throwing round, DM §5).

        A piece's history is the largest angle between its long axis and the upright direction
        of its last set-up (this call, :meth:`add_piece` or :meth:`set_pose`): a kubb standing
        on either end starts at 0, one set up tilted at its tilt, and a somersault reaches 180°.
        """
        for p in self._pieces.values():
            p.reset_tilt(pb.getBasePositionAndOrientation(p.body, physicsClientId=self._cid)[1])

    # ------------------------------------------------------------------ stepping
    def add_step_hook(self, hook: Callable[[], None], *, watch: bool = False) -> None:
        """Call ``hook()`` before every step (used to apply forces such as drag).

        Args:
            hook: the function.
            watch: the hook only reads the contacts of the step just taken (it applies no
                force): it is skipped after a step in which no piece could touch another one
                (the long steps of a disk sliding alone on a table top or a baton on the
                field, :meth:`_slide_for`).
        """
        self._forces.append(hook)
        if not watch:
            self._acting.append(hook)

    def clear_step_hooks(self) -> None:
        """Remove every step hook."""
        self._forces.clear()
        self._acting.clear()

    def piece_of_body(self, body: int) -> str:
        """Piece id (or ``ground``) of a PyBullet body id; ``?`` if unknown."""
        return self._by_body.get(body, "?")

    def frame_position(self, piece_id: str, com, quat_xyzw) -> tuple[float, float, float]:
        """Bounding-box centre of a piece from its centre-of-mass position and orientation, m."""
        p = self._pieces[piece_id]
        if p.com_local == (0.0, 0.0, 0.0):
            return tuple(com)
        return tuple(float(v) for v in self._frame_from_com(p, com, quat_xyzw))

    def apply_drag(self, piece_id: str, state=None) -> None:
        """Apply air drag to one piece for the coming step (no-op without drag).

        Args:
            piece_id: the piece.
            state: its (centre of mass, quat_xyzw, linear velocity) if the caller has just
                read them (saves two PyBullet calls per step in a flight loop).
        """
        p = self._pieces[piece_id]
        if not self.air_drag or p.drag is None:
            return
        c = self._cid
        if state is None:
            com, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)
            v = pb.getBaseVelocity(p.body, physicsClientId=c)[0]
        else:
            com, q, v = state
        x, y, z, w = q
        axis = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        pb.applyExternalForce(p.body, -1, p.drag.force(v, axis), com, pb.WORLD_FRAME, physicsClientId=c)

    def has_drag(self, piece_id: str) -> bool:
        """True if the piece has an air-drag model (a baton or kubb of a lawn set; see
        :func:`kubb3d.physics.aero.piece_drag`)."""
        return self._pieces[piece_id].drag is not None

    def flight_clearance(self, piece_id: str) -> "FlightClearance":
        """A function of the flying piece's centre of mass (x, y, z) giving the gap, m, between its
        bounding sphere and the ground (its highest point) or any other piece's bounding sphere,
        whichever is nearer. The other pieces are taken where they are now: nothing moves them
        before the flying piece's first contact. Its :meth:`FlightClearance.exceeds` answers
        "is the gap larger than this?" exactly, usually without computing the gap."""
        me = self._pieces[piece_id]
        r = me.radius
        top = 0.0
        if self.terrain is not None:
            top = float(self._height_grid[2].max())
        others = []
        for p in self._pieces.values():
            if p is me:
                continue
            pos, _ = self.pose(p.id)
            others.append((float(pos[0]), float(pos[1]), float(pos[2]), p.radius + r))
        return FlightClearance(top + r, others)

    def set_flight_step(self, piece_id: str, old_dt: float, new_dt: float) -> None:
        """Switch the step of a piece in free flight from ``old_dt`` to ``new_dt`` s (0: just
        released). Its vertical velocity is kept half a step ahead against gravity, v_z + g·h/2,
        so that semi-implicit Euler steps trace the exact parabola whatever their length h."""
        p = self._pieces[piece_id]
        c = self._cid
        v, w = pb.getBaseVelocity(p.body, physicsClientId=c)
        pb.resetBaseVelocity(p.body, (v[0], v[1], v[2] + GRAVITY * (new_dt - old_dt) / 2), w, physicsClientId=c)
        p.velocity_read = None
        self.use_step(new_dt)

    def others_at_rest(self, piece_id: str) -> bool:
        """True when every movable piece but ``piece_id`` is at rest: none was added awake or
        placed and woken or given a velocity (:meth:`set_pose`) since the world last came to
        rest (:meth:`iter_until_rest`) or was put to sleep (:meth:`sleep_all`), and, if a step
        was taken since, none is faster than :data:`REST_SPEED` or turns faster than
        :data:`REST_TURN`. Only then may a free flight be integrated outside the engine
        (:meth:`set_flight_state` leaves every other piece where it is); a piece placed in the
        air, leaning or pushed just before the release may move, and the engine flies the throw
        then, stepping it along."""
        if any(pid != piece_id for pid in self._placed_awake):
            return False
        if not self._stepped_since_rest:
            return True  # nothing moved them since they were put down or came to rest
        c = self._cid
        lin2, ang2 = REST_SPEED * REST_SPEED, REST_TURN * REST_TURN
        for p in self._movable:
            if p.id == piece_id:
                continue
            (vx, vy, vz), (wx, wy, wz) = pb.getBaseVelocity(p.body, physicsClientId=c)
            if vx * vx + vy * vy + vz * vz > lin2 or wx * wx + wy * wy + wz * wz > ang2:
                return False
        return True

    def set_flight_state(self, piece_id: str, seconds: float, com, quat_xyzw, velocity, angular_velocity) -> None:
        """Hand a free flight integrated outside the engine back to it: put the flying piece at
        its state ``seconds`` s after the engine's last one (centre of mass m, quat_xyzw, velocity
        m/s as the coming steps want it, angular velocity rad/s) and move the clock on by
        ``seconds``, without stepping. Only for a piece in free flight while every other piece
        is at rest (nothing the engine would have done in those steps is left out; see
        :meth:`flight_clearance`). The piece's history (:meth:`clear_history`) goes on."""
        p = self._pieces[piece_id]
        c = self._cid
        pb.resetBasePositionAndOrientation(p.body, tuple(com), tuple(quat_xyzw), physicsClientId=c)
        pb.resetBaseVelocity(p.body, tuple(velocity), tuple(angular_velocity), physicsClientId=c)
        p.pose_read = p.velocity_read = None
        p.last_turn = _NO_TURN
        self._elapsed += seconds
        self.time = self._elapsed

    def apply_plowing(self, piece_id: str, normal: float | None = None, state=None) -> None:
        """Apply the ground's plowing resistance to one piece for the coming step.

        A piece pressed into soft ground while it slides ploughs through grass and turf: a
        horizontal force F = −k · N · v_h on its centre of mass, with k the ground's
        :attr:`~kubb3d.physics.ground.Ground.plowing` (s/m), N the normal force of its ground
        contacts in the last step (N) and v_h its horizontal velocity (m/s). At a landing N is
        the impact's (large, over a few steps), so most of the horizontal speed goes there,
        as when a baton digs into a lawn: a landing with normal impulse J keeps exp(−k·J/m) of
        its horizontal speed. Lying and sliding, it adds k · g · v_h to the deceleration. The
        force is the exact solution over one step, so it never reverses the motion and does
        not depend on how the steps divide an impact. No-op on a ground without plowing.

        Args:
            piece_id: the piece.
            normal: the summed normal force of its ground contacts in the last step, N, if the
                caller has just read its contacts (saves one PyBullet call per step).
            state: its (centre of mass, linear velocity) if the caller has just read them
                (saves two PyBullet calls per step).
        """
        k = self.ground.plowing
        if k <= 0:
            return
        p = self._pieces[piece_id]
        c = self._cid
        if normal is None:
            normal = 0.0
            for cp in pb.getContactPoints(bodyA=p.body, bodyB=self._ground_body, physicsClientId=c):
                if cp[8] <= self._solved_gap:
                    normal += cp[9]
            if self._taken_dt != self._step_dt:
                normal *= self._force_scale()
        if normal <= 0.0:
            return
        if state is None:
            com = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)[0]
            vx, vy, _ = pb.getBaseVelocity(p.body, physicsClientId=c)[0]
        else:
            com, (vx, vy, _) = state
        # the exact solution of m dv/dt = -k N v over one step, as a force: the speed lost over a
        # landing is exp(-k J / m) of its impulse J however the steps divide it
        h = self.step_dt
        scale = p.mass * -math.expm1(-k * normal * h / p.mass) / h
        pb.applyExternalForce(p.body, -1, (-scale * vx, -scale * vy, 0.0), com, pb.WORLD_FRAME, physicsClientId=c)

    def contact_watch(self, piece_id: str, *, drag_until: float) -> "ContactWatch":
        """A step hook for a thrown piece after its first contact (:class:`ContactWatch`): it reads
        the piece's contacts of the step just taken and applies, for the coming step, its air drag
        until it first moves slower than ``drag_until`` m/s, and the ground's plowing resistance
        while it touches soft ground. The same contacts, forces and order as
        :meth:`touching_now`, then :meth:`apply_drag` and :meth:`apply_plowing` with one read of
        the piece's state, in one call (a thrown piece is watched in most steps of a match)."""
        return ContactWatch(self, self._pieces[piece_id], drag_until)

    @property
    def step_dt(self) -> float:
        """s: the length of the next step (:attr:`dt`, or :attr:`quiet_dt` while nothing can
        collide fast; see :meth:`use_step`)."""
        return self._step_dt

    def set_contact_erp(self, erp: float) -> None:
        """Set the share (0–1] of a contact's penetration that split impulse removes per step
        (PyBullet's ``contactERP``; a world starts with :data:`CONTACT_ERP`). For measurements
        (docs/physics.md "Table-top sets": before the face spheres, a Kubbuteo disk sliding on the
        board sank 0.9 mm into it with 0.08 at 1/960 s, 0.08 mm with 0.8).

        Raises:
            ValueError: ``erp`` outside (0, 1].
        """
        if not 0.0 < erp <= 1.0:
            raise ValueError(f"contact ERP must be in (0, 1], got {erp}")
        pb.setPhysicsEngineParameter(contactERP=float(erp), physicsClientId=self._cid)

    def _force_scale(self) -> float:
        """What a normal force PyBullet reports now must be multiplied by to be the force of the
        last step: PyBullet divides the step's impulse by the step length set now
        (:attr:`step_dt`), not by the one the step was taken with, so after a change of step the
        first read was off by their ratio (a quarter of a baton's weight on the first long step)."""
        return self._step_dt / self._taken_dt

    def use_step(self, dt: float) -> None:
        """Take steps of ``dt`` seconds from now on (:attr:`dt` or :attr:`quiet_dt`)."""
        if dt != self._step_dt:
            self._step_dt = dt
            pb.setPhysicsEngineParameter(fixedTimeStep=dt, physicsClientId=self._cid)

    def _resist_rolling(self) -> None:
        """Apply the ground's rolling resistance to every field baton that touched it in the last
        step, for the coming step: a torque of c_rr · r · N · s about u, against the baton's turn
        ω·u, where u is the baton's axis with its part along the contact normal n taken out and
        s = |u| before normalising (1 for a baton lying on the ground, 0 standing on an end), N the
        normal force of its ground contacts (N), c_rr the ground's
        :attr:`~kubb3d.physics.ground.Ground.rolling_resistance` and r the baton's radius (m). A
        baton rolling from v then stops after (1 + I/(m r²)) v² / (2 c_rr g). The torque's
        impulse over the step is at most I_u·|ω·u| (I_u its moment of inertia about u), so it
        never turns the roll back by itself; when the roll has turned back all the same since the
        step before (the contacts, a kubb the baton leans on, say, answered that torque), the
        baton sticks and gets none in this step: applied again, the torque and the contacts'
        answer took turns and rolled a baton leaning on a kubb along its face at 4.5 mm/s for
        12 s, never at rest (docs/physics.md "A baton that never came to rest"). Only about the
        baton's own axis: Bullet's rolling friction
        (about the ground's fixed axes) made a sliding baton drift (:data:`ROLLING_ROW_FRICTION`;
        docs/physics.md "A baton sliding on the ground").

        On a terrain heightfield only while the baton's centre of mass moves faster than
        :data:`TERRAIN_ROLL_SPEED`; slower it gets Bullet's rolling friction back (set here when it
        crosses that speed). There N counts only the contacts the solver processed in the last step
        (distance ≤ :data:`TERRAIN_CONTACT_PROCESSING`), as :meth:`touching_now` does: PyBullet
        also reports the heightfield's contacts of an earlier step that were not solved in this
        one, with that step's force, and with them a rolling baton's N was twice its weight.

        Read in every step: the baton whose contacts a step hook has just read
        (:meth:`touching_now` or :meth:`contact_watch`: the thrown piece) and every baton that moved at the last
        :meth:`_motion` check (:attr:`_Piece.awake`). A baton asleep then and woken by a piece
        that strikes it gets its rolling resistance from the next check on, at most
        :data:`SAMPLE_INTERVAL` later (kubb3d's trade: a read per lying baton per step cost 13 %
        of a match's CPU)."""
        c, g, h, tick = self._cid, self._ground_body, self._step_dt, self._tick
        for p in self._rollers:
            # what a step hook has read in this step already (the thrown piece's watch) is not
            # read again: its ground contacts (touching_now), velocity and pose (com_velocity,
            # com_pose)
            watched = p.ground_read is not None and p.ground_read[0] == tick
            if watched:
                _, normal, nx, ny, nz = p.ground_read
                if normal <= 0.0:
                    continue
            elif not p.awake:
                continue
            if p.velocity_read is not None and p.velocity_read[0] == tick:
                (vx, vy, vz), (wx, wy, wz) = p.velocity_read[1]
            else:
                (vx, vy, vz), (wx, wy, wz) = pb.getBaseVelocity(p.body, physicsClientId=c)
            if p.rows is not None:
                # on terrain: Bullet's rows while slow, the torque about the axis while fast
                fast = vx * vx + vy * vy + vz * vz > TERRAIN_ROLL_SPEED * TERRAIN_ROLL_SPEED
                if fast == p.rows_on:
                    p.rows_on = not fast
                    pb.changeDynamics(
                        p.body, -1, rollingFriction=ROLLING_ROW_FRICTION if fast else p.rows, physicsClientId=c
                    )
                if not fast:
                    continue
            if wx == 0.0 and wy == 0.0 and wz == 0.0:
                continue  # asleep or still (Bullet zeroes a sleeping body's velocities)
            if not watched:
                normal = nx = ny = nz = 0.0
                for cp in pb.getContactPoints(bodyA=p.body, bodyB=g, physicsClientId=c):
                    if cp[8] > self._solved_gap:
                        continue  # not solved in the last step: its force is an older step's
                    f, d = cp[9], cp[7]
                    normal += f
                    nx += f * d[0]
                    ny += f * d[1]
                    nz += f * d[2]
                if normal <= 0.0:
                    continue
                if self._taken_dt != h:
                    normal *= self._force_scale()
            if p.pose_read is not None and p.pose_read[0] == tick:
                q = p.pose_read[1][1]
            else:
                q = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)[1]
            ax, ay, az = _axis(q)
            k = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
            nx, ny, nz = nx * k, ny * k, nz * k
            along = ax * nx + ay * ny + az * nz
            ux, uy, uz = ax - along * nx, ay - along * ny, az - along * nz
            s = math.sqrt(ux * ux + uy * uy + uz * uz)
            if s < 1e-9:
                continue
            ux, uy, uz = ux / s, uy / s, uz / s
            turn = wx * ux + wy * uy + wz * uz
            # the torque of the step before turned the roll back: the baton sticks (dry rolling
            # resistance holds it with at most c_rr·r·N, and the contacts do), no torque this step
            last_tick, last_turn = p.last_turn
            p.last_turn = (tick, turn)
            if last_tick == tick - 1 and turn * last_turn < 0.0:
                continue
            crr_r, i_axis, i_diameter = p.roll
            cos2 = (ax * ux + ay * uy + az * uz) ** 2
            hold = (i_axis * cos2 + i_diameter * (1.0 - cos2)) * abs(turn) / h
            torque = -math.copysign(min(crr_r * normal * s, hold), turn)
            pb.applyExternalTorque(
                p.body, -1, (torque * ux, torque * uy, torque * uz), pb.WORLD_FRAME, physicsClientId=c
            )

    def step(self, n: int = 1, *, rolling: bool = True) -> None:
        """Advance ``n`` steps of :attr:`step_dt`, with the field batons' rolling resistance
        (:meth:`_resist_rolling`) unless ``rolling`` is False: for steps in which no baton can
        touch the ground while it turns (a piece in free flight before its first contact, every
        other piece at rest), which saves reading them."""
        c = self._cid
        resist = self._resist_rolling if rolling and self._rollers else None
        for _ in range(n):
            for hook in self._acting if self._untouched else self._forces:
                hook()
            if resist is not None:
                resist()
            pb.stepSimulation(physicsClientId=c)
            self._tick += 1
            self._untouched = False
            self._taken_dt = self._step_dt
        self._stepped_since_rest = True
        self.steps += n
        self._elapsed += n * self._step_dt
        self.time = self._elapsed

    def sample(self) -> dict[str, tuple[tuple, tuple]]:
        """(com position, quat) of every movable piece; updates max tilts.

        Raises:
            PhysicsGlitch: NaN or a piece beyond :data:`WORLD_LIMIT`.
        """
        c = self._cid
        out = {}
        board = self.equipment.board
        floor = -board.table_height + FLOOR_MARGIN if board is not None else -math.inf
        below = -FLOOR_MARGIN if board is not None else -math.inf  # the board top is at z = 0
        off: set[str] = set()
        read = pb.getBasePositionAndOrientation
        for p in self._movable:
            pose = read(p.body, physicsClientId=c)
            pos, q = pose
            moved = pose != p.sampled  # unmoved (asleep, say): checked and in its history already
            if moved and not (
                abs(pos[0]) < WORLD_LIMIT and abs(pos[1]) < WORLD_LIMIT and -WORLD_LIMIT < pos[2] < WORLD_LIMIT
            ):
                raise PhysicsGlitch(f"piece {p.id} left the world or became NaN at t={self.time:.3f} s: position {pos}")
            if board is not None:  # on the field nothing is below the floor or the board top
                on_floor = pos[2] - p.radius < floor
                if on_floor and pb.getContactPoints(bodyA=p.body, bodyB=self._ground_body, physicsClientId=c):
                    off.add(p.id)
                elif pos[2] + p.reach < below and self._gone(p, pos):
                    off.add(p.id)
            if moved and p.kind != "baton":
                # turn of the long axis from its set-up direction: compare cosines, take the
                # arccos only when it grew
                cos_turn = p.turn_cos(q)
                if cos_turn < p.cos_max_tilt:
                    p.cos_max_tilt = cos_turn
                    p.max_tilt = math.acos(max(-1.0, min(1.0, cos_turn)))
                if p.max_lean is not None:
                    p.max_lean = p.lean_so_far(q)
            p.sampled = pose
            out[p.id] = pose
        self._off_board = off
        self._sampled_at = self.steps
        return out

    def _gone(self, p: _Piece, pos) -> bool:
        """True if piece ``p`` (centre of mass ``pos``, m) has fallen beside the table top for
        good: all of it is below the board top and beside the board (its reach clear of the
        board's outline, so it touches nothing of the table), it does not move towards the board
        (its path over the floor is a straight line, so it never comes nearer) and does not rise
        to the board top before it comes down. All it can hit then is the floor, from which it
        cannot climb back either (see :data:`FLOOR_MARGIN`)."""
        board = self.equipment.board
        r = p.reach
        x, y, z = pos
        dx, dy = abs(x) - board.length / 2, abs(y) - board.width / 2
        if z + r > -FLOOR_MARGIN or math.hypot(max(dx, 0.0), max(dy, 0.0)) <= r + FLOOR_MARGIN:
            return False
        (vx, vy, vz), _ = pb.getBaseVelocity(p.body, physicsClientId=self._cid)
        if vz > 0.0 and z + r + vz * vz / (2.0 * GRAVITY) > -FLOOR_MARGIN:
            return False
        return math.copysign(max(dx, 0.0), x) * vx + math.copysign(max(dy, 0.0), y) * vy >= 0.0

    def _put_down(self, p: _Piece) -> None:
        """Stop a piece that is off the board for good and, if it is still above the floor, lay it
        on the floor below where it is, on its thinnest side (a disk on a face), instead of
        simulating its fall: nothing it does there can change the board. Asleep, velocities 0."""
        c = self._cid
        com, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)
        floor = -self.equipment.board.table_height
        if com[2] - p.radius > floor + FLOOR_MARGIN:
            frame = self._frame_from_com(p, com, q)
            k = min(range(3), key=lambda i: p.half_extents[i])
            m = pb.getMatrixFromQuaternion(q)
            ax, ay, az = m[k], m[3 + k], m[6 + k]  # the thin body axis in the world
            s = 1.0 if az >= 0.0 else -1.0
            # the shortest turn of that axis to the vertical (±z, whichever is nearer)
            x, y, w = ay * s, -ax * s, 1.0 + az * s
            n = math.sqrt(x * x + y * y + w * w)
            q = pb.multiplyTransforms((0, 0, 0), (x / n, y / n, 0.0, w / n), (0, 0, 0), q)[1]
            rot = np.array(pb.getMatrixFromQuaternion(q)).reshape(3, 3)
            down = np.array((frame[0], frame[1], floor + p.half_extents[k])) + rot @ np.array(p.com_local)
            pb.resetBasePositionAndOrientation(p.body, down.tolist(), q, physicsClientId=c)
        pb.resetBaseVelocity(p.body, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=c)
        pb.changeDynamics(p.body, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=c)

    def steps_for(self, seconds: float) -> int:
        """Whole steps of the current :attr:`step_dt` covering ``seconds`` (at least 1)."""
        return max(1, int(round(seconds / self._step_dt)))

    def run_until_rest(
        self,
        max_time: float = 20.0,
        sample_every: float | None = None,
        on_sample: Callable[[float, dict], None] | None = None,
        *,
        settle_s: float | None = None,
    ) -> RunStats:
        """Step until the world is at rest; :meth:`iter_until_rest` run to its end, ``on_sample``
        called with each (time s, samples) it yields. Same arguments, result and errors."""
        run = self.iter_until_rest(max_time, sample_every, settle_s=settle_s)
        while True:
            try:
                t, cur = next(run)
            except StopIteration as stop:
                return stop.value
            if on_sample:
                on_sample(t, cur)

    def iter_until_rest(
        self, max_time: float = 20.0, sample_every: float | None = None, *, settle_s: float | None = None
    ) -> Generator[tuple[float, dict], None, RunStats]:
        """Step until the world is at rest (see :meth:`at_rest_now`) for ``settle_s`` seconds, or
        on the field until no point of any piece has moved more than :data:`REST_CREEP` in
        :data:`HELD_S` (the engine holds it, whatever the velocities say), or until ``max_time``
        s passed: a generator that yields (time s, samples {id: (centre of
        mass, quat_xyzw)} of :meth:`sample`) at every sample, the first one before any step, and
        returns the :class:`RunStats`. The caller may draw each sample as it comes (the 3D view
        streams a throw this way); nothing it does between samples changes the stepping.

        Steps are :attr:`dt` long while any piece moves faster than :data:`QUIET_SPEED` at any of
        its points, and :attr:`quiet_dt` long otherwise (slow pieces cannot collide hard: the
        settling and the rest hold cost a quarter of the steps). On a table top a disk that is
        the only piece faster than that takes :attr:`quiet_dt` steps too while it slides flat
        far from everything, and so does a baton lying on the flat field ground
        (:meth:`_slide_for`).

        Args:
            max_time: simulated seconds from now at most.
            sample_every: seconds between samples (rest check, tilt history, what is yielded);
                default :data:`SAMPLE_INTERVAL`.
            settle_s: how long, s, the world must stay at rest before it counts as at rest (a
                kubb that starts to fall within this window is waited for); default
                :attr:`settle_s` (:data:`SETTLE_S`, on a table top :data:`TABLE_SETTLE_S`).

        Raises:
            PhysicsGlitch: see :meth:`sample`.
        """
        interval = SAMPLE_INTERVAL if sample_every is None else float(sample_every)
        settle_s = self.settle_s if settle_s is None else settle_s
        start_steps, t0 = self.steps, self.time
        end = t0 + max_time - 1e-9
        cur = self.sample()
        yield self.time, cur
        quiet_since = None
        held = None  # (time, poses, balanced ids) every piece has stayed near since (on the field)
        field = self.equipment.board is None
        try:
            while self.time < end:
                moving, fastest, leader, others = self._motion()
                alone = self._slide if fastest > QUIET_SPEED else None
                if alone is not None and (leader is None or alone.piece is not leader or others > QUIET_SPEED):
                    alone = self._end_slide()
                if alone is None and fastest > QUIET_SPEED and others <= QUIET_SPEED and leader is not None:
                    alone = self._start_slide(leader)
                if alone is None:
                    self._end_slide()
                    self.use_step(self.dt if fastest > QUIET_SPEED else self.quiet_dt)
                unstable = [] if moving else self.unstable_pieces()
                if not moving and not unstable:
                    if quiet_since is None:
                        quiet_since = self.time
                    if self.time - quiet_since >= self._window(settle_s) - 1e-9:
                        self.use_step(self.dt)
                        self._placed_awake.clear()
                        self._stepped_since_rest = False
                        return RunStats(self.steps - start_steps, self.time, True)
                else:
                    quiet_since = None
                    if field and fastest <= QUIET_SPEED:
                        if held is None or self._moved_from(held[1], cur) > REST_CREEP:
                            held = [self.time, cur, set(unstable), []]
                            whole = False
                        else:
                            if not moving:  # the balance test ran: the blocks it finds balanced now
                                held[2] = set(unstable)
                            whole = self.time - held[0] >= HELD_S - 1e-9
                            if not whole and self.time - held[0] >= (len(held[3]) + 1) * HELD_S / 4 - 1e-9:
                                held[3].append(cur)  # the poses at each quarter of the window
                        if whole:
                            if self._tipping([held[1], *held[3], cur], held[2]):
                                held = [self.time, cur, set(unstable), []]
                            else:
                                self.use_step(self.dt)
                                self._placed_awake.clear()
                                self._stepped_since_rest = False
                                return RunStats(self.steps - start_steps, self.time, True)
                    else:
                        held = None
                span = min(interval, max(end - self.time, 0.0))
                if alone is not None:
                    self._slide_for(alone, span, others)
                else:
                    self.step(self.steps_for(span))
                cur = self.sample()
                yield self.time, cur
            self._end_slide()
            self.use_step(self.dt)
            moving = self._motion()[0]
            at_rest = (
                not moving
                and not self.unstable_pieces()
                and quiet_since is not None
                and self.time - quiet_since >= self._window(settle_s) - 1e-9
            )
            return RunStats(self.steps - start_steps, self.time, at_rest)
        finally:
            self._end_slide()  # also when the caller stops early

    def _point_move(self, pid: str, before: dict, now: dict) -> float:
        """m: how far any point of piece ``pid`` may have moved from ``before`` to ``now``
        (samples of :meth:`sample`): its centre of mass's move plus its :attr:`_Piece.reach`
        times the angle it turned (0 if it is in only one of them)."""
        was, pose = before.get(pid), now.get(pid)
        if was is None or pose is None or was == pose:
            return 0.0
        (com, q), (com0, q0) = pose, was
        dot = abs(q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3])
        return math.dist(com, com0) + self._pieces[pid].reach * 2.0 * math.acos(min(1.0, dot))

    def _moved_from(self, before: dict, now: dict) -> float:
        """m: the farthest any point of any piece may have moved from ``before`` to ``now``."""
        return max((self._point_move(pid, before, now) for pid in now), default=0.0)

    def _tipping(self, marks: list[dict], balanced: set) -> bool:
        """True if a block of ``balanced`` (found balanced on an edge) moved, between the last two
        of ``marks`` (samples of :meth:`sample` a quarter of the held window apart), more than
        :data:`HELD_GROWTH` times its move between the two before plus :data:`HELD_STILL`: it
        moves ever faster, starting to tip, and is not held."""
        a, b, c = marks[-3:]
        return any(
            self._point_move(pid, b, c) > HELD_GROWTH * self._point_move(pid, a, b) + HELD_STILL for pid in balanced
        )

    def _window(self, settle_s: float) -> float:
        """s: the settle window, :data:`MARGINAL_SETTLE_S` at least while a block on terrain rests
        on a marginal support (found by the last :meth:`unstable_pieces`)."""
        return max(settle_s, MARGINAL_SETTLE_S) if self._settling else settle_s

    # ------------------------------------------------------------------ a disk sliding alone
    def shift_step(self, piece_id: str, old_dt: float, new_dt: float, acc, alpha=(0.0, 0.0, 0.0)) -> None:
        """Switch the step from ``old_dt`` to ``new_dt`` s for a piece under steady forces, keeping
        its velocities half a step ahead: v − a·(new − old)/2 and ω − α·(new − old)/2, with its
        acceleration ``acc`` (m/s², shape (3,)) and angular acceleration ``alpha`` (rad/s²).
        Semi-implicit Euler moves a piece by its velocity after each step, v + a·h, so that is
        the velocity half a step later when the velocity before the step is v(t) − a·h/2: the
        shift keeps the piece on the same path whatever the step (for gravity, a = −g, this is
        :meth:`set_flight_step`)."""
        p = self._pieces[piece_id]
        c, k = self._cid, (new_dt - old_dt) / 2.0
        v, w = pb.getBaseVelocity(p.body, physicsClientId=c)
        pb.resetBaseVelocity(
            p.body,
            [v[i] - acc[i] * k for i in range(3)],
            [w[i] - alpha[i] * k for i in range(3)],
            physicsClientId=c,
        )
        p.velocity_read = None
        self.use_step(new_dt)

    def _start_slide(self, p: _Piece) -> _Slide | None:
        """A :class:`_Slide` for piece ``p``, the only piece faster than :data:`QUIET_SPEED`, if it
        is a disk on a table top or a baton on the flat field ground (not on terrain: kubb3d's
        decision, docs/physics.md "A field baton sliding alone"), and the long step is a whole
        number of fine steps; None otherwise. Whether it slides alone is checked at every step
        (:meth:`_slide_for`)."""
        if self.equipment.board is not None:
            if p.kind not in ("baton", "kubb") or p.id in self._off_board:
                return None
            axis, on_field = min(range(3), key=lambda i: p.half_extents[i]), False
        elif p.kind == "baton" and self.terrain is None:
            axis, on_field = max(range(3), key=lambda i: p.half_extents[i]), True
        else:
            return None
        ratio = round(self.quiet_dt / self.dt)
        if ratio < 2 or ratio * self.dt != self.quiet_dt:
            return None
        self._slide = _Slide(p, ratio, self._step_dt, axis, on_field)
        return self._slide

    def _end_slide(self) -> None:
        """Hand a disk or baton sliding alone back to the fine step (its velocities back to the fine step's
        half step) and forget it."""
        st = self._slide
        if st is None:
            return None
        self._slide = None
        self._untouched = False
        if st.h != self.dt and self.has_piece(st.piece.id):
            # its accelerations over the last step (a long one, after a check)
            v, w = pb.getBaseVelocity(st.piece.body, physicsClientId=self._cid)
            inv = 1.0 / st.h
            acc = tuple((v[i] - st.v[i]) * inv for i in range(3))
            alpha = tuple((w[i] - st.w[i]) * inv for i in range(3))
            self.shift_step(st.piece.id, st.h, self.dt, acc, alpha)
        self.use_step(self.dt)
        return None

    def _slide_gap(self, st: _Slide, x: float, y: float, z: float) -> float:
        """m: gap between the sliding disk's sphere about its centre of mass (x, y, z) and the
        nearest other piece's or the board's edges (:attr:`_Piece.disk_reach`; a 1-Lipschitz
        function of the position); for a field baton its bounding sphere about its centre of mass
        (:attr:`_Piece.reach`) and every other piece's, stakes included (no edges)."""
        board = self.equipment.board
        r = st.piece.disk_reach
        g = min(board.length / 2 - abs(x), board.width / 2 - abs(y)) - r if board is not None else math.inf
        for ox, oy, oz, rr in st.others:
            d = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr
            if d < g:
                g = d
        st.at, st.gap = (x, y, z), g
        return g

    def _slide_for(self, st: _Slide, span: float, others: float) -> None:
        """Advance ``span`` s (whole fine steps) with a disk sliding and every other piece at most
        ``others`` m/s (slower than :data:`QUIET_SPEED`; gravity may speed them up in the span):
        long steps (:attr:`quiet_dt`) while the disk lies flat on the board, only the board's
        friction acts on it (measured over its last step) and it cannot reach another piece or an
        edge before the next check; fine steps otherwise. Its
        velocities are kept half a step ahead across each change of step (:meth:`shift_step`),
        so its slide does not depend on the step (v²/(2μg); docs/physics.md "Table-top sets").

        A baton on the flat field ground the same way (:data:`SLIDE_LEVEL_SIN`): lying level, not
        rocking, not rising or sinking, slowed by no more than friction, plowing and air drag can
        and clear of every other piece and stake; it goes over to the long step only once its
        accelerations held over two steps (:data:`SLIDE_STEADY_CHANGE`). Its hooks (contact
        watch, plowing, :meth:`_resist_rolling`) act per step of either length
        (docs/physics.md "A field baton sliding alone")."""
        c, me = self._cid, st.piece
        body = me.body
        H, h = self.quiet_dt, self.dt
        left = max(1, int(round(span / h)))
        st.others = []
        for p in self._pieces.values():
            if p is me or (p.kind == "stake" and not st.on_field) or p.id in self._off_board:
                continue
            com = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)[0]
            st.others.append((com[0], com[1], com[2], p.disk_reach + me.disk_reach))
        st.others_speed, st.others_time = others, self.time
        st.at, st.gap = None, -math.inf
        limit2 = (SLIDE_FRICTION_SLACK * self.ground.friction * GRAVITY) ** 2
        tilt2 = SLIDE_STEADY_TILT**2
        if st.on_field:
            # a field baton: slowed by friction, plowing (k·g·v) and perhaps air drag (at most
            # ½ρ(c_d,cross·d·L + c_d,axial·π d²/4)·v²/m)
            plow = self.ground.plowing
            drag = me.drag.most / me.mass if self.air_drag and me.drag is not None else 0.0
        while left > 0:
            if st.wait > 0:
                n = min(st.wait, left)
                if n > 1:
                    self.step(n - 1)
                st.v, st.w = pb.getBaseVelocity(body, physicsClientId=c)
                self.step(1)
                st.wait -= n
                left -= n
                st.acc = None
                continue
            v, w = pb.getBaseVelocity(body, physicsClientId=c)
            want = h
            if st.v is not None:
                inv = 1.0 / st.h
                ax, ay, az = (v[0] - st.v[0]) * inv, (v[1] - st.v[1]) * inv, (v[2] - st.v[2]) * inv
                com, (qx, qy, qz, qw) = pb.getBasePositionAndOrientation(body, physicsClientId=c)
                if st.on_field:
                    # a baton lying on the field: its axis level, not rocking about the level
                    # axis across it (its roll about its own axis and its turn about the vertical
                    # are free), slowed by no more than the ground and the air can
                    bx, by, bz = _axis((qx, qy, qz, qw))
                    vh2 = v[0] * v[0] + v[1] * v[1]
                    lim = SLIDE_FRICTION_SLACK * (self.ground.friction + plow * math.sqrt(vh2)) * GRAVITY + drag * (
                        vh2 + v[2] * v[2]
                    )
                    lay2 = bx * bx + by * by
                    steady = (
                        abs(bz) < SLIDE_LEVEL_SIN
                        and (w[0] * by - w[1] * bx) ** 2 < tilt2 * lay2
                        and ax * ax + ay * ay <= lim * lim
                    )
                else:
                    # the z component of the disk's thin body axis (column of its rotation matrix)
                    axis_z = (2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy))[st.thin]
                    steady = (
                        abs(axis_z) > SLIDE_FLAT_COS
                        and w[0] * w[0] + w[1] * w[1] < tilt2
                        and ax * ax + ay * ay <= limit2
                    )
                if (
                    steady
                    and abs(v[2]) < SLIDE_STEADY_VZ
                    and abs(az) < SLIDE_STEADY_AZ
                    and ax * v[0] + ay * v[1] <= 0.0
                ):
                    speed = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
                    # the other pieces were read at others_time: by the end of the next step they
                    # can have come this much nearer (at their speed then, and gravity if unsupported)
                    tau = self.time - st.others_time + H
                    need = 2.0 * speed * H + st.others_speed * tau + GRAVITY * tau * tau / 2 + SLIDE_MARGIN
                    if st.at is not None and st.gap - math.dist(com, st.at) > need:
                        want = H
                    else:
                        gap = self._slide_gap(st, *com)
                        if gap > need:
                            want = H
                        elif speed > 0.0:
                            # it cannot clear the need sooner than this many fine steps
                            st.wait = max(0, min(left, int((need - gap) / (speed * h))) - 1)
                else:
                    st.wait = 2 * st.ratio - 1  # tumbling, struck or just released
                if st.on_field:
                    alpha = ((w[0] - st.w[0]) * inv, (w[1] - st.w[1]) * inv, (w[2] - st.w[2]) * inv)
                    prev, st.acc = st.acc, (ax, ay, az, *alpha)
                    if want == H and st.h == h and not _steady(prev, st.acc, me.reach):
                        # its accelerations, which put its velocities half a step ahead, are not
                        # yet steady (just landed, set in motion, starting to roll): one more
                        # fine step
                        want = h
                if want == H and left < st.ratio:
                    want = left * h  # the rest of the span in one step
                if want != st.h:
                    alpha = ((w[0] - st.w[0]) * inv, (w[1] - st.w[1]) * inv, (w[2] - st.w[2]) * inv)
                    self.shift_step(me.id, st.h, want, (ax, ay, az), alpha)
                    st.h = want
                    v, w = pb.getBaseVelocity(body, physicsClientId=c)
            st.v, st.w = v, w
            self.step(1)
            if want != h:
                # it was at least 2·speed·H clear of everything: this step touched only the board
                self._untouched = True
                left -= st.ratio if want == H else left
            else:
                left -= 1

    def _motion(self) -> tuple[bool, float, _Piece | None, float]:
        """(any movable piece faster than :data:`REST_SPEED` or turning faster than
        :data:`REST_TURN`; the fastest speed of any point of any movable piece, m/s; that
        fastest piece (None if none moves); the fastest speed of any point of every other piece,
        m/s).

        A table-top piece off the board for good at the last :meth:`sample` (touching the floor,
        or below the board top and unable to climb back: :data:`FLOOR_MARGIN`) does not count,
        and is stopped, laid on the floor and put to sleep if it moves (:meth:`_put_down`)."""
        c = self._cid
        lin2, ang2 = REST_SPEED * REST_SPEED, REST_TURN * REST_TURN
        moving, fastest, second = False, 0.0, 0.0
        leader = None
        off = self._off_board
        read, sqrt = pb.getBaseVelocity, math.sqrt
        for p in self._movable:
            (vx, vy, vz), (wx, wy, wz) = read(p.body, physicsClientId=c)
            v2, w2 = vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz
            awake = p.awake = v2 > 0.0 or w2 > 0.0
            if not awake and not off:
                continue  # asleep (Bullet zeroes a sleeping body's velocities): speed 0
            if p.id in off:
                if awake:
                    self._put_down(p)
                continue
            if v2 > lin2 or w2 > ang2:
                moving = True
            speed = sqrt(v2) + sqrt(w2) * p.radius
            if speed > fastest:
                fastest, second, leader = speed, fastest, p
            elif speed > second:
                second = speed
        return moving, fastest, leader, second

    def unstable_pieces(self) -> list[str]:
        """Kubbs and kings (square blocks on a pitch) balanced on an edge or a corner: the corners
        of the block within :data:`GROUND_TOUCH` of the ground span no polygon with the centre of
        mass :data:`STABLE_MARGIN` inside it, and no other piece touches the block to hold it up.
        Such a block will tip one way or the other, however slowly it moves now. (On the flat
        ground contact manifolds are not used for the polygon: PyBullet keeps as few as two points
        for a block standing flat.) Table-top
        pieces (disks on a narrow rim) are not checked. An unstable piece is woken so that gravity
        acts on it even if the engine had put it to sleep.

        On terrain the polygon is that of :meth:`_terrain_support`: corners and ground contacts
        that touch, or so near that tipping onto them moves the block at most :data:`REST_CREEP`;
        corners merely within :data:`GROUND_TOUCH` let a king balanced along a crest pass for
        standing (docs/physics.md "Rest on the heightfield")."""
        if self.equipment.board is not None:
            return []
        c = self._cid
        out = []
        self._settling = []
        # no step since the last sample (iter_until_rest): the poses it read are the poses now
        sampled = self._sampled_at == self.steps
        for p in self._pieces.values():
            if p.kind not in ("kubb", "king") or p.shape != "box":
                continue
            pose = p.sampled if sampled and p.sampled is not None else None
            com, q = pose or pb.getBasePositionAndOrientation(p.body, physicsClientId=c)
            if p.stable_pose == (com, q):  # unmoved since it was found stable (asleep, say)
                continue
            corners = self._box_corners(p, com, q)
            if self.terrain is None:
                low = corners[corners[:, 2] < GROUND_TOUCH]
                if support_margin(low[:, :2].tolist(), (com[0], com[1])) >= STABLE_MARGIN:
                    p.stable_pose = (com, q)
                    continue
            contacts = [
                cp for cp in pb.getContactPoints(bodyA=p.body, physicsClientId=c) if cp[8] < CONTACT_GAP
            ]
            if any(cp[2] != self._ground_body for cp in contacts):  # held up by another piece
                continue
            if self.terrain is not None:
                held = self._terrain_support(com, corners, contacts)
                if held == "stable":
                    p.stable_pose = (com, q)
                    continue
                if held == "marginal":  # not remembered: looked at again at every check
                    self._settling.append(p.id)
                    continue
            out.append(p.id)
            pb.changeDynamics(p.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=c)
        return out

    def _terrain_support(self, com, corners: np.ndarray, contacts: list) -> str | None:
        """How a block on terrain is held: ``"stable"`` when its centre of mass lies at least
        :data:`TERRAIN_STABLE_MARGIN` inside the horizontal hull of the points that support it;
        ``"marginal"`` when not, but inside the hull of the points that touch (the world then waits
        :data:`MARGINAL_SETTLE_S` for it); None when it is balanced on an edge or a corner.

        A point touches when it is a corner of the bounding box within :data:`SUPPORT_TOUCH` of
        the heightfield's surface or a ground contact within that distance; it supports the block
        when it touches or is so near that the block, tipping until the point comes down, would
        move its centre of mass at most :data:`REST_CREEP` and turn at most
        :data:`REST_CREEP_TURN`: a gap g at horizontal distance r from the centre of mass, which is
        H above the point, counts when g·H/r ≤ :data:`REST_CREEP` and g/r ≤ :data:`REST_CREEP_TURN`.
        A king that settled along a crest on two contacts with its lower corners 0.2–2.5 mm up was
        taken for standing on those corners by the old test (corners within :data:`GROUND_TOUCH`)
        and then tipped 4.9 mm (docs/physics.md "Rest on the heightfield").

        Args:
            com: the centre of mass (x, y, z), m.
            corners: the bounding box's corners in the world, m, shape (8, 3).
            contacts: PyBullet contact points of the block, all with the ground.
        """
        cx, cy, cz = com
        points = [(x, y, z, z - self.ground_height(x, y)) for x, y, z in corners.tolist()]
        points += [(cp[5][0], cp[5][1], cp[5][2], cp[8]) for cp in contacts]
        support, touching = [], []
        for x, y, z, gap in points:
            if gap > GROUND_TOUCH:
                continue
            if gap > SUPPORT_TOUCH:
                r = math.hypot(x - cx, y - cy)
                if gap * max(cz - z, 0.0) > REST_CREEP * r or gap > REST_CREEP_TURN * r:
                    continue
            else:
                touching.append((x, y))
            support.append((x, y))
        if support_margin(support, (cx, cy)) >= TERRAIN_STABLE_MARGIN:
            return "stable"
        if support_margin(touching, (cx, cy)) >= 0.0:
            return "marginal"
        return None

    def _box_corners(self, p: _Piece, com, q) -> np.ndarray:
        m = np.array(pb.getMatrixFromQuaternion(q)).reshape(3, 3)
        return self._frame_from_com(p, com, q) + p.corners @ m.T

    def box_corners(self, piece_id: str) -> np.ndarray:
        """The eight corners of a piece's bounding box in the world, m, shape (8, 3)."""
        p = self._pieces[piece_id]
        com, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=self._cid)
        return self._box_corners(p, com, q)

    def at_rest_now(self) -> bool:
        """True when every movable piece is slower than :data:`REST_SPEED` and turns slower than
        :data:`REST_TURN`, and no block is in a
        balance that will tip (:meth:`unstable_pieces`)."""
        return not self._motion()[0] and not self.unstable_pieces()

    def sleep_all(self) -> None:
        """Put every movable piece to sleep (after the world came to rest)."""
        c = self._cid
        self._placed_awake.clear()
        self._stepped_since_rest = False
        for p in self._pieces.values():
            if p.kind != "stake":
                pb.changeDynamics(p.body, -1, activationState=pb.ACTIVATION_STATE_SLEEP, physicsClientId=c)

    # ------------------------------------------------------------------ snapshot
    def contacts(self) -> tuple[Contact, ...]:
        """Every contact point from the last step, as plain data (pairs in body order). Right
        after :meth:`settle_forces` (no step since), each pair's normal forces are its mean over
        the settle window (see there); otherwise the last step's."""
        out = []
        ids = self._by_body
        points = pb.getContactPoints(physicsClientId=self._cid)
        means = self._mean_forces[1] if self._mean_forces is not None and self._mean_forces[0] == self._tick else None
        if means is not None:
            # right after settle_forces: each pair's mean force over the window, shared among its
            # points of the last step as they share the last step's force (equally if that is 0)
            last: dict[tuple[int, int], list[float]] = {}
            for cp in points:
                key = (cp[1], cp[2]) if cp[1] < cp[2] else (cp[2], cp[1])
                t = last.setdefault(key, [0.0, 0])
                t[0] += cp[9]
                t[1] += 1
        for cp in points:
            a, b = ids.get(cp[1]), ids.get(cp[2])
            if a is None or b is None:
                continue
            f = float(cp[9])
            if means is not None:
                key = (cp[1], cp[2]) if cp[1] < cp[2] else (cp[2], cp[1])
                total, count = last[key]
                mean = means.get(key, 0.0)
                f = mean * (f / total if total > 0.0 else 1.0 / count)
            if a == GROUND_ID:
                out.append(Contact(b, a, tuple(cp[6]), tuple(cp[5]), tuple(-x for x in cp[7]), f, float(cp[8])))
            else:
                out.append(Contact(a, b, tuple(cp[5]), tuple(cp[6]), tuple(cp[7]), f, float(cp[8])))
        return tuple(out)

    def wake_all(self) -> list[_Piece]:
        """Wake every movable piece (but those stopped on the floor below a table top); returns
        them."""
        c = self._cid
        movable = [p for p in self._pieces.values() if p.kind != "stake" and p.id not in self._off_board]
        for p in movable:
            pb.changeDynamics(p.body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP, physicsClientId=c)
            p.awake = True
        return movable

    def settle_forces(self, max_time: float = 3.0) -> bool:
        """Wake every piece (but those stopped on the floor below a table top) and step it for
        :data:`FORCE_WINDOW` s at :attr:`quiet_dt`, so that the contacts of the snapshot that
        follows carry the static normal forces: each pair of bodies gets the mean of its summed
        normal force over the window (its normal impulse over the window divided by the window's
        length), shared among the pair's contact points of the last step in proportion to their
        own forces (equally if all read 0). The force of a single step of :attr:`dt` after waking
        (what was read before) is no static force: for a kubb leaning 1.5° past its tipping angle
        it read 0.37–0.39 of the torque balance at 1/960–1/3840 s; the window's mean reads
        1.06–1.07 of it (docs/physics.md "The contact forces the judge reads";
        ``benchmarks/settle_forces.py``).

        Pieces that were put to sleep while pressed into each other (e.g. a scene rebuilt from
        rounded poses) are pushed apart when woken (by split impulse: they move without gaining
        speed); if any piece moved more than 0.5 mm or turned more than 0.5° in the window, or is
        faster than 5 × :data:`REST_SPEED` at its end, the world runs until rest again (at most
        ``max_time`` s) and takes the window once more.

        Returns:
            True if the world was still at rest after waking up.
        """
        c = self._cid
        movable = self.wake_all()
        before = [pb.getBasePositionAndOrientation(p.body, physicsClientId=c) for p in movable]
        self._force_window()
        limit = (5 * REST_SPEED) ** 2
        cos_turn = math.cos(math.radians(0.5) / 2)
        for p, (pos0, q0) in zip(movable, before):
            pos, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)
            v = pb.getBaseVelocity(p.body, physicsClientId=c)[0]
            if (
                v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > limit
                or math.dist(pos, pos0) > 0.0005
                or abs(sum(a * b for a, b in zip(q, q0))) < cos_turn
            ):
                self.run_until_rest(max_time)
                self._force_window()
                return False
        return True

    def _force_window(self) -> None:
        """Step :data:`FORCE_WINDOW` s at :attr:`quiet_dt` (then back to :attr:`dt`) and keep each
        body pair's mean normal force over it for :meth:`contacts` (see :meth:`settle_forces`)."""
        c = self._cid
        self.use_step(self.quiet_dt)
        n = self.steps_for(FORCE_WINDOW)
        sums: dict[tuple[int, int], float] = {}
        for _ in range(n):
            self.step(1)
            for cp in pb.getContactPoints(physicsClientId=c):
                key = (cp[1], cp[2]) if cp[1] < cp[2] else (cp[2], cp[1])
                sums[key] = sums.get(key, 0.0) + cp[9]
        self.use_step(self.dt)
        self._mean_forces = (self._tick, {k: f / n for k, f in sums.items()})

    def snapshot(self, contacts: bool = True) -> Snapshot:
        """The world now as a :class:`Snapshot` (contacts from the last step; none with
        ``contacts=False``, for a caller that keeps only the poses)."""
        c = self._cid
        pieces = {}
        for p in self._pieces.values():
            com, q = pb.getBasePositionAndOrientation(p.body, physicsClientId=c)
            v, w = pb.getBaseVelocity(p.body, physicsClientId=c)
            pos = self._frame_from_com(p, com, q)
            pieces[p.id] = PieceState(
                id=p.id,
                kind=p.kind,
                shape=p.shape,
                half_extents=tuple(p.half_extents),
                position=tuple(float(x) for x in pos),
                quat_xyzw=tuple(q),
                mass=p.mass,
                com_local=p.com_local,
                linear_velocity=tuple(v),
                angular_velocity=tuple(w),
                max_tilt=max(p.max_tilt, math.acos(max(-1.0, min(1.0, p.turn_cos(q)))))
                if p.kind in ("kubb", "king")
                else 0.0,
                side=p.side,
                max_lean=p.lean_so_far(q) if p.kind == "kubb" else None,
            )
        return Snapshot(self.time, pieces, self.contacts() if contacts else (), self.pitch, GRAVITY)


class FlightClearance:
    """The clearance of a flying piece (see :meth:`World.flight_clearance`): called with its centre
    of mass (x, y, z), m, it gives the gap, m, between its bounding sphere and the ground's highest
    point or the nearest other bounding sphere.

    Args:
        ground_clear: m, the height of the centre above which the sphere clears the ground.
        others: (x, y, z, r) per other piece: its bounding-box centre, m, and the sum of both
            bounding radii, m.
    """

    TOLERANCE = 1e-9
    """m: slack on the bound of :meth:`exceeds` (rounding of a gap is ~1e-15 m)."""

    def __init__(self, ground_clear: float, others: list[tuple[float, float, float, float]]) -> None:
        self.ground_clear = ground_clear
        self.others = others
        self._at: tuple | None = None
        self._gap = -math.inf
        self.evaluations = 0

    def __call__(self, com) -> float:
        x, y, z = com
        g = z - self.ground_clear
        for ox, oy, oz, rr in self.others:
            d = math.sqrt((x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2) - rr
            if d < g:
                g = d
        self.evaluations += 1
        self._at, self._gap = tuple(com), g
        return g

    def exceeds(self, com, need: float) -> bool:
        """Exactly ``self(com) > need``. The gap is a 1-Lipschitz function of the position (every
        term is a distance or a height), so after an exact evaluation g₀ at p₀ the gap at ``com``
        is at least g₀ − |com − p₀|: while that bound clears ``need`` by :attr:`TOLERANCE` the
        answer is True without a new evaluation (in a flight far from everything, one evaluation
        serves many steps)."""
        if self._at is not None and self._gap - math.dist(com, self._at) > need + self.TOLERANCE:
            return True
        return self(com) > need


class ContactWatch:
    """The watch of a thrown piece after its first contact (:meth:`World.contact_watch`).

    :attr:`hook` is called before every step: it reads the piece's contact points of the step
    just taken and their normal force (:meth:`World.touching_now`), keeps every piece it touches (:attr:`touched`) and
    the first contact with anything but the ground (:attr:`first`), and applies for the coming
    step the air drag (:meth:`World.apply_drag`, until the piece first moves slower than
    ``drag_until`` m/s) and the ground's plowing resistance (:meth:`World.apply_plowing`, while
    its ground contacts carry a normal force), both from one read of its velocity and pose.

    Attributes:
        touched: ids of what it touched (pieces, ``floor`` or ``?``; not the ground).
        first: (id, world time s, contact position on the piece m) of its first contact with
            anything but the ground, None until there is one.
        active: False once the hook can apply no force any more (no drag and no plowing
            ground): a caller registering it as a step hook can register it as a mere watch.
    """

    def __init__(self, world: World, p: _Piece, drag_until: float) -> None:
        self.touched: set[str] = set()
        self.first: tuple[str, float, tuple] | None = None
        plow = world.ground.plowing
        drag = p.drag if world.air_drag else None
        self.active = drag is not None or plow > 0
        c, body, g = world._cid, p.body, world._ground_body
        by, flat, solved = world._by_body, world._ground_bodies, world._solved_gap
        roller, mass, limit2 = p.roll is not None, p.mass, drag_until**2
        touched = self.touched
        contacts, velocity, pose = pb.getContactPoints, pb.getBaseVelocity, pb.getBasePositionAndOrientation
        force, frame, expm1 = pb.applyExternalForce, pb.WORLD_FRAME, math.expm1

        def hook() -> None:
            nonlocal drag
            normal = nx = ny = nz = 0.0
            for cp in contacts(bodyA=body, physicsClientId=c):
                b = cp[2]
                if b == g and cp[8] <= solved:
                    f, d = cp[9], cp[7]
                    normal += f
                    nx += f * d[0]
                    ny += f * d[1]
                    nz += f * d[2]
                if b not in flat:
                    other = by.get(b, "?")
                    if self.first is None:
                        self.first = (other, world.time, cp[5])
                    touched.add(other)
            if world._taken_dt != world._step_dt:
                k = world._force_scale()  # World.touching_now: the force of the step taken
                normal, nx, ny, nz = normal * k, nx * k, ny * k, nz * k
            tick = world._tick
            if roller:
                p.ground_read = (tick, normal, nx, ny, nz)  # for World._resist_rolling, this step
            plowing = plow > 0 and normal > 0.0
            if drag is None and not plowing:
                return
            vel = velocity(body, physicsClientId=c)
            state = pose(body, physicsClientId=c)
            if roller:
                p.velocity_read = (tick, vel)
                p.pose_read = (tick, state)
            v, (com, (x, y, z, w)) = vel[0], state
            vx, vy, vz = v
            if drag is not None:
                if vx * vx + vy * vy + vz * vz < limit2:
                    drag = None
                    self.active = plow > 0
                else:
                    axis = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
                    force(body, -1, drag.force(v, axis), com, frame, physicsClientId=c)
            if plowing:
                # World.apply_plowing: the exact solution of m dv/dt = -k N v over one step
                h = world._step_dt
                scale = mass * -expm1(-plow * normal * h / mass) / h
                force(body, -1, (-scale * vx, -scale * vy, 0.0), com, frame, physicsClientId=c)

        self.hook = hook


def support_margin(points, com_xy) -> float:
    """Signed distance, m, of ``com_xy`` inside the convex hull of the horizontal contact points
    ``points`` (sequence of (x, y)); negative outside, ``-inf`` when the points span no area
    (fewer than three, or all on one line: a block on an edge or a corner)."""
    hull = convex_hull([(round(x, 6), round(y, 6)) for x, y in points])
    margin = -math.inf if len(hull) < 3 else math.inf
    for i, a in enumerate(hull if len(hull) >= 3 else ()):
        b = hull[(i + 1) % len(hull)]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        if length > 1e-9:
            margin = min(margin, (ex * (com_xy[1] - a[1]) - ey * (com_xy[0] - a[0])) / length)
    return margin


def quaternion_from_euler(roll_pitch_yaw) -> tuple[float, float, float, float]:
    """quat_xyzw of extrinsic x-y-z Euler angles (rad), as PyBullet computes it."""
    return tuple(float(v) for v in pb.getQuaternionFromEuler(tuple(roll_pitch_yaw)))
