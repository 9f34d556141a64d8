"""An upright kubb pushed along the flat ground: how far it slides against v²/(2 μ g), and where
the friction impulse goes (docs/physics.md "An upright kubb sliding short").

A block sliding on its end face, pushed at v with kinetic friction μ < w/h so that it does not tip,
carries its weight on its base, m g, and loses its speed to friction μ m g: it stops after
v²/(2 μ g), whatever its heading. Per step this records the kubb's velocity, its tilt and its
ground contacts (normal force, both lateral frictions) and integrates, until its horizontal speed
is under 1 mm/s: the normal impulse against m g t, the friction impulse along the push (braking)
against m v, and the part of that braking which comes from contacts that carry no normal force.

Cases: the field kubb standing (by heading, the angle between the push and a face's normal; by
step; by friction), the same kubb lying on a side face and a plain box of the kubb's size and
mass standing, all in kubb3d's world (the flat ground; friction set as
``benchmarks/upright_slide.py`` sets it, on grass, whose plowing and air drag act only on a
thrown piece's watch and so not here); and PyBullet alone (none of kubb3d's engine settings): the
kubb's model file on a static box whose friction is μ, the box made with maximal coordinates (as
kubb3d's ground is) or as a fixed multibody (PyBullet's default for ``createMultiBody``), and on
the former with PyBullet's MLCP solver with projected Gauss-Seidel (``constraintSolverType``).
Simulated figures: load changes only the wall time.

With ``--mlcp``, kubb3d's worlds with PyBullet's MLCP solver (projected Gauss-Seidel) against
its own, each in a process of its own (a pooled PyBullet client keeps its solver): the pushes, the
1 m drops of the validation's rebound rows, the friction from which the kubb pushed at heading 0
tips, and ``kubb3d bench``'s throws (felled per throw, paired, and CPU time; this part takes
minutes, and its CPU time depends on the load).

Usage::

    .venv/bin/python benchmarks/upright_slide_length.py [--mlcp [--throws 200]]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kubb3d.equipment import EQUIPMENT_SETS
from kubb3d.model_files import model_path
from kubb3d.physics._pybullet import pb
from kubb3d.physics.engine import CONTACT_BREAKING
from kubb3d.physics.ground import GRASS, Materials, use_materials
from kubb3d.physics.world import GRAVITY, World
from kubb3d.snapshot import quat_to_matrix

SPEED = 2.0
"""m/s: the push, along x."""
STEPS = (960, 1920, 3840)
"""steps per second."""
HEADINGS = (0.0, 22.5, 45.0)
"""degrees between the push and a face's normal."""
FRICTIONS = (0.3, GRASS.friction)
"""μ of the tables: the 0.3 of the first notice, and grass's own."""
STOP_SPEED = 1e-3
"""m/s: the kubb counts as stopped once its horizontal speed is below this."""
POSES = ("upright", "lying", "box")
"""the field kubb standing, the field kubb lying on a side face, a plain box standing."""
ALONE = ("maximal", "maximal, enableConeFriction 0", "maximal, 500 iterations", "multibody", "mlcp")
"""PyBullet alone: the ground with maximal coordinates (with PyBullet's defaults, with
``enableConeFriction=0``, with 500 solver iterations instead of 50), as a fixed multibody, and with
maximal coordinates and the MLCP solver (projected Gauss-Seidel)."""
SCAN_HEADINGS = (0.0, 5.0, 10.0, 15.0, 22.5, 30.0, 45.0, 60.0, 67.5, 75.0, 80.0, 85.0, 90.0)
"""degrees of ``scan_rows``."""
SCAN_GROUNDS = ("wet-grass", "turf", "grass")
"""the shipped field grounds whose friction ``scan_rows`` uses, beside 0.3."""


