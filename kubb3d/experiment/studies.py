"""The research studies of docs/studies.md: figures with 95 % intervals from the results files
of the shipped study specs (``opening-advantage``, ``first-baton``), kept as one JSON document
(docs/studies.json, :func:`summarise`) and rendered from it to Markdown (:func:`render`).

Intervals: a rate of matches has its Wilson interval (:func:`kubb3d.experiment.stats.wilson`);
a rate of kubbs pooled over the turns of many matches (first-baton efficiency, kubbs felled per
8 m baton) is a ratio of sums whose turns are not independent within a match, so its interval
is the ratio estimator's, with the match as the cluster: R = Σy / Σx over n matches,
SE = √(n/(n−1) · Σ(y − R·x)²) / Σx, R ± t SE with t Student's 95 % quantile for n − 1 degrees
of freedom (:func:`kubb3d.experiment.stats.t95`: 2.365 for the eight teams of
:data:`FIRST_BATON_TEAMS`, where the normal 1.96 was too narrow); none for a single match. Its low
end is clipped to 0 and, for a share that cannot pass 1 (kubbs felled of those standing), its high
end to 1: the true ratio lies in that range, so clipping keeps the interval's coverage.

The ratio estimator's SE is 0 when every match has the same ratio (a partial run whose six
8 m batons felled nothing printed ``0.0 % (0.0–0.0 %)``), and rests on few matches when there
are few: with fewer than :data:`FEW_CLUSTERS` matches, or no spread between them, the interval
is widened to hold the Wilson interval of the pooled counts Σy of Σx (as if each kubb or baton
were a trial of its own; 0 of 6 gives 0–39 %), and a single match has that one. A ratio above 1
(kubbs per baton) has no such count interval and keeps none then.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

from kubb3d.errors import StudyError
from kubb3d.judge.messages import FORMATTER
from kubb3d.experiment.stats import Z95, t95, wilson

SCHEMA = 1
"""Version of the JSON document :func:`summarise` writes."""

STUDY_SPECS = ("opening-advantage", "first-baton")
"""The shipped specs whose results :func:`summarise` reads."""

FIRST_BATON_TEAMS = (
    ("Kubbitz", 41, 87),
    ("Furor Celtica", 16, 35),
    ("Ringers", 30, 66),
    ("Kubbsicles", 15, 34),
    ("Damage", 15, 35),
    ("X-Kubbed", 36, 88),
    ("Ona Orth", 24, 62),
    ("King Pin", 11, 29),
)
"""First-baton efficiency of the eight quarter-final teams of the 2015 U.S. National Kubb
Championship: (team, field kubbs felled by first batons, field kubbs inkasted), recorded throw
by throw by Planet Kubb ("Planet Kubb Award 2015: First Baton Efficiency to Kubbitz",
planetkubb.com, July 2015)."""

FIRST_BATON_SOURCE = 'Planet Kubb, "Planet Kubb Award 2015: First Baton Efficiency to Kubbitz" (planetkubb.com, 2015)'

ADVANTAGE_LINE_REAL: dict[str, Any] = {
    "lost_share": 0.88,
    "games": 32,
    "year": 2012,
    "source": "Planet Kubb (pitch.planetkubb.com)",
}
"""One count from real play: of 32 recorded games in which a side left an advantage line, the
side that left it lost 88 % (Planet Kubb, 2012)."""

EIGHT_M_REAL: dict[str, Any] = {"rate": 0.42, "source": 'kubbon.com, "42: the answer" (2012)'}
"""The 8 m hit rate per baton quoted as what it takes to play competitively (tournament videos,
2012)."""


# ------------------------------------------------------------------ intervals
FEW_CLUSTERS = 5
"""Below this many matches a ratio's interval also holds the Wilson interval of its pooled
counts (module doc)."""


def ratio_interval(pairs: Sequence[tuple[float, float]], ceiling: float | None = 1.0) -> dict[str, Any]:
    """Σy / Σx over clusters ``(y, x)`` with the ratio estimator's interval (module doc);
    ``ceiling``: the most the ratio can be (1 for a share; None for kubbs felled per baton, which
    can pass 1).

    Returns ``{"value", "low", "high", "clusters"}``; value None when Σx = 0; with fewer than
    :data:`FEW_CLUSTERS` clusters or none of spread the interval holds the Wilson interval of the
    counts, and low/high are None where there is neither (one cluster of a ratio above 1)."""
    used = [(float(y), float(x)) for y, x in pairs if x > 0]
    sx = float(sum(x for _, x in used))
    n = len(used)
    if sx <= 0:
        return {"value": None, "low": None, "high": None, "clusters": n}
    sy = float(sum(y for y, _ in used))
    r = sy / sx
    counts = None  # the Wilson interval of the pooled counts, where they are counts of trials
    if sy.is_integer() and sx.is_integer() and sy <= sx:
        counts = wilson(int(sy), int(sx))
    low: float | None = None
    high: float | None = None
    spread = True
    if n >= 2:
        s2 = sum((y - r * x) ** 2 for y, x in used) / (n - 1)
        spread = s2 > 0
        half = t95(n - 1) * math.sqrt(n * s2) / sx
        high = r + half if ceiling is None else min(ceiling, r + half)
        low = max(0.0, r - half)
    if (n < FEW_CLUSTERS or not spread) and counts is not None:
        low = counts[0] if low is None else min(low, counts[0])
        high = counts[1] if high is None else max(high, counts[1])
    elif not spread:  # no interval rather than a zero-width one
        low = high = None
    return {"value": r, "low": low, "high": high, "clusters": n}


def rate(k: int, n: int) -> dict[str, Any]:
    """k of n with its Wilson 95 % interval: ``{"k", "n", "value", "low", "high"}``."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "value": (k / n) if n else None, "low": lo, "high": hi}


