"""The HUD overlay of the viewer window: one fixed layout of panels drawn with pyglet over the
3D picture (:class:`Overlay`), and where the pieces and their labels are on screen
(:func:`piece_marks`). The panels' contents come as a :class:`~kubb3d.viewer.hud.Hud`.

Import pyglet through :func:`kubb3d.viewer.app.load_pyglet` first (headless or not): the
overlay gets the module handed in.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import piece_name
from kubb3d.viewer.camera import HUD_TOP_SHARE
from kubb3d.viewer.controls import TIMELINE_HEIGHT
from kubb3d.viewer.hud import Hud, font_size, layout_labels, legend_items, wrap_labels
from kubb3d.viewer.scene import Scene

SIDE_SHARE = 0.30
"""Share of the window's width the HUD's corner panels take at most (their lines wrapped)."""
PANEL_COLOR = (10, 15, 20, 150)
"""A panel's background, RGBA 0–255."""
TEXT_CONTRAST = 4.5
"""Least contrast ratio of a panel's white text to what lies behind it: WCAG 2.1, success
criterion 1.4.3 (level AA, normal text)."""


def relative_luminance(rgb) -> float:
    """WCAG 2.1 relative luminance (0–1) of an sRGB colour given as 0–255 levels."""
    c = np.asarray(rgb, dtype=float)[:3] / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ (0.2126, 0.7152, 0.0722))