@dataclass(frozen=True)
class Push:
    """One push of :data:`SPEED` m/s along x, integrated until the kubb stopped.

    Attributes:
        friction: μ of the ground.
        mass: kg.
        slide: m, how far its centre of mass moved along the push.
        aside: m, how far across it.
        time: s, from the push until it stopped.
        normal: N·s, the integral of its ground contacts' normal forces.
        braking: N·s, the integral of its ground contacts' friction against the push.
        unloaded: N·s, the part of ``braking`` from contacts carrying no normal force.
        tilt: degrees, the largest tilt from its pose at the push (of the body axis that was
            vertical then).
        turn: degrees, the largest turn about the vertical from its heading at the push.
        steps: how many steps it slid.
        unloaded_steps: in how many of them a contact with no normal force had friction.
        behind: in how many of those every such contact was behind its centre along the push.
    """

    friction: float
    mass: float
    slide: float
    aside: float
    time: float
    normal: float
    braking: float
    unloaded: float
    tilt: float
    turn: float
    steps: int
    unloaded_steps: int
    behind: int

    @property
    def law(self) -> float:
        """m: v²/(2 μ g)."""
        return SPEED * SPEED / (2 * self.friction * GRAVITY)

    @property
    def share(self) -> float:
        """The slide over the law, less 1."""
        return self.slide / self.law - 1.0

    @property
    def weight(self) -> float:
        """N·s: m g t, the normal impulse of a kubb that neither rocks nor bounces."""
        return self.mass * GRAVITY * self.time

    @property
    def momentum(self) -> float:
        """N·s: m v, what the braking must take."""
        return self.mass * SPEED

    @property
    def excess(self) -> float:
        """N·s: the braking beyond μ times the normal impulse."""
        return self.braking - self.friction * self.normal


def _measure(
    client: int,
    body: int,
    ground: int,
    dt: float,
    mass: float,
    friction: float,
    step: Callable[[], None],
    seconds: float,
) -> Push:
    """Push ``body`` along x and follow it for ``seconds`` s of steps of ``dt`` s (``step`` takes one)."""
    start, quat = pb.getBasePositionAndOrientation(body, physicsClientId=client)
    axes0 = quat_to_matrix(quat)
    pb.resetBaseVelocity(body, (SPEED, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=client)
    normal = braking = unloaded = tilt = turn = 0.0
    sliding = unloaded_steps = behind = 0
    stopped: float | None = None
    for i in range(int(round(seconds / dt))):
        step()
        if stopped is None:
            centre = pb.getBasePositionAndOrientation(body, physicsClientId=client)[0][0]
            sliding += 1
            where = []  # along the push from the centre, m: the unloaded contacts with friction
            for c in pb.getContactPoints(body, ground, physicsClientId=client):
                # the friction on the kubb: lateralFriction1 along lateralFrictionDir1, and 2 along 2
                along = -(c[10] * c[11][0] + c[12] * c[13][0]) * dt
                normal += c[9] * dt
                braking += along
                if c[9] <= 0.0:
                    unloaded += along
                    if c[10] != 0.0 or c[12] != 0.0:
                        where.append(c[5][0] - centre)
            if where:
                unloaded_steps += 1
                behind += max(where) < 0.0
            v = pb.getBaseVelocity(body, physicsClientId=client)[0]
            if math.hypot(v[0], v[1]) < STOP_SPEED:
                stopped = (i + 1) * dt
        axes = quat_to_matrix(pb.getBasePositionAndOrientation(body, physicsClientId=client)[1])
        # the body axis that was vertical at the push, and the one that pointed along x
        up, ahead = axes @ (axes0.T @ (0.0, 0.0, 1.0)), axes @ (axes0.T @ (1.0, 0.0, 0.0))
        tilt = max(tilt, math.degrees(math.acos(min(1.0, float(up[2])))))
        turn = max(turn, abs(math.degrees(math.atan2(float(ahead[1]), float(ahead[0])))))
    end = pb.getBasePositionAndOrientation(body, physicsClientId=client)[0]
    return Push(
        friction,
        mass,
        end[0] - start[0],
        end[1] - start[1],
        stopped if stopped is not None else seconds,
        normal,
        braking,
        unloaded,
        tilt,
        turn,
        sliding,
        unloaded_steps,
        behind,
    )


def _quat(heading_deg: float, lying: bool = False) -> tuple[float, float, float, float]:
    """A face's normal ``heading_deg`` from x; lying: the long axis (body z) laid along y first."""
    h = math.radians(heading_deg)
    q = (0.0, 0.0, math.sin(h / 2), math.cos(h / 2))
    if lying:
        q = tuple(
            pb.multiplyTransforms((0, 0, 0), q, (0, 0, 0), (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4)))[1]
        )
    return q  # type: ignore[return-value]


