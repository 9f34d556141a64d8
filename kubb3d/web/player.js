// kubb3d web player: draws a kubb3d scene (kubb3d/web/page.py scene_data) with three.js and
// plays its segments the way kubb3d/viewer/scene.py Segment.poses_at does. World frame: x along
// the pitch, z up, metres; poses are [x, y, z, qx, qy, qz, qw] of a piece's bounding-box centre.
"use strict";

async function kubb3dLoadThree() {
  // the library is carried in the page as text; a module made from it needs no network
  const text = document.getElementById("three-src").textContent;
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

const KUBB3D_NEGATIVE_ZERO = /(?<![\w.,])-(0(?:[.,]0+)?)(?![.,]?\d)/g;
// a number written as a negative zero in a text ("-0.0°", German "-0,0°", "x -0.00 m"): the
// rounding of a small negative value, shown without its sign; "-0.05", "1-0" and ids are left

function kubb3dNoNegativeZero(value) {
  // the value with every text in it (strings of objects and arrays, deeply) free of negative zeros
  if (typeof value === "string") return value.replace(KUBB3D_NEGATIVE_ZERO, "$1");
  if (Array.isArray(value)) {
    if (value.length && typeof value[0] === "number") return value; // poses, meshes
    return value.map(kubb3dNoNegativeZero);
  }
  if (value && typeof value === "object") {
    for (const key of Object.keys(value)) value[key] = kubb3dNoNegativeZero(value[key]);
  }
  return value;
}

function kubb3dBroken(err) {
  // the page's data could not be read or played (a damaged file): the page's notice of a broken
  // file (#broken, in the page's language) is shown at once, with the browser's error below it,
  // instead of a blank page
  const box = document.getElementById("broken");
  box.hidden = false;
  box.classList.add("now");
  const detail = document.createElement("small");
  detail.textContent = err && err.name ? `${err.name}: ${err.message}` : String(err);
  box.appendChild(detail);
  console.error(err);
}

function kubb3dFixed(x, digits) {
  // x.toFixed(digits) that never writes a negative zero ("-0.0" for -0.01)
  const s = x.toFixed(digits);
  return Number(s) === 0 ? s.replace("-", "") : s;
}

function kubb3dSegments(data) {
  // full start / end poses of every segment from the page's changes, and their durations
  let final = {};
  let t0 = 0;
  for (const seg of data.segments) {
    seg.startFull = Object.assign({}, final, seg.start);
    seg.endFull = Object.assign({}, seg.startFull);
    for (const [pid, flat] of Object.entries(seg.poses)) {
      if (flat.length) seg.endFull[pid] = flat.slice(flat.length - 7);
    }
    Object.assign(seg.endFull, seg.end);
    seg.flight = seg.times.length ? seg.times[seg.times.length - 1] : 0;
    seg.hasRaise = Object.keys(seg.raised).length > 0;
    seg.duration = seg.flight + data.hold + (seg.hasRaise ? data.raise + data.hold : 0);
    seg.t0 = t0;
    t0 += seg.duration;
    final = Object.assign({}, seg.endFull, seg.raised);
  }
  data.duration = t0;
}

function kubb3dLerpPose(a, b, f) {
  let q1 = b.slice(3);
  const dot = a[3] * q1[0] + a[4] * q1[1] + a[5] * q1[2] + a[6] * q1[3];
  if (dot < 0) q1 = q1.map((v) => -v);
  const out = [0, 1, 2].map((k) => (1 - f) * a[k] + f * b[k]);
  const q = [0, 1, 2, 3].map((k) => (1 - f) * a[3 + k] + f * q1[k]);
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return out.concat(q.map((v) => v / n));
}

function kubb3dPosesAt(data, seg, t) {
  // id -> pose at t s after the segment began (kubb3d.viewer.scene.Segment.poses_at)
  if (t >= seg.flight) {
    const out = Object.assign({}, seg.endFull);
    if (seg.hasRaise) {
      let f = Math.min(1, Math.max(0, (t - seg.flight - data.hold) / data.raise));
      if (f > 0) {
        f = f * f * (3 - 2 * f);
        for (const [pid, pose] of Object.entries(seg.raised)) {
          if (out[pid]) out[pid] = kubb3dLerpPose(out[pid], pose, f);
        }
      }
    }
    return out;
  }
  const out = Object.assign({}, seg.startFull);
  const times = seg.times;
  let i = 0;
  while (i + 1 < times.length && times[i + 1] <= t) i++;
  const f = i + 1 < times.length ? (t - times[i]) / (times[i + 1] - times[i]) : 0;
  for (const [pid, flat] of Object.entries(seg.poses)) {
    const a = flat.slice(7 * i, 7 * i + 7);
    if (t <= times[0] || i + 1 >= times.length) {
      out[pid] = t <= times[0] ? flat.slice(0, 7) : flat.slice(flat.length - 7);
    } else {
      out[pid] = kubb3dLerpPose(a, flat.slice(7 * i + 7, 7 * i + 14), f);
    }
  }
  return out;
}

class Kubb3dPlayer {
  constructor(THREE, canvas, labelLayer, data) {
    this.THREE = THREE;
    this.canvas = canvas;
    this.labelLayer = labelLayer;
    this.data = data;
    this.showLabels = true;
    this.piecesVisible = true;
    kubb3dSegments(data);
    const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer = renderer;
    const scene = new THREE.Scene();
    this.scene = scene;
    const lin = (rgb) => new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.LinearSRGBColorSpace);
    this.lin = lin;
    scene.background = lin([0.5, 0.62, 0.85]);
    scene.add(new THREE.HemisphereLight(lin([0.5, 0.62, 0.85]), lin([0.2, 0.24, 0.12]), 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(-3, -5, 9);
    scene.add(sun);
    const pitch = data.pitch;
    const board = pitch.board;
    let layer = 0;
    const flat = (w, h, color, z) => {
      // the ground's layers are drawn in order and write no depth: no flicker between them
      const m = new THREE.Mesh(new THREE.PlaneGeometry(w, h), new THREE.MeshLambertMaterial({ color, depthWrite: false }));
      m.position.z = z;
      m.renderOrder = layer++;
      scene.add(m);
      return m;
    };
    if (board) {
      flat(40, 40, lin([0.3, 0.24, 0.18]), -board.height);
      const top = new THREE.Mesh(
        new THREE.BoxGeometry(board.length, board.width, board.thickness),
        new THREE.MeshLambertMaterial({ color: lin(data.wood.board) })
      );
      top.position.z = -board.thickness / 2;
      top.renderOrder = 50;
      scene.add(top);
      const table = new THREE.Mesh(
        new THREE.BoxGeometry(board.length * 0.96, board.width * 0.96, board.height - board.thickness),
        new THREE.MeshLambertMaterial({ color: lin(data.wood.table) })
      );
      table.position.z = -board.thickness - (board.height - board.thickness) / 2;
      scene.add(table);
    } else {
      flat(80, 80, lin([0.1, 0.3, 0.06]), -0.001);
      flat(pitch.length, pitch.width, lin([0.13, 0.36, 0.08]), 0);
    }
    const lineColor = board ? lin([0.06, 0.04, 0.03]) : lin([0.95, 0.95, 0.92]);
    for (const [x0, y0, x1, y1, w] of pitch.lines) {
      const len = Math.hypot(x1 - x0, y1 - y0) + w;
      const m = flat(len, w, lineColor, board ? 0.0005 : 0.002);
      m.position.x = (x0 + x1) / 2;
      m.position.y = (y0 + y1) / 2;
      m.rotation.z = Math.atan2(y1 - y0, x1 - x0);
      m.renderOrder += 60; // after the board's top
    }
    this.geometries = {};
    this.radius = {};
    for (const [kind, mesh] of Object.entries(data.meshes)) {
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(mesh.v, 3));
      g.setAttribute("normal", new THREE.Float32BufferAttribute(mesh.n, 3));
      g.computeBoundingSphere();
      this.geometries[kind] = g;
      this.radius[kind] = g.boundingSphere.radius;
    }
    this.pieces = {};
    this.labels = {};
    for (const [pid, info] of Object.entries(data.pieces)) {
      const g = this.geometries[info.kind] || this.geometries.kubb;
      const material = new THREE.MeshLambertMaterial({ color: lin(data.wood[info.kind] || data.wood.kubb) });
      const mesh = new THREE.Mesh(g, material);
      mesh.renderOrder = 100;
      mesh.userData.wood = material.color.clone();
      scene.add(mesh);
      this.pieces[pid] = mesh;
      if (info.kind === "kubb" || info.kind === "king" || info.kind === "baton") {
        const div = document.createElement("div");
        div.className = "label " + info.kind;
        div.textContent = info.name || pid; // a kubb's id, the king and a baton in the page's language
        labelLayer.appendChild(div);
        this.labels[pid] = div;
      }
    }
    this.camera = new THREE.PerspectiveCamera(40, 1, board ? 0.01 : 0.05, 200);
    this.camera.up.set(0, 0, 1);
    this.resetView();
    this.attachControls();
    this.resize();
    this.onResize = () => {
      this.resize();
      this.render();
    };
    window.addEventListener("resize", this.onResize);
  }

  dispose() {
    window.removeEventListener("resize", this.onResize);
    this.renderer.dispose();
  }

  resetView() {
    // behind baseline A, above and to the side, the whole pitch (a quiz: its pieces) in view
    const pitch = this.data.pitch;
    const focus = (this.data.focus || []).filter((pid) => this.data.segments[0].startFull[pid]);
    let target = [0, 0, 0];
    let dist = Math.max(pitch.length, pitch.width) * 1.45;
    if (focus.length && this.data.segments.length) {
      const end = this.data.segments[this.data.segments.length - 1].endFull;
      const xs = focus.map((pid) => end[pid] || this.data.segments[0].startFull[pid]);
      target = [0, 1, 2].map((k) => xs.reduce((s, p) => s + p[k], 0) / xs.length);
      target[2] = 0;
      const span = Math.max(...xs.map((p) => Math.hypot(p[0] - target[0], p[1] - target[1])));
      dist = Math.max(pitch.board ? 0.45 : 2.2, span * 3.0);
    }
    this.orbit = { target, dist, az: (-150 * Math.PI) / 180, el: (36 * Math.PI) / 180 };
  }

  placeCamera() {
    const o = this.orbit;
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    const d = o.dist / Math.min(1, aspect * 0.75);
    const c = this.camera;
    c.position.set(
      o.target[0] + d * Math.cos(o.el) * Math.cos(o.az),
      o.target[1] + d * Math.cos(o.el) * Math.sin(o.az),
      o.target[2] + d * Math.sin(o.el)
    );
    c.lookAt(o.target[0], o.target[1], o.target[2]);
    c.updateMatrixWorld();
  }

  attachControls() {
    const pointers = new Map();
    let pinch = 0;
    const el = this.canvas;
    el.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      el.setPointerCapture(e.pointerId);
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      pinch = 0;
    };
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("pointermove", (e) => {
      const last = pointers.get(e.pointerId);
      if (!last) return;
      if (pointers.size === 1) {
        this.orbit.az -= (e.clientX - last[0]) * 0.008;
        this.orbit.el = Math.min(1.55, Math.max(0.05, this.orbit.el + (e.clientY - last[1]) * 0.008));
      }
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch) this.orbit.dist *= pinch / d;
        pinch = d;
      }
      this.render();
    });
    el.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.orbit.dist *= Math.exp(e.deltaY * 0.001);
        this.render();
      },
      { passive: false }
    );
  }

  resize() {
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / Math.max(1, h);
    this.camera.updateProjectionMatrix();
  }

  show(segIndex, t) {
    // the pieces as they are t s into segment segIndex; rulings tint the pieces at rest
    const data = this.data;
    const seg = data.segments[segIndex];
    const poses = kubb3dPosesAt(data, seg, t);
    const hidden = new Set(seg.hidden);
    const atRest = t >= seg.flight;
    const overlay = {};
    if (atRest) for (const r of seg.rulings) overlay[r.piece] = r.overlay;
    for (const [pid, mesh] of Object.entries(this.pieces)) {
      const p = poses[pid];
      mesh.visible = this.piecesVisible && !!p && !hidden.has(pid);
      if (!p) continue;
      mesh.position.set(p[0], p[1], p[2]);
      mesh.quaternion.set(p[3], p[4], p[5], p[6]);
      const key = overlay[pid];
      const tint = key && key !== "standing" ? data.statusColors[key] : null;
      mesh.material.color.copy(mesh.userData.wood);
      if (tint) mesh.material.color.lerp(this.lin(tint), 0.7);
    }
    this.poses = poses;
    this.segIndex = segIndex;
    this.render();
  }

  render() {
    this.placeCamera();
    this.renderer.render(this.scene, this.camera);
    this.placeLabels();
  }

  project(p) {
    // css px (x right, y down) of a world point, or null behind the camera
    const v = new this.THREE.Vector3(p[0], p[1], p[2]).project(this.camera);
    if (v.z > 1) return null;
    return [((v.x + 1) / 2) * this.canvas.clientWidth, ((1 - v.y) / 2) * this.canvas.clientHeight];
  }

  placeLabels() {
    for (const [pid, div] of Object.entries(this.labels)) {
      const mesh = this.pieces[pid];
      const kind = this.data.pieces[pid].kind;
      const show = this.showLabels && mesh.visible && (kind !== "baton" || this.data.segments[this.segIndex || 0].thrown === pid);
      const at = show ? this.project([mesh.position.x, mesh.position.y, mesh.position.z + this.radius[kind] + 0.01]) : null;
      if (!at) {
        div.style.display = "none";
        continue;
      }
      div.style.display = "";
      div.style.left = at[0] + "px";
      div.style.top = at[1] + "px";
    }
  }

  viewProjection() {
    // column-major 4 x 4 (projection x view): what a test projects the replay's poses with
    this.placeCamera();
    const m = new this.THREE.Matrix4().multiplyMatrices(this.camera.projectionMatrix, this.camera.matrixWorldInverse);
    return { matrix: m.elements.slice(), width: this.canvas.clientWidth, height: this.canvas.clientHeight };
  }
}