def contrast_ratio(a, b) -> float:
    """WCAG 2.1 contrast ratio (1–21) of two sRGB colours (0–255 levels)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def readable_alpha(color=PANEL_COLOR[:3], text=(255, 255, 255), under=(255, 255, 255), ratio=TEXT_CONTRAST) -> int:
    """The least opacity (of 255) of a panel of ``color`` at which ``text`` on it keeps
    ``ratio`` against the panel blended over ``under`` (default: a white piece, the worst case)."""
    for alpha in range(256):
        a = alpha / 255.0
        if contrast_ratio(text, a * np.asarray(color, float) + (1 - a) * np.asarray(under, float)) >= ratio:
            return alpha
    raise ValueError(f"no opacity of {color} keeps {ratio}:1 for text {text}")


MIN_BAR_W = 240
"""The shortest power bar, px, that keeps the throw being prepared in the bottom row between
the legend and the last-throw card (a narrower gap raises it above the row)."""

FADED_ALPHA = readable_alpha()
"""Opacity (of 255) of a panel's background where it lies over a piece: the least at which
its white text stays readable over a white piece (:data:`TEXT_CONTRAST`), so that the piece
still shows through as much as it can (docs/viewer.md, "One fixed layout")."""
MODAL_PANELS = ("help", "summary", "rulings_list", "prompt")
"""The panels shown on request over everything else (piece labels too); the others stand in
the fixed layout and keep the piece labels off them."""


def _overlap(a, b) -> bool:
    """Whether two rectangles (x0, y0, x1, y1) overlap (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


LABEL_LIFT_M = 0.06
"""m: a piece's label is drawn this far above its top."""


def behind_board(point, view_proj: np.ndarray, length: float, width: float) -> bool:
    """True if the board's top (z = 0, ``length`` × ``width`` m centred on the origin) lies
    between the camera and ``point`` (x, y, z m): the line of sight through the point, from
    the near plane (perspective or orthographic), crosses the top inside the board."""
    m = np.asarray(view_proj, dtype=float)
    p = np.asarray(point, dtype=float)
    clip = m @ np.append(p, 1.0)
    if clip[3] <= 0:
        return False  # behind the camera: not drawn anyway
    near = np.linalg.solve(m, np.array((clip[0] / clip[3], clip[1] / clip[3], -1.0, 1.0)))
    q = near[:3] / near[3]
    if not q[2] > 0.0 > p[2]:
        return False
    hit = q + (p - q) * (q[2] / (q[2] - p[2]))
    return bool(abs(hit[0]) <= length / 2 and abs(hit[1]) <= width / 2)


def piece_marks(scene: Scene, view_proj: np.ndarray, width: int, height: int) -> tuple[list[tuple[float, float, float, float]], list[tuple[str, float, float]]]:
    """The screen rectangles (x0, y0, x1, y1) px, top-left origin, of the kubbs and the king in
    view (their bounding boxes' corners projected, with the label above) and their labels
    (name, x, y) px (:func:`~kubb3d.judge.messages.piece_name`: a kubb's id, the king as a
    message to translate), then the scene's area labels in view (text, x, y): what the HUD
    must not cover, and what it writes."""
    from kubb3d.equipment import get_set
    from kubb3d.viewer.camera import project, view_scale
    from kubb3d.viewer.scene import rotation_matrices

    eq = get_set(scene.equipment)
    lift = view_scale(scene.pitch)
    rects, labels = [], []
    ids = [pid for pid, pv in sorted(scene.pieces.items()) if pv.kind in ("kubb", "king") and pid not in scene.hidden]
    if eq.board is not None:  # on the floor, seen through the table top: no label over the board
        ids = [pid for pid in ids if not behind_board(scene.pieces[pid].pose[:3], view_proj, eq.board.length, eq.board.width)]
    if ids:
        # every piece's eight box corners and its label point, projected at once (one
        # projection a frame rather than one a piece: a third of the HUD's Python time)
        poses = np.array([scene.pieces[pid].pose for pid in ids], dtype=float)
        half = np.array([(eq.king if scene.pieces[pid].kind == "king" else eq.kubb).half_extents for pid in ids])
        signs = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
        rot = rotation_matrices(poses[:, 3:])
        pts = np.einsum("nij,nkj->nki", rot, signs[None] * half[:, None]) + poses[:, None, :3]  # (N, 8, 3)
        top = np.c_[poses[:, :2], pts[:, :, 2].max(axis=1) + LABEL_LIFT_M * lift]
        px, vis = project(np.concatenate([pts, top[:, None]], axis=1).reshape(-1, 3), view_proj, width, height)
        px, vis = px.reshape(len(ids), 9, 2), vis.reshape(len(ids), 9)
        for pid, p, v in zip(ids, px, vis):
            if not v.any():
                continue
            (x0, y0), (x1, y1) = p.min(axis=0), p.max(axis=0)
            rects.append((float(x0), float(y0), float(x1), float(y1)))
            labels.append((piece_name(pid), float(p[-1, 0]), float(p[-1, 1])))
    if scene.area_labels:  # names of areas (the outside of the pitch) where they are in view
        px, vis = project(np.array([p for _, p in scene.area_labels], dtype=float), view_proj, width, height)
        labels += [(text, float(x), float(y)) for (text, _), (x, y), v in zip(scene.area_labels, px, vis) if v]
    return rects, labels


class Overlay:
    """Draws a :class:`Hud` with pyglet text and shapes over the current framebuffer.

    The text size follows the width (:func:`~kubb3d.viewer.hud.font_size`); the panels stand in
    one fixed layout (:meth:`_build`). :attr:`panels` keeps the rectangles of the last layout, name → (x, y, w, h) px from the
    bottom left.
    """

    tr: Translator = ENGLISH
    """The language of the panel headings and the legend."""

    def __init__(self, pyglet, window) -> None:
        self.pyglet = pyglet
        self.window = window
        self._key: tuple | None = None
        self._batch: Any = None
        self._modal: Any = None
        self._label_batch: Any = None
        self._label_pool: dict[str, tuple] = {}  # piece id → (shadow, text) labels
        self._items: list = []
        self.panels: dict[str, tuple[int, int, int, int]] = {}
        self.faded: set[str] = set()
        """The panels over a piece in the last frame, drawn at :data:`FADED_ALPHA`."""
        self.label_boxes: dict[str, tuple[float, float, float, float]] = {}
        """piece id → the box (x0, y0, x1, y1) px, top-left origin, of its label in the last frame."""

    def draw(self, hud: Hud, width: int, height: int) -> None:
        from dataclasses import replace

        from pyglet.math import Mat4

        # rebuilt when the text changes or the panels over a piece change (drawn at FADED_ALPHA
        # there); the panels themselves never move; the labels are moved every frame
        key = (repr(replace(hud, labels=[], avoid=[])), width, height)
        if key != self._key or self._covered(hud.avoid, height) != self.faded:
            self._build(hud, width, height)
            self._key = key
        self._place_labels(hud.labels, width, height)
        self.window.projection = Mat4.orthogonal_projection(0, width, 0, height, -255, 255)
        self._batch.draw()
        self._label_batch.draw()
        self._modal.draw()  # the help, the summary and the rulings list over the piece labels

    def _covered(self, avoid, height: int) -> set[str]:
        """The panels of the current layout (the modal ones aside) over a piece's screen
        rectangle (x0, y0, x1, y1, top-left origin)."""
        out = set()
        for name, rect in self.panels.items():
            if name in MODAL_PANELS:
                continue
            if any(_overlap(self._top_left(rect, height), box) for box in avoid):
                out.add(name)
        return out

    @staticmethod
    def _top_left(rect, height: int) -> tuple[float, float, float, float]:
        """A panel's (x, y, w, h), bottom-left origin, as (x0, y0, x1, y1) from the top left."""
        x, y, w, h = rect
        return (x, height - y - h, x + w, height - y)

    def _place_labels(self, labels, width: int, height: int) -> None:
        """Piece labels: the id above each piece, light text on a dark shadow (a pool of
        pyglet labels, moved rather than rebuilt)."""
        pg = self.pyglet
        if self._label_batch is None:
            self._label_batch = pg.graphics.Batch()
        size = max(7, font_size(width) - 2)
        for text, _, _ in labels:
            if text not in self._label_pool:
                self._label_pool[text] = tuple(pg.text.Label(text, font_size=size, color=c, weight="bold", anchor_x="center", anchor_y="baseline", batch=self._label_batch, font_name="DejaVu Sans") for c in ((0, 0, 0, 220), (255, 255, 230, 255)))
        for pair in self._label_pool.values():
            if pair[1].font_size != size:
                for lab in pair:
                    lab.font_size = size
        # adjacent pieces' labels are stacked rather than drawn over each other
        widths = {text: self._label_pool[text][1].content_width for text, _, _ in labels}
        tall = max((self._label_pool[text][1].content_height for text, _, _ in labels), default=0)
        where = {text: (x, y) for text, x, y in layout_labels(labels, widths, tall, screen_width=width)}
        boxes = {text: (x - widths[text] / 2, y - tall, x + widths[text] / 2, y) for text, (x, y) in where.items()}
        # a label that would lie on a panel is left out: drawn over it, it wrote over the
        # panel's text (the rulings of a scenario seen from its orbit camera); the piece
        # itself still shows through the panel
        under = [self._top_left(rect, height) for name, rect in self.panels.items() if name not in MODAL_PANELS]
        self.label_boxes = {text: box for text, box in boxes.items() if not any(_overlap(box, r) for r in under)}
        where = {text: xy for text, xy in where.items() if text in self.label_boxes}
        for text, pair in self._label_pool.items():
            xy = where.get(text)
            for lab, dx, dy in zip(pair, (1, 0), (-1, 0)):
                if xy is None:
                    lab.visible = False
                    continue
                lab.position = (xy[0] + dx, height - xy[1] + dy, 0)
                lab.visible = True

    def _build(self, hud: Hud, width: int, height: int) -> None:
        """One fixed layout, whatever the pieces or the camera do (issue 34: panels that
        jumped between corners from throw to throw were hard to follow): the status panel
        top left and the rulings top right, each at most :data:`SIDE_SHARE` of the width wide
        (lines wrapped); the legend bottom left, the last-throw card bottom right, the throw
        being prepared, the power bar and the message in the bottom centre (above the bottom
        row when the window is too narrow for it); red banners top centre under the message,
        or over the bottom centre's panels where they would cover a piece or its label up
        there (the far baseline in the thrower's view) and no more down there. The thrower and
        top cameras keep the pitch in the band between (:data:`~kubb3d.viewer.camera.HUD_TOP_SHARE`);
        a panel over a piece all the same (a turned orbit view) is drawn at
        :data:`FADED_ALPHA`, as see-through as its text allows."""
        pg = self.pyglet
        batch = pg.graphics.Batch()
        back, front = pg.graphics.Group(order=0), pg.graphics.Group(order=1)
        # the modal panels (summary, help) over everything else, their text included
        modal_back, modal_front = pg.graphics.Group(order=2), pg.graphics.Group(order=3)
        modal = pg.graphics.Batch()  # drawn after the piece labels too
        items: list = []
        panels: dict[str, tuple[int, int, int, int]] = {}
        fs = font_size(width)
        line_h = int(fs * 1.55)
        pad = max(4, fs * 2 // 3)
        side_w = int(width * SIDE_SHARE)
        pieces = [(x0, height - y1, x1, height - y0) for x0, y0, x1, y1 in hud.avoid]  # bottom-left origin
        faded: set[str] = set()

        def panel(x, y, w, h, color=PANEL_COLOR, name=None, group=back):
            if name and group is back and any(x < a1 and a0 < x + w and y < b1 and b0 < y + h for a0, b0, a1, b1 in pieces):
                color = (*color[:3], min(color[3], FADED_ALPHA))  # over a piece: as light as stays readable
                faded.add(name)
            on = modal if group is modal_back else batch
            items.append(pg.shapes.Rectangle(x, y, w, h, color=color, batch=on, group=group))
            if name:
                panels[name] = (int(x), int(y), int(w), int(h))

        def label(text, x, y, size=fs, color=(255, 255, 255, 255), bold=False, anchor_x="left", group=front):
            lab = pg.text.Label(text, x=x, y=y, font_size=size, color=color, weight="bold" if bold else "normal", anchor_x=anchor_x, anchor_y="baseline", batch=modal if group is modal_front else batch, group=group, font_name="DejaVu Sans")
            items.append(lab)
            return lab

        def lines_of(lines, max_w, size=fs, first_bold=True, dim_indented=False, limit=None):
            """Labels of ``lines`` wrapped to ``max_w`` px: the whole lines that fit in
            ``limit`` labels (the first one at least, cut to the limit)."""
            labs: list = []
            for i, text in enumerate(lines):
                col = (200, 210, 220, 255) if dim_indented and text.startswith("   ") else (255, 255, 255, 255)
                more = wrap_labels(text, lambda t, b=(first_bold and i == 0), c=col: label(t, 0, 0, size=size, bold=b, color=c), max_w)
                if limit is not None and labs and len(labs) + len(more) > limit:
                    for extra in more:
                        extra.delete()
                    break
                labs += more
            if limit is not None:
                for extra in labs[limit:]:
                    extra.delete()
                labs = labs[:limit]
            return labs

        def place(labs, x0, top, name, color=PANEL_COLOR, right=False):
            """The labels in a panel whose top edge is at ``top`` (x0: its left edge, or its
            right edge with ``right``); returns the panel (x, y, w, h)."""
            if not labs:
                return None
            w = max(lab.content_width for lab in labs) + 2 * pad
            h = line_h * len(labs) + pad
            x = x0 - w if right else x0
            for i, lab in enumerate(labs):
                lab.x, lab.y = x + pad, top - (i + 1) * line_h + 4
            panel(x, top - h, w, h, color, name=name)
            return (x, top - h, w, h)

        bottom = TIMELINE_HEIGHT + pad if hud.timeline is not None else pad
        top = height - pad
        text_w = max(40, side_w - 2 * pad)

        # ---- the bottom row: legend (left), last-throw card (right), the throw in hand (centre)
        legend_box = card_box = None
        if hud.legend:
            items_ = legend_items()
            lw = int(fs * 12.5)
            lh = line_h * len(items_) + pad
            panel(pad, bottom, lw, lh, name="legend")
            legend_box = (pad, bottom, lw, lh)
            for i, (name, rgb) in enumerate(items_):
                yy = bottom + lh - (i + 1) * line_h
                items.append(pg.shapes.Rectangle(pad + pad, yy + 1, fs, fs, color=tuple(int(255 * math.sqrt(c)) for c in rgb) + (255,), batch=batch, group=front))
                label(self.tr(name), pad + pad + fs + 8, yy + 3)
        if hud.last_throw:
            labs = lines_of(hud.last_throw, text_w)
            card_h = line_h * len(labs) + pad
            card_box = place(labs, width - pad, bottom + card_h, "last_throw", right=True)
        row_top = max([bottom] + [b[1] + b[3] for b in (legend_box, card_box) if b is not None])
        left_edge = legend_box[0] + legend_box[2] + pad if legend_box else pad
        right_edge = card_box[0] - pad if card_box else width - pad
        bw, bh = min(360, width - 4 * pad), max(10, int(fs * 1.5))
        # between the corners if the power bar fits there (the text wrapped to that width)
        mid = 2 * min(width // 2 - left_edge, right_edge - width // 2)
        if hud.power is not None and MIN_BAR_W <= mid - 8 < bw:
            # a shorter bar rather than the centre raised over the row: at 800×600 it stood
            # over the thrower's own baseline kubbs and the release point's mark
            bw = mid - 8
        in_row = mid >= (bw + 8 if hud.power is not None else 160)
        text_mid = (mid if in_row else width - 2 * pad) - 2 * pad
        set_labs = lines_of(hud.settings, text_mid, first_bold=False) if hud.settings else []
        power_h = line_h + bh + 10 if hud.power is not None else 0
        y = bottom if in_row else row_top + pad
        centre_top = y
        if hud.power is not None:
            x0, y0 = width // 2 - bw // 2, y + line_h + 6
            panel(x0 - 4, y, bw + 8, power_h, name="power")
            fill = max(0.0, min(1.0, hud.power))
            r = int(255 * min(1.0, 2 * fill))
            g = int(255 * min(1.0, 2 * (1 - fill)))
            items.append(pg.shapes.Rectangle(x0, y0, int(bw * fill), bh, color=(r, g, 40, 255), batch=batch, group=front))
            if hud.power_mark is not None:  # the previous release's power
                mx = x0 + int(bw * max(0.0, min(1.0, hud.power_mark)))
                items.append(pg.shapes.Rectangle(mx - 1, y0 - 3, 3, bh + 6, color=(255, 255, 255, 255), batch=batch, group=front))
            label(hud.power_label, width // 2, y + 6, anchor_x="center")
            y += power_h
            centre_top = y
        for labs, name in ((set_labs, "settings"),):
            if not labs:
                continue
            w = max(lab.content_width for lab in labs) + 2 * pad
            h = line_h * len(labs) + pad
            for i, lab in enumerate(labs):
                lab.x, lab.y = width // 2 - w // 2 + pad, y + h - (i + 1) * line_h + 4
            panel(width // 2 - w // 2, y, w, h, name=name)
            y += h
            centre_top = y
        floor = max(row_top, centre_top if y > bottom else row_top) + pad

        # ---- the top corners: status (left), rulings (right), down to the bottom row at most
        # ... and within the top band the cameras keep free of the pitch (HUD_TOP_SHARE)
        room = max(1, (min(top - floor, int(height * HUD_TOP_SHARE)) - pad) // line_h)
        if hud.title or hud.lines:
            place(lines_of([hud.title, *hud.lines], text_w, limit=room), pad, top, "status")
        if hud.rulings:
            small = max(fs - 1, 7)
            place(lines_of([self.tr("rulings"), *hud.rulings], text_w, size=small, dim_indented=True, limit=room), width - pad, top, "rulings", right=True)
        # ---- the message and the red banners under it: top centre, between the corners
        mid_w = max(120, width - 2 * side_w - 4 * pad)
        fy = top
        if hud.message:
            labs = lines_of([hud.message], mid_w - 2 * pad, first_bold=False)
            for lab in labs:
                lab.color = (255, 235, 120, 255)
            w = max(lab.content_width for lab in labs) + 2 * pad
            box = place(labs, width // 2 - w // 2, fy, "message")
            if box is not None:
                fy = box[1] - 2
        # the banners under the message, or, where they would lie over a piece or its label
        # there (the far baseline's kubbs B1–B5 16 % below the top in the thrower's view,
        # THROWER_TOP_SHARE), over the throw being prepared in the bottom centre
        labelled = [(a0, b0, a1, b1 + line_h) for a0, b0, a1, b1 in pieces]  # a label stands on its piece

        def banner_stack(max_w):
            """The banners' labels wrapped to ``max_w`` px, their (w, h) and the stack's (w, h)."""
            labs_ = [labs for labs in (lines_of([text], max_w) for text in hud.flags) if labs]
            sizes_ = [(max(lab.content_width for lab in labs) + 2 * pad, line_h * len(labs) + pad) for labs in labs_]
            return labs_, sizes_, max(w for w, _ in sizes_), sum(h for _, h in sizes_) + 2 * (len(sizes_) - 1)

        def covered(y0: float, w: float, h: float) -> int:
            """How many pieces (with their labels) a stack ``w`` × ``h`` px, centred, from ``y0`` up covers."""
            x0 = width // 2 - w // 2
            return sum(x0 < a1 and a0 < x0 + w and y0 < b1 and b0 < y0 + h for a0, b0, a1, b1 in labelled)

        banners = []
        if hud.flags:
            banners, sizes, stack_w, stack_h = banner_stack(mid_w - 2 * pad)
            low = (y if y > bottom else bottom) + pad
            up_there = covered(fy - stack_h, stack_w, stack_h)
            if up_there:  # as wide as the bottom centre's text
                wide = banner_stack(text_mid)
                # down there unless it covers more pieces: an illegal throw's banner and the
                # next throw's warnings stacked up there hid the whole far baseline, the targets,
                # where down there they lay over part of the thrower's own baseline
                used, unused = (wide, banners) if covered(low, *wide[2:]) <= up_there else (None, wide[0])
                for labs in unused:
                    for lab in labs:
                        lab.delete()
                if used is not None:
                    banners, sizes, stack_w, stack_h = used
                    fy = low + stack_h
        if banners:
            union: tuple[int, int, int, int] | None = None
            for labs, (w, _) in zip(banners, sizes):
                box = place(labs, width // 2 - w // 2, fy, "flags", color=(180, 20, 20, 225))
                fy = box[1] - 2
                union = box if union is None else (min(union[0], box[0]), box[1], max(union[0] + union[2], box[0] + box[2]) - min(union[0], box[0]), union[1] + union[3] - box[1])
            if union is not None:
                x, y, w, h = (int(v) for v in union)
                panels["flags"] = (x, y, w, h)

        # timeline: bottom strip
        if hud.timeline is not None:
            panel(0, 0, width, TIMELINE_HEIGHT, color=(10, 15, 20, 190))
            for m in hud.marks:
                items.append(pg.shapes.Rectangle(int(m * width), 4, 2, TIMELINE_HEIGHT - 8, color=(150, 160, 170, 255), batch=batch, group=front))
            items.append(pg.shapes.Rectangle(0, TIMELINE_HEIGHT // 2 - 3, int(hud.timeline * width), 6, color=(255, 200, 40, 255), batch=batch, group=front))
            items.append(pg.shapes.Rectangle(int(hud.timeline * width) - 3, 3, 6, TIMELINE_HEIGHT - 6, color=(255, 255, 255, 255), batch=batch, group=front))

        # modal panels, centred and opaque over everything else: the end-of-match summary and
        # the help; a line wider than the window is wrapped (continuation lines indented)
        for lines_, name in ((hud.summary, "summary"), (hud.prompt, "prompt"), (hud.rulings_list, "rulings_list"), (hud.help, "help")):  # noqa: B007
            if not lines_:
                continue
            labs_w: list[Any] = []
            room = max(1, (height - 2 * pad) // line_h - 1)  # lines that fit the window
            for i, s in enumerate(lines_):
                if len(labs_w) >= room:
                    break
                bold = i == 0

                def make(t: str, b: bool = bold) -> Any:
                    return label(t, 0, 0, bold=b, group=modal_front)

                labs_w += wrap_labels(s, make, width - 4 * pad)
            for extra in labs_w[room:]:
                extra.delete()
            labs_w = labs_w[:room]
            hw = max(lab.content_width for lab in labs_w) + 2 * pad
            hh = line_h * len(labs_w) + pad
            x0, top = width // 2 - hw // 2, height // 2 + hh // 2
            for i, lab in enumerate(labs_w):
                lab.x, lab.y = x0 + pad, top - (i + 1) * line_h + 4
            panel(x0, top - hh, hw, hh, color=(10, 15, 20, 255), name=name, group=modal_back)

        self._batch, self._modal, self._items, self.panels, self.faded = batch, modal, items, panels, faded