def model_mass() -> float:
    """kg: the standard kubb's mass in its model file."""
    import xml.etree.ElementTree as ET

    mass = ET.parse(model_path("standard", "kubb")).find("link/inertial/mass")
    assert mass is not None
    return float(mass.get("value", "nan"))


def push(friction: float, heading_deg: float, dt: float, pose: str = "upright", seconds: float = 1.0) -> Push:
    """A standard kubb (``pose`` ``upright`` or ``lying``) or a plain box of its size and mass
    (``box``) on kubb3d's flat ground of friction ``friction``, pushed at :data:`SPEED` along x,
    a face's normal ``heading_deg`` from it, at steps of ``dt`` s."""
    kubb = EQUIPMENT_SETS["standard"].kubb
    with use_materials(Materials(grounds=(dataclasses.replace(GRASS, friction=friction),))):
        with World("standard", ground="grass", stakes=False, dt=dt) as w:
            client, q = w.engine.client, _quat(heading_deg, pose == "lying")
            if pose == "box":
                half = (kubb.width / 2, kubb.width / 2, kubb.height / 2)
                shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=half, physicsClientId=client)
                mass = model_mass()
                body = pb.createMultiBody(
                    mass, shape, -1, (0.0, 0.0, half[2]), q, useMaximalCoordinates=True, physicsClientId=client
                )
                # the dynamics kubb3d gives a kubb (kubb3d/physics/engine.py, Engine.register)
                pb.changeDynamics(
                    body,
                    -1,
                    lateralFriction=math.sqrt(w.engine.materials.wood_friction),
                    restitution=math.sqrt(w.engine.materials.wood_restitution),
                    linearDamping=0.0,
                    angularDamping=0.0,
                    activationState=pb.ACTIVATION_STATE_DISABLE_SLEEPING,
                    physicsClientId=client,
                )
                ground = w.engine.ground_body
            else:
                w.add_piece("k", "kubb", (0.0, 0.0, w.height_on_ground("kubb", 0.0, 0.0, q)), q, sleeping=False)
                body, ground = w.engine.body_of("k"), w.engine.pieces["k"].ground
                mass = w.engine.pieces["k"].mass
            return _measure(client, body, ground, dt, mass, friction, lambda: w.step(1), seconds)