def difference(a: dict, b: dict) -> dict[str, Any]:
    """a − b of two :func:`rate` results with Newcombe's hybrid score interval (from the two
    Wilson intervals)."""
    if not a["n"] or not b["n"]:
        return {"value": None, "low": None, "high": None}
    d = a["value"] - b["value"]
    lo = d - math.hypot(a["value"] - a["low"], b["high"] - b["value"])
    hi = d + math.hypot(a["high"] - a["value"], b["value"] - b["low"])
    return {"value": d, "low": lo, "high": hi}


# ------------------------------------------------------------------ studies
def _appended_by(meta: dict[str, str]) -> dict[str, int]:
    """{kubb3d code: rows stored before its first appended run} of a results file whose rows were
    appended with ``--mix-versions`` (the store's ``mixed_versions``), in the order they came."""
    out: dict[str, int] = {}
    for entry in json.loads(meta.get("mixed_versions") or "[]"):
        out.setdefault(str(entry.get("versions", {}).get("kubb3d_code")), int(entry.get("stored_before", 0)))
    return out


def _opening(rows: list[dict]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    variants: list[str] = []
    for r in rows:
        if r["option_opening"] not in variants:
            variants.append(r["option_opening"])
    for v in variants:
        mine = [r for r in rows if r["option_opening"] == v]
        decided = [r for r in mine if r.get("match_opener_won") is not None]
        won = sum(1 for r in decided if r["match_opener_won"])
        out.append(
            {
                "opening": v,
                "matches": len(mine),
                "draws": len(mine) - len(decided),
                "opener_won": rate(won, len(decided)),
            }
        )
    base = next((o for o in out if o["opening"] == "2-4-6"), None)
    for o in out:
        o["minus_2_4_6"] = None if base is None or o is base else difference(o["opener_won"], base["opener_won"])
    return out


def _first_baton(rows: list[dict]) -> list[dict]:
    out = []
    presets: list[str] = []
    for r in rows:
        if r["match_skill_a"] not in presets:
            presets.append(r["match_skill_a"])
    for preset in presets:
        mine = [r for r in rows if r["match_skill_a"] == preset]
        decided = [r for r in mine if r.get("match_winner") is not None]
        turns = [t for r in mine for t in r["turns"] if t["side"] == "A"]
        out.append(
            {
                "preset": preset,
                "opponent": mine[0]["match_skill_b"],
                "matches": len(mine),
                "turns_with_field_kubbs": sum(1 for t in turns if t["field_standing"] > 0),
                "field_standing": sum(r["turns_field_standing_a"] for r in mine),
                "field_inkasted": sum(r["turns_field_inkasted_a"] for r in mine),
                "first_baton_felled": sum(r["turns_first_baton_felled_a"] for r in mine),
                "efficiency": ratio_interval(
                    [(r["turns_first_baton_felled_a"], r["turns_field_standing_a"]) for r in mine]
                ),
                "per_inkasted": ratio_interval(
                    [(r["turns_first_baton_felled_a"], r["turns_field_inkasted_a"]) for r in mine]
                ),
                "eight_m_throws": sum(r["turns_eight_m_throws_a"] for r in mine),
                "eight_m": ratio_interval(
                    [(r["turns_eight_m_felled_a"], r["turns_eight_m_throws_a"]) for r in mine], ceiling=None
                ),
                "won": rate(sum(1 for r in decided if r["match_winner"] == "A"), len(decided)),
                "draws": len(mine) - len(decided),
            }
        )
    return out


def _advantage(rows: list[dict]) -> list[dict]:
    """Per matchup: of the decided matches in which a side left an advantage line, how often
    the side that left the first one lost."""
    groups: dict[str, list[dict]] = {}
    for r in rows:
        if "turns_first_advantage_line" in r:
            groups.setdefault(f"{r['match_skill_a']} v {r['match_skill_b']}", []).append(r)
    out = []
    for matchup, mine in groups.items():
        left = [r for r in mine if r["turns_first_advantage_line"] is not None]
        decided = [r for r in left if r.get("match_winner") is not None]
        lost = sum(1 for r in decided if r["match_winner"] != r["turns_first_advantage_line"])
        lines = sum(r["turns_advantage_lines_a"] + r["turns_advantage_lines_b"] for r in mine)
        out.append(
            {
                "matchup": matchup,
                "matches": len(mine),
                "with_a_line": len(left),
                "lines_left": lines,
                "leaver_lost": rate(lost, len(decided)),
            }
        )
    return out


EIGHT_M_BINS = (0.0, 0.2, 0.3, 0.4, 0.5)
"""Lower edges of the bins of a side's 8 m rate in one match (kubbs felled per 8 m baton); the
last bin has no upper edge (two kubbs felled by one baton can take a rate past 1)."""
EIGHT_M_MIN_THROWS = 6
"""A side's 8 m rate in a match counts when it threw at least this many 8 m batons."""


def _eight_m_ladder(rows: list[dict]) -> list[dict]:
    """Every side of every match with per-turn records and at least :data:`EIGHT_M_MIN_THROWS`
    8 m batons, binned by its 8 m rate in that match: how many such sides won their match."""
    sides = []
    for r in rows:
        if "turns_eight_m_throws_a" not in r:
            continue
        for label in ("a", "b"):
            throws = r[f"turns_eight_m_throws_{label}"]
            if throws >= EIGHT_M_MIN_THROWS:
                sides.append((r[f"turns_eight_m_felled_{label}"] / throws, r.get("match_winner") == label.upper()))
    out = []
    for lo, hi in zip(EIGHT_M_BINS, (*EIGHT_M_BINS[1:], None)):
        mine = [won for v, won in sides if lo <= v and (hi is None or v < hi)]
        out.append({"low": lo, "high": hi, "won": rate(sum(mine), len(mine))})
    return out


def physics_band(sensitivity: dict) -> list[dict]:
    """The physics section of docs/studies.json from the document of docs/sensitivity.json: per
    preset its 8 m kubbs-per-baton figure, and the first player's match share, each with its
    value at the shipped parameters (``shipped``, its 95 % interval ``shipped_low``/``shipped_high``
    and ``trials``: that run's own sample), the band over its one-at-a-time points (``low``,
    ``high``) and the shifts they make (``shift_low``, ``shift_high``: the smallest and largest
    paired change; figure order kept).

    Raises:
        KeyError, TypeError: ``sensitivity`` is not a sensitivity document.
    """
    out = []
    for fig in sensitivity.get("figures", []):
        key = fig.get("key", "")
        if key.startswith("felled-") or key == "match":
            effects = fig.get("effects", [])
            values = [fig["value"], *(e["value"] for e in effects)]
            shifts = [0.0, *(e["value"] - fig["value"] for e in effects)]
            out.append(
                {
                    "key": key,
                    "label": fig["label"],
                    "trials": fig["trials"],
                    "shipped": fig["value"],
                    "shipped_low": fig["low"],
                    "shipped_high": fig["high"],
                    "low": min(values),
                    "high": max(values),
                    "shift_low": round(min(shifts), 12),
                    "shift_high": round(max(shifts), 12),
                }
            )
    return out


def _shipped_hashes() -> dict[str, tuple[str, int]]:
    """Study name → (spec hash, trials) of the shipped study specs."""
    from kubb3d.experiment import load_spec
    from kubb3d.library import experiments_dir

    out = {}
    for name in STUDY_SPECS:
        loaded = load_spec(experiments_dir() / f"{name}.toml")
        out[name] = (loaded.sha256, loaded.n_trials)
    return out


def summarise(results: Sequence[str | Path], sensitivity: dict | None = None) -> dict[str, Any]:
    """The JSON document of docs/studies.json from the results files of the shipped study
    specs (any subset, each at most once; a partial run counts what it stored) and, if given,
    the document of docs/sensitivity.json for the physics band.

    Raises:
        StudyError: a file of another spec, or two files of one study.
        StoreError: a file that is not a results file.
        KeyError, TypeError: ``sensitivity`` is not a sensitivity document.
    """
    from kubb3d.experiment import open_results
    from kubb3d.experiment.versions import FIELDS

    shipped = _shipped_hashes()
    by_hash = {sha: name for name, (sha, _) in shipped.items()}
    doc: dict[str, Any] = {"schema": SCHEMA, "studies": {}, "advantage_line": [], "physics": []}
    all_rows: list[dict] = []
    for path in results:
        with open_results(path) as store:
            meta = store.meta()
            rows = [r for r in store.rows() if r.get("ok")]
            failed = store.count()[1]
        name = by_hash.get(meta.get("spec_sha256", ""))
        if name is None:
            raise StudyError(
                f"{path}: results of a spec that is not a shipped study of today's kubb3d (expected the spec "
                f"of {' or '.join(STUDY_SPECS)}, as `kubb3d experiment list` shows it)"
            )
        if name in doc["studies"]:
            raise StudyError(f"{path}: a second results file of the study {name}")
        versions = json.loads(meta.get("versions") or "{}")
        study: dict[str, Any] = {
            "spec": name,
            "spec_sha256": meta["spec_sha256"],
            "title": json.loads(meta.get("spec_json") or "{}").get("spec", {}).get("title"),
            "planned": shipped[name][1],
            "stored": len(rows) + failed,
            "failed": failed,
            "versions": {k: versions.get(k) for k in FIELDS},
            "mixed_versions": bool(meta.get("mixed_versions")),
            "appended_by": _appended_by(meta),
            "run": f"kubb3d experiment run {name} --out {name}.sqlite",
        }
        study["rows"] = _opening(rows) if name == "opening-advantage" else _first_baton(rows)
        doc["studies"][name] = study
        all_rows += rows
    doc["advantage_line"] = _advantage(all_rows)
    doc["eight_m_ladder"] = _eight_m_ladder(all_rows)
    if sensitivity is not None:
        doc["physics"] = physics_band(sensitivity)
    return doc


# ------------------------------------------------------------------ the page
def _pct(v: float | None, digits: int = 1) -> str:
    return "—" if v is None else f"{100 * v:.{digits}f} %"


def _iv(d: dict | None, digits: int = 1) -> str:
    """``43.1 % (39.0–47.2 %)``."""
    if d is None or d.get("value") is None:
        return "—"
    if d.get("low") is None:
        return _pct(d["value"], digits)
    return f"{_pct(d['value'], digits)} ({100 * d['low']:.{digits}f}–{_pct(d['high'], digits)})"


def _signed(d: dict | None) -> str:
    if d is None or d.get("value") is None:
        return "—"
    return FORMATTER.format(  # (no "-0.0 points")
        "{value:+.1f} points ({low:+.1f} to {high:+.1f})",
        value=100 * d["value"], low=100 * d["low"], high=100 * d["high"],
    )


def needed_per_arm(p: float, diff: float, power_z: float = 0.8416212335729143) -> int:
    """Decided matches per arm to tell two rates ``p`` and ``p + diff`` apart (two-sided 95 %,
    power 80 %: z = 0.8416): n = (z₉₅ + z_power)² · (p(1−p) + q(1−q)) / diff², rounded up."""
    q = min(1.0, p + diff)
    return math.ceil((Z95 + power_z) ** 2 * (p * (1 - p) + q * (1 - q)) / diff**2)


def real_first_baton() -> dict[str, Any]:
    """The real range and pooled figure of :data:`FIRST_BATON_TEAMS`."""
    effs = [f / i for _, f, i in FIRST_BATON_TEAMS]
    pooled = ratio_interval([(f, i) for _, f, i in FIRST_BATON_TEAMS])
    return {
        "low": min(effs),
        "high": max(effs),
        "pooled": pooled,
        "felled": sum(f for _, f, _ in FIRST_BATON_TEAMS),
        "inkasted": sum(i for _, _, i in FIRST_BATON_TEAMS),
    }


def _made_by(name: str, study: dict[str, Any]) -> str:
    """The list item naming the code (and libraries) that made a study's rows: the first run's,
    then each code that appended rows with ``--mix-versions`` from the match it started at."""
    v = study["versions"]
    line = (
        f"- `{name}`: rows made by kubb3d {v.get('kubb3d')} (code {v.get('kubb3d_code')}), PyBullet "
        f"{v.get('pybullet')}, numpy {v.get('numpy')}, Python {v.get('python')}"
    )
    appended = [
        f"rows from match {first + 1:,} on were appended with `--mix-versions` by kubb3d code {code}"
        for code, first in study.get("appended_by", {}).items()
    ]
    return line + ("; " + "; ".join(appended) if appended else "") + "."


def render(doc: dict[str, Any], command: str, source: str | None = None) -> str:
    """docs/studies.md from the JSON document ``doc`` (:func:`summarise`); ``command`` is the
    command that wrote the page, quoted in it; ``source`` the studies JSON document it read
    (docs/studies.json), None when it read the results files themselves.

    Raises:
        StudyError: ``doc`` is not a studies document of this schema.
    """
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or not isinstance(doc.get("studies"), dict):
        raise StudyError(f"not a studies document of schema {SCHEMA} (kubb3d experiment studies ... --json)")
    studies = doc["studies"]
    real = real_first_baton()
    adv = ADVANTAGE_LINE_REAL
    real_adv = rate(round(adv["lost_share"] * adv["games"]), adv["games"])
    made = doc.get("command") or "kubb3d experiment studies RESULTS... --json"
    origin = (
        f"from {source}, which `{made}` wrote from the results files" if source is not None
        else "from the results files"  # read directly: no JSON document in between
    )
    lines = [
        "# Studies: the questions Kubb players argue about",
        "",
        f"Generated by `{command}` {origin} "
        "of the shipped specs below (each made by its `run` command); do not edit by hand. After a physics change "
        "regenerates docs/sensitivity.json, `kubb3d experiment studies docs/studies.json --sensitivity "
        "docs/sensitivity.json --json` prints the document with its physics section refreshed, without the "
        "results files (see its --help).",
        "",
        "Every figure is a count of simulated DM matches (one set, at most 40 turns) between the player presets "
        "of docs/calibration.md, at the shipped physics, with its 95 % interval: Wilson's for a rate of matches, "
        "the ratio estimator's with the match as the cluster for a rate of kubbs pooled over turns (from fewer "
        f"than {FEW_CLUSTERS} matches, or matches all alike, which leave that estimator no spread, it is widened "
        "to hold the Wilson interval of the pooled kubbs or batons, so a partial run never shows a zero-width "
        "interval). The intervals hold the sampling noise only; see \"Physics uncertainty\" for what the "
        "unmeasured physics adds.",
        "",
        "## How far the runs got",
        "",
        "| study (spec) | matches planned | matches stored | failed | run (resumes where it stopped) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in STUDY_SPECS:
        s = studies.get(name)
        if s is None:
            lines.append(f"| `{name}` | — | 0 (not run) | — | `kubb3d experiment run {name} --out {name}.sqlite` |")
            continue
        lines.append(f"| `{name}` | {s['planned']:,} | {s['stored']:,} | {s['failed']} | `{s['run']}` |")
    if studies:
        lines += [
            "",
            "Each study was run with its own code; its results file records the versions of the run that made it "
            "and of each run that appended rows to it:",
            "",
            *[_made_by(name, s) for name, s in studies.items()],
            "",
            "A partial run is summarised as it stands; the same `run` command adds the missing trials (every "
            "grid point gets about the same number of matches at any moment), then the two commands at the top "
            "regenerate this page. The results files are kept in the repository, compressed, as "
            "studies/SPEC.sqlite.xz: `benchmarks/study_results.py unpack --to DIR` restores them for `run` to "
            "resume and `pack` puts them back; tests/test_study_results.py summarises them into docs/studies.json "
            "and replays stored matches with the code of the day.",
        ]
    # --- opening
    lines += ["", "## First-player advantage per opening", ""]
    s = studies.get("opening-advantage")
    lines.append(
        "Club against club. The first player is the side that opens the set (`match_opener`): the lag winner, "
        "whose simulated player always chooses to open (kubb3d/players.py, `choose`). The openings "
        "are the referee option `opening`: 2-4-6 (DM §4, the U.S. rule), 6-6-6 (WS basic rule 2, the World "
        "Championship's default), 4-6-6 and 3-6-6 (community variants; `kubb3d rules show dm` gives their "
        "sources). A match cut off at 40 turns is a draw and has no first-player result."
    )
    lines.append("")
    if s is None:
        lines.append("Not run yet.")
    else:
        lines += [
            "| opening | matches | draws | first player won | minus 2-4-6 |",
            "| --- | --- | --- | --- | --- |",
        ]
        for o in s["rows"]:
            w = o["opener_won"]
            lines.append(
                f"| {o['opening']} | {o['matches']} | {o['draws']} | {w['k']} of {w['n']}: {_iv(w)} | "
                f"{_signed(o['minus_2_4_6']) if o['minus_2_4_6'] else '—'} |"
            )
        least = min((o["matches"] for o in s["rows"]), default=0)
        decided = sum(o["opener_won"]["n"] for o in s["rows"])
        p = sum(o["opener_won"]["k"] for o in s["rows"]) / decided if decided else 0.5
        lines += [
            "",
            f"The spec asks for 1,000 matches per opening; {least:,} per opening were run. Separating two "
            f"openings whose first-player rates differ by 5 points needs about {needed_per_arm(p, 0.05):,} decided "
            f"matches each (at the pooled rate {_pct(p)}, 95 %, power 80 %).",
        ]
    # --- first baton
    lines += ["", "## First-baton efficiency per preset", ""]
    fb = studies.get("first-baton")
    lines += [
        "First-baton efficiency (1BE) is the share of field kubbs a side fells with the first baton of its turns; "
        "a side inkasts its own field kubbs, so 1BE measures inkast and first throw together. Real play: "
        f"the eight quarter-final teams of the 2015 U.S. Nationals had {_pct(real['low'])} to {_pct(real['high'])} "
        f"({real['felled']} of {real['inkasted']} field kubbs over all eight: {_iv(real['pooled'])}; "
        f"{FIRST_BATON_SOURCE}). "
        "Simulated: each preset (side A) against a club player; the denominator is the field kubbs standing at "
        'the first baton ("available", as the source words it), which are the ones inkasted in that turn '
        'unless the side left some standing in its previous turn (the column "per inkasted" divides by those '
        "only).",
        "",
    ]
    if fb is None:
        lines.append("Not run yet.")
    else:
        lines += [
            "| preset | matches | turns with field kubbs | field kubbs at the first baton | felled by it | 1BE | "
            "per inkasted | real range |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for p in fb["rows"]:
            e = p["efficiency"]
            where = "—"
            if e["value"] is not None:
                where = "below" if e["value"] < real["low"] else "above" if e["value"] > real["high"] else "inside"
            lines.append(
                f"| {p['preset']} | {p['matches']} | {p['turns_with_field_kubbs']} | {p['field_standing']} | "
                f"{p['first_baton_felled']} | {_iv(e)} | {_iv(p['per_inkasted'])} | {where} "
                f"({_pct(real['low'])}–{_pct(real['high'])}) |"
            )
        # --- 8 m and matches won
        lines += [
            "",
            "## 8 m hit rate and matches won",
            "",
            "The same matches: side A's baseline kubbs felled per baton thrown from its baseline with no field kubb "
            "standing (8 m throws), and its share of the decided matches won against club. "
            f"Quoted from real play: {_pct(EIGHT_M_REAL['rate'], 0)} per baton at 8 m is what it takes to compete "
            f"({EIGHT_M_REAL['source']}). The three presets are the only rungs of the ladder so far: skills "
            "between them are not presets yet.",
            "",
            "| preset (A) | against | 8 m batons | kubbs felled per 8 m baton | matches won by A | draws |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for p in fb["rows"]:
            w = p["won"]
            lines.append(
                f"| {p['preset']} | {p['opponent']} | {p['eight_m_throws']} | {_iv(p['eight_m'])} | "
                f"{w['k']} of {w['n']}: {_iv(w)} | {p['draws']} |"
            )
    ladder = doc.get("eight_m_ladder") or []
    if any(b["won"]["n"] for b in ladder):
        lines += [
            "",
            "Across all matches with per-turn records (every preset and opening, both sides), a side's 8 m rate in "
            f"one match (at least {EIGHT_M_MIN_THROWS} such batons) against whether it won that match: what a hit "
            "rate is worth, with the better player's other strengths mixed in.",
            "",
            "| 8 m rate in the match | sides | won their match |",
            "| --- | --- | --- |",
        ]
        for b in ladder:
            w = b["won"]
            where = f"{100 * b['low']:.0f} % or more" if b["high"] is None else (
                f"{100 * b['low']:.0f} % to {100 * b['high']:.0f} %"
            )
            lines.append(f"| {where} | {w['n']} | {w['k']}: {_iv(w)} |")
    # --- advantage line
    lines += [
        "",
        "## Leaving an advantage line",
        "",
        "A side that ends its turn with field kubbs standing leaves its opponent an advance line (DM §8; the "
        '"advantage line" of U.S. play). Real play: in '
        f"{adv['games']} recorded games of {adv['year']} the side that left one lost {_pct(adv['lost_share'], 0)} "
        f"({adv['source']}); 88 % of 32 is {real_adv['k']} games, whose interval is {_iv(real_adv)}. "
        "Simulated: of the decided matches in which a line was left, how often the side that "
        "left the first one lost; all matches with per-turn records, by matchup.",
        "",
    ]
    if not doc["advantage_line"]:
        lines.append("Not run yet.")
    else:
        lines += [
            "| matchup (A v B) | matches | with a line left | lines left (per match) | the side that left the first "
            "lost |",
            "| --- | --- | --- | --- | --- |",
        ]
        for a in doc["advantage_line"]:
            lost = a["leaver_lost"]
            lines.append(
                f"| {a['matchup']} | {a['matches']} | {a['with_a_line']} | {a['lines_left']} "
                f"({a['lines_left'] / a['matches']:.1f}) | "
                f"{lost['k']} of {lost['n']}: {_iv(lost)} |"
            )
    # --- physics
    lines += [
        "",
        "## Physics uncertainty",
        "",
        "The studies ran at the shipped physics only. The physics parameters nobody has measured (wood on grass, "
        "the plowing of a thrown piece into the turf) move the per-baton figures that drive every study; "
        "docs/sensitivity.md measures by how much, one parameter at a time at the ends of its plausible range:",
        "",
    ]
    if doc.get("physics"):
        lines += [
            "| figure (docs/sensitivity.md) | at the shipped parameters (trials, 95 % interval) "
            "| shift, one parameter at a time | band |",
            "| --- | --- | --- | --- |",
        ]
        for f in doc["physics"]:
            lines.append(
                f"| {f['label']} | {f['shipped']:.3f} ({f['trials']}, {f['shipped_low']:.3f}–{f['shipped_high']:.3f}) "
                f"| {f['shift_low']:+.3f} to {f['shift_high']:+.3f} | {f['low']:.3f}–{f['high']:.3f} |"
            )
        lines += [
            "",
            "The value at the shipped parameters is the sensitivity run's own small sample (the trials column), "
            "so it differs from the larger samples of docs/calibration.md and of the tables above within its "
            "interval; the shifts are paired differences over the same seeded trials, and they are what carries "
            "over to another sample: add them to a figure above for its physics band.",
        ]
        club = next((f for f in doc["physics"] if f["key"] == "felled-club"), None)
        if club is not None and club["shipped"]:
            low, high = (100 * club[k] / club["shipped"] for k in ("shift_low", "shift_high"))
            lines += [
                "",
                f"The club preset's kubbs per baton moves by {club['shift_low']:+.3f} to {club['shift_high']:+.3f} "
                f"({low:+.0f} % to {high:+.0f} % "
                "of its value) over that band; the studies' "
                "levels (an efficiency, a hit rate) can move with it before any sampling noise. Differences made at "
                "one physics for all (opening against opening, preset against preset) are less exposed than levels.",
            ]
    else:
        lines.append("(docs/sensitivity.json was not given to the summary.)")
    return "\n".join(lines) + "\n"