def engine_alone(
    friction: float, heading_deg: float, dt: float, ground_kind: str = "maximal", seconds: float = 1.0
) -> Push:
    """The same push of the standard kubb's model file in PyBullet alone (its defaults but for the
    step, gravity, kubb3d's contact breaking threshold and deterministic pairs), on a static box
    (top at z = 0, friction ``friction``, the kubb's 1) made with maximal coordinates (``maximal``;
    with ``enableConeFriction 0`` or ``500 iterations`` in the name, those set; ``mlcp``: and the
    MLCP solver with projected Gauss-Seidel) or as a fixed multibody (``multibody``), one of
    :data:`ALONE`."""
    client = pb.connect(pb.DIRECT)
    try:
        pb.setGravity(0, 0, -GRAVITY, physicsClientId=client)
        # Bullet's contact breaking threshold is one global of the process, which every kubb3d world
        # sets (CONTACT_BREAKING): set here too, so that the result does not depend on what ran before
        pb.setPhysicsEngineParameter(
            fixedTimeStep=dt,
            contactBreakingThreshold=CONTACT_BREAKING,
            deterministicOverlappingPairs=1,
            physicsClientId=client,
        )
        if ground_kind == "mlcp":
            pb.setPhysicsEngineParameter(constraintSolverType=pb.CONSTRAINT_SOLVER_LCP_PGS, physicsClientId=client)
        if "enableConeFriction 0" in ground_kind:
            pb.setPhysicsEngineParameter(enableConeFriction=0, physicsClientId=client)
        if "500 iterations" in ground_kind:
            pb.setPhysicsEngineParameter(numSolverIterations=500, physicsClientId=client)
        shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=(5.0, 5.0, 1.0), physicsClientId=client)
        ground = pb.createMultiBody(
            0,
            shape,
            basePosition=(0, 0, -1.0),
            useMaximalCoordinates=ground_kind != "multibody",
            physicsClientId=client,
        )
        pb.changeDynamics(ground, -1, lateralFriction=friction, physicsClientId=client)
        kubb = EQUIPMENT_SETS["standard"].kubb
        body = pb.loadURDF(
            str(model_path("standard", "kubb")),
            (0.0, 0.0, kubb.height / 2),
            _quat(heading_deg),
            useMaximalCoordinates=True,
            flags=pb.URDF_USE_INERTIA_FROM_FILE,
            physicsClientId=client,
        )
        pb.changeDynamics(
            body,
            -1,
            lateralFriction=1.0,
            linearDamping=0.0,
            angularDamping=0.0,
            activationState=pb.ACTIVATION_STATE_DISABLE_SLEEPING,
            physicsClientId=client,
        )
        mass = pb.getDynamicsInfo(body, -1, physicsClientId=client)[0]
        return _measure(
            client, body, ground, dt, mass, friction, lambda: pb.stepSimulation(physicsClientId=client), seconds
        )
    finally:
        pb.disconnect(physicsClientId=client)


def percent(value: float) -> str:
    """A signed percentage as docs/physics.md writes it: "−19.7", "+0.1" (a true minus sign)."""
    return f"{100 * value:+.1f}".replace("-", "−")


def cell(p: Push) -> str:
    """A table cell: the slide in m and its share over the law."""
    return f"{p.slide:.3f} m ({percent(p.share)} %)"


def upright_rows() -> list[str]:
    """The table of the field kubb standing: per friction and heading, the slide at each step."""
    rows = []
    for friction in FRICTIONS:
        for heading in HEADINGS:
            cells = [cell(push(friction, heading, 1 / s)) for s in STEPS]
            rows.append(f"| {friction:g} | {heading:g}° | " + " | ".join(cells) + " |")
    return rows


def impulse_rows() -> list[str]:
    """The impulses at μ 0.3, heading 0, per step: normal over m g t, braking over m v, braking over
    μ × normal, the excess over μ × normal and the braking of unloaded contacts (N·s), in how many
    steps an unloaded contact had friction (and it was behind the centre), the largest tilt and
    the largest turn about the vertical."""
    rows = []
    for s in STEPS:
        p = push(0.3, 0.0, 1 / s)
        rows.append(
            f"| 1/{s} s | {p.normal / p.weight:.4f} | {p.braking / p.momentum:.4f} | {p.braking / p.normal:.4f} | "
            f"{p.excess:.4f} N·s | {p.unloaded:.4f} N·s | {p.unloaded_steps} of {p.steps}, behind in {p.behind} | "
            f"{p.tilt:.3f}° | {p.turn:.2f}° |"
        )
    return rows


def pose_rows() -> list[str]:
    """The lying kubb and the plain box at μ 0.3 beside the standing kubb: per pose and heading,
    the slide at each step."""
    rows = []
    for pose in POSES:
        for heading in (0.0, 45.0):
            cells = [cell(push(0.3, heading, 1 / s, pose)) for s in STEPS]
            rows.append(f"| {pose} | {heading:g}° | " + " | ".join(cells) + " |")
    return rows


def alone_rows() -> list[str]:
    """PyBullet alone at μ 0.3, 1/960 s: per ground and heading, the slide and the braking of
    unloaded contacts."""
    rows = []
    for kind in ALONE:
        cells = []
        for heading in (0.0, 45.0):
            p = engine_alone(0.3, heading, 1 / 960, kind)
            cells.append(f"{cell(p)}, {p.unloaded:.4f} N·s")
        rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    return rows


def scan_rows() -> list[str]:
    """At 1/960 s, per friction (0.3 and the shipped field grounds'), the slide over the law at
    each heading of :data:`SCAN_HEADINGS`."""
    from kubb3d.physics.ground import GROUNDS

    frictions = [("0.3", 0.3)] + [(f"{GROUNDS[g].friction:g} ({g})", GROUNDS[g].friction) for g in SCAN_GROUNDS]
    rows = []
    for label, friction in frictions:
        shares = [percent(push(friction, heading, 1 / 960).share) for heading in SCAN_HEADINGS]
        rows.append(f"| {label} | " + " | ".join(shares) + " |")
    return rows


MLCP_THROWS_SEED = 0
"""The seed of ``kubb3d bench``'s throws in ``--mlcp``."""


def use_mlcp() -> None:
    """From now on, in this process, every kubb3d world steps with PyBullet's MLCP solver with
    projected Gauss-Seidel instead of its sequential-impulse solver (a trial: nothing else in
    kubb3d changes)."""
    import kubb3d.physics.engine as engine_module

    configure = engine_module.Engine._configure

    def with_mlcp(engine: engine_module.Engine, solver_iterations: int) -> None:
        configure(engine, solver_iterations)
        pb.setPhysicsEngineParameter(constraintSolverType=pb.CONSTRAINT_SOLVER_LCP_PGS, physicsClientId=engine.client)

    engine_module.Engine._configure = with_mlcp  # type: ignore[method-assign]


def solver_figures(mlcp: bool, throws: int) -> dict:
    """The figures of ``--mlcp`` for one solver, in this process (:func:`use_mlcp` if ``mlcp``):
    slides over the law (μ 0.3 and grass's, headings 0, 22.5°, 45°, 1/960 s), the 1 m drops' rise
    over e²·h plus v·dt/2 (kubb on its end, baton flat, grass, 1/960 and 1/1920 s), the friction
    bracket from which the kubb pushed at heading 0 tips (1/960 s), and ``throws`` of
    ``kubb3d bench``'s throws: kubbs felled per throw and the CPU time."""
    import time

    from kubb3d.bench import _throws, full_throws
    from kubb3d.validate.rebound import drop_bounce, step_rise

    if mlcp:
        use_mlcp()
    bench_path = Path(__file__).resolve().parent / "upright_slide.py"
    spec = importlib.util.spec_from_file_location("upright_slide", bench_path)
    assert spec is not None and spec.loader is not None
    upright = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(upright)
    figures: dict = {
        "slides": {
            f"{friction:g} {heading:g}": push(friction, heading, 1 / 960).share
            for friction in FRICTIONS
            for heading in HEADINGS
        }
    }
    drops = {}
    e2 = GRASS.restitution**2
    for kind in ("kubb", "baton"):
        for s in (960, 1920):
            rise, speed = drop_bounce("grass", kind, False, dt=1 / s)
            drops[f"{kind} {s}"] = rise / (e2 + step_rise(speed, 1 / s))
    figures["drops"] = drops
    figures["tips"] = list(upright.tipping_friction(1 / 960))
    if throws:
        chosen = _throws(throws, MLCP_THROWS_SEED)
        full_throws(chosen[:5])  # warm caches, as kubb3d bench does
        felled: list[int] = []
        start = time.process_time()
        full_throws(chosen, felled=felled)
        figures["cpu"] = time.process_time() - start
        figures["felled"] = felled
    return figures


def compare_solvers(throws: int) -> tuple[dict, dict]:
    """(PyBullet's own solver, MLCP): :func:`solver_figures`, each in a fresh process."""
    import json
    import subprocess
    import sys

    out = []
    for which in ("si", "mlcp"):
        res = subprocess.run(
            [sys.executable, __file__, "--solver-figures", which, "--throws", str(throws)],
            capture_output=True,
            text=True,
            check=True,
        )
        # PyBullet prints its solver switch on the C side: the figures are the last line
        out.append(json.loads(res.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


def mlcp_rows(throws: int, figures: tuple[dict, dict] | None = None) -> list[str]:
    """The rows of ``--mlcp``: per case, PyBullet's own solver against MLCP (of ``figures``, from
    :func:`compare_solvers` if None)."""
    own, mlcp = figures if figures is not None else compare_solvers(throws)
    rows = []
    for key in own["slides"]:
        friction, heading = key.split()
        rows.append(
            f"| upright, μ {friction}, {heading}°, slide over the law | {percent(own['slides'][key])} % | "
            f"{percent(mlcp['slides'][key])} % |"
        )
    for key in own["drops"]:
        kind, s = key.split()
        rows.append(
            f"| {kind} dropped 1 m on grass, 1/{s} s: rise over e²·h + v·dt/2 | {own['drops'][key]:.3f} | "
            f"{mlcp['drops'][key]:.3f} |"
        )
    rows.append(
        "| heading 0, 1/960 s: upright at μ, falls at | "
        + " | ".join(f"{f['tips'][0]:.4f}, {f['tips'][1]:.4f}" for f in (own, mlcp))
        + " |"
    )
    if throws:
        import math

        a, b = own["felled"], mlcp["felled"]
        diff = [y - x for x, y in zip(a, b)]
        mean = sum(diff) / len(diff)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (len(diff) - 1))
        rows.append(
            f"| {len(a)} throws (bench, seed {MLCP_THROWS_SEED}): felled per throw | {sum(a) / len(a):.3f} | "
            f"{sum(b) / len(b):.3f} (paired {f'{mean:+.3f}'.replace('-', '−')} "
            f"± {1.96 * sd / math.sqrt(len(diff)):.3f}; "
            f"{sum(d != 0 for d in diff)} differ, {sum(d > 0 for d in diff)} more) |"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mlcp", action="store_true", help="kubb3d with the MLCP solver against its own")
    ap.add_argument("--throws", type=int, default=200, help="bench throws of --mlcp (0: none)")
    ap.add_argument("--solver-figures", choices=("si", "mlcp"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.solver_figures:
        import json

        print(json.dumps(solver_figures(a.solver_figures == "mlcp", a.throws)))
        return
    if a.mlcp:
        import os

        figures = compare_solvers(a.throws)
        print("| MLCP trial | PyBullet's own solver | MLCP, projected Gauss-Seidel |")
        for row in mlcp_rows(a.throws, figures):
            print(row, flush=True)
        if a.throws:
            own, mlcp = figures
            print(
                f"CPU of the {a.throws} throws: {own['cpu']:.1f} s and {mlcp['cpu']:.1f} s "
                f"({mlcp['cpu'] / own['cpu'] - 1:+.0%}), load {os.getloadavg()[0]:.1f} after"
            )
        return
    print(
        f"law v²/(2 μ g): μ 0.3 {SPEED**2 / (2 * 0.3 * GRAVITY):.3f} m, μ {GRASS.friction:g} "
        f"{SPEED**2 / (2 * GRASS.friction * GRAVITY):.3f} m"
    )
    print("| μ | heading | 1/960 s | 1/1920 s | 1/3840 s |")
    for row in upright_rows():
        print(row, flush=True)
    print(
        "| μ 0.3, heading 0 | ∫N / (m g t) | braking / (m v) | braking / ∫N | braking − μ ∫N "
        "| braking by unloaded contacts | steps with one, it behind the centre | largest tilt | largest turn |"
    )
    for row in impulse_rows():
        print(row, flush=True)
    print("| μ 0.3 | heading | 1/960 s | 1/1920 s | 1/3840 s |")
    for row in pose_rows():
        print(row, flush=True)
    print("| μ, 1/960 s | " + " | ".join(f"{h:g}°" for h in SCAN_HEADINGS) + " |")
    for row in scan_rows():
        print(row, flush=True)
    print("| PyBullet alone, μ 0.3, 1/960 s | heading 0 | heading 45° |")
    for row in alone_rows():
        print(row, flush=True)


if __name__ == "__main__":
    main()
