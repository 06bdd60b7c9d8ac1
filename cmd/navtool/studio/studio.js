// navtool studio: the page. The server owns the level, the bake, the
// navmesh and the crowd; this page draws what the server's debug-draw
// layers hold and sends clicks and settings back.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const $ = (id) => document.getElementById(id);

// ---- the 3D view ----------------------------------------------------------

const canvas = $('canvas');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x24282f);
const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 5000);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;
controls.screenSpacePanning = true;

let needsRender = true;
controls.addEventListener('change', () => { needsRender = true; });

function resize() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (w === 0 || h === 0) return;
  if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    needsRender = true;
  }
}

function animate() {
  resize();
  if (needsRender) {
    needsRender = false;
    renderer.render(scene, camera);
    studio.frames++;
  }
  requestAnimationFrame(animate);
}

// ---- state ----------------------------------------------------------------

// studio is the page's state; window.studio lets the browser tests read it.
const studio = {
  state: null,
  version: 0,
  layerGroups: new Map(), // name -> THREE.Group of the current version
  layerCounts: {},        // name -> {triangles, lines, points}
  overlay: null,          // the last query's drawing
  lastQuery: null,        // the last query's answer
  lastFrame: null,        // the last crowd frame
  frames: 0,              // renders so far
  bakeDone: 0,            // bakes finished since the page loaded
  drawnVersion: 0,        // the version whose layers are drawn
  start: null, end: null, // the query's points
  ready: null,            // resolves once the first layers are drawn
};
window.studio = studio;

function setStatus(text, isError) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', !!isError);
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let value;
  try { value = text ? JSON.parse(text) : {}; } catch { value = { error: text }; }
  if (!response.ok) throw new Error(value.error || response.statusText);
  return value;
}

// ---- layers -----------------------------------------------------------------

// decodeLayer reads the server's layer encoding (studio_layers.go).
function decodeLayer(buffer) {
  const view = new DataView(buffer);
  const counts = [view.getUint32(0, true), view.getUint32(4, true), view.getUint32(8, true)];
  let offset = 12;
  const parts = [];
  counts.forEach((n, kind) => {
    const positions = new Float32Array(buffer.slice(offset, offset + n * 12)); offset += n * 12;
    const colors = new Uint8Array(buffer.slice(offset, offset + n * 4)); offset += n * 4;
    let sizes = null;
    if (kind > 0) {
      const m = kind === 1 ? n / 2 : n;
      sizes = new Float32Array(buffer.slice(offset, offset + m * 4)); offset += m * 4;
    }
    parts.push({ positions, colors, sizes, n });
  });
  return { triangles: parts[0], lines: parts[1], points: parts[2] };
}

function hasAlpha(colors) {
  for (let i = 3; i < colors.length; i += 4) if (colors[i] < 255) return true;
  return false;
}

// buildLayer turns a decoded layer into three.js objects; behind pushes
// its triangles back in depth so that what lies on them shows.
function buildLayer(layer, name, behind) {
  const group = new THREE.Group();
  group.name = name;
  const t = layer.triangles;
  if (t.n > 0) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(t.positions, 3));
    g.setAttribute('color', new THREE.BufferAttribute(t.colors, 4, true));
    const transparent = hasAlpha(t.colors);
    // The level's own triangles show their front faces only, so that rooms
    // with ceilings show their floors from above (as navtool draw does).
    const m = new THREE.MeshBasicMaterial({ vertexColors: true, transparent, side: name === 'input' ? THREE.FrontSide : THREE.DoubleSide,
      depthWrite: !transparent, polygonOffset: true, polygonOffsetFactor: behind ? 2 : 0, polygonOffsetUnits: behind ? 2 : 0 });
    const mesh = new THREE.Mesh(g, m);
    mesh.userData.pickable = true;
    group.add(mesh);
  }
  const l = layer.lines;
  if (l.n > 0) {
    const g = new THREE.BufferGeometry();
    // Lines sit a little above the surfaces they outline.
    const lifted = l.positions.slice();
    for (let i = 1; i < lifted.length; i += 3) lifted[i] += 0.03;
    g.setAttribute('position', new THREE.BufferAttribute(lifted, 3));
    g.setAttribute('color', new THREE.BufferAttribute(l.colors, 4, true));
    const m = new THREE.LineBasicMaterial({ vertexColors: true, transparent: hasAlpha(l.colors) });
    group.add(new THREE.LineSegments(g, m));
  }
  const p = layer.points;
  if (p.n > 0) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(p.positions, 3));
    g.setAttribute('color', new THREE.BufferAttribute(p.colors, 4, true));
    const size = p.sizes.length ? Math.max(...p.sizes) : 6;
    const m = new THREE.PointsMaterial({ vertexColors: true, size: Math.max(size, 4), sizeAttenuation: false, transparent: hasAlpha(p.colors) });
    group.add(new THREE.Points(g, m));
  }
  return group;
}

function disposeGroup(group) {
  group.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    if (o.material) o.material.dispose();
  });
}

async function loadLayer(name) {
  const version = studio.version;
  const response = await fetch(`/api/layer/${name}?v=${version}`);
  if (response.status === 409) return; // a newer version came meanwhile
  if (!response.ok) {
    const err = await response.json().catch(() => ({ error: response.statusText }));
    throw new Error(err.error);
  }
  const layer = decodeLayer(await response.arrayBuffer());
  if (version !== studio.version) return;
  const old = studio.layerGroups.get(name);
  if (old) { scene.remove(old); disposeGroup(old); }
  const group = buildLayer(layer, name, name === 'input' || name === 'heightfield');
  group.visible = layerOn(name);
  studio.layerGroups.set(name, group);
  studio.layerCounts[name] = { triangles: layer.triangles.n / 3, lines: layer.lines.n / 2, points: layer.points.n };
  scene.add(group);
  needsRender = true;
}

function layerOn(name) {
  const box = document.querySelector(`#layers input[value="${name}"]`);
  return !!(box && box.checked && !box.disabled);
}

// showLayers loads every layer that is on and not loaded for this version.
async function showLayers() {
  const wanted = studio.state.layers.map((l) => l.name).filter(layerOn);
  // The polygons are always loaded: clicks land on them.
  if (!wanted.includes('polygons')) wanted.push('polygons');
  const errors = [];
  await Promise.all(wanted.filter((n) => !studio.layerGroups.has(n)).map((n) => loadLayer(n).catch((e) => errors.push(`${n}: ${e.message}`))));
  for (const [name, group] of studio.layerGroups) group.visible = layerOn(name);
  needsRender = true;
  if (errors.length) setStatus(errors.join('; '), true);
}

function buildLayerList() {
  const box = $('layers');
  box.replaceChildren();
  for (const layer of studio.state.layers) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = layer.name;
    input.checked = layer.on;
    input.addEventListener('change', () => showLayers());
    label.append(input, ' ' + layer.label);
    box.append(label);
  }
  updateLayerList();
}

function updateLayerList() {
  for (const input of document.querySelectorAll('#layers input')) {
    const layer = studio.state.layers.find((l) => l.name === input.value);
    const unavailable = (layer.bake && !studio.state.bakeLayers) || (layer.name === 'input' && studio.state.kind !== 'obj') ||
      (layer.name === 'obstacles' && studio.state.kind !== 'tilecache');
    input.disabled = unavailable;
    input.parentElement.classList.toggle('off', unavailable);
    input.parentElement.title = unavailable ? (layer.bake ? 'only a solo bake (tile size 0) of an OBJ level keeps its stages' : 'not in this file') : '';
  }
}

// ---- the camera -------------------------------------------------------------

function frameView(top, scale = 1) {
  const b = studio.state.mesh.bounds;
  if (!b) return;
  const min = new THREE.Vector3(...b.min), max = new THREE.Vector3(...b.max);
  const center = min.clone().add(max).multiplyScalar(0.5);
  const size = max.clone().sub(min).length() * scale;
  controls.target.copy(center);
  if (top) {
    camera.position.set(center.x, center.y + size * 1.05, center.z + 0.001);
  } else {
    camera.position.set(center.x + size * 0.55, center.y + size * 0.75, center.z + size * 0.7);
  }
  camera.near = size / 1000;
  camera.far = size * 20;
  camera.updateProjectionMatrix();
  controls.update();
  needsRender = true;
}

// ---- settings and the bake -------------------------------------------------

function buildSettingsForm() {
  const form = $('settings');
  form.replaceChildren();
  const groups = new Map();
  for (const c of studio.state.controls) {
    if (!groups.has(c.group)) {
      const fs = document.createElement('fieldset');
      const legend = document.createElement('legend');
      legend.textContent = c.group;
      fs.append(legend);
      groups.set(c.group, fs);
      form.append(fs);
    }
    const row = document.createElement('div');
    row.className = 'control';
    row.title = c.help;
    const label = document.createElement('label');
    label.textContent = c.label;
    label.htmlFor = 'set-' + c.key;
    let input;
    if (c.kind === 'bool') {
      input = document.createElement('input');
      input.type = 'checkbox';
    } else if (c.kind === 'choice') {
      input = document.createElement('select');
      for (const choice of c.choices) input.append(new Option(choice, choice));
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = c.min; input.max = c.max; input.step = c.step || 'any';
    }
    input.id = 'set-' + c.key;
    input.dataset.key = c.key;
    input.dataset.kind = c.kind;
    row.append(label, input);
    if (c.kind === 'number' || c.kind === 'integer') {
      const slider = document.createElement('input');
      slider.type = 'range';
      slider.min = c.min; slider.max = c.max; slider.step = c.step || 0.01;
      slider.tabIndex = -1;
      slider.addEventListener('input', () => { input.value = slider.value; });
      input.addEventListener('input', () => { slider.value = input.value; });
      input.slider = slider;
      const unit = document.createElement('div');
      unit.className = 'unit';
      unit.textContent = `${c.unit ? c.unit + ', ' : ''}${c.min} … ${c.max}`;
      row.append(slider, unit);
    }
    groups.get(c.group).append(row);
  }
  form.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); rebake(); } });
}

function settingValue(settings, key) {
  return key.split('.').reduce((v, k) => (v == null ? undefined : v[k]), settings);
}

function fillSettings(settings) {
  for (const input of document.querySelectorAll('#settings [data-key]')) {
    const v = settingValue(settings, input.dataset.key);
    if (v === undefined) continue;
    if (input.type === 'checkbox') input.checked = !!v;
    else input.value = v;
    if (input.slider) input.slider.value = v;
  }
}

// readSettings returns the form as the settings file navtool bake -config
// reads.
function readSettings() {
  const settings = {};
  for (const input of document.querySelectorAll('#settings [data-key]')) {
    let v;
    if (input.type === 'checkbox') v = input.checked;
    else if (input.dataset.kind === 'choice') v = input.value;
    else {
      v = Number(input.value);
      if (input.value === '' || !Number.isFinite(v)) throw new Error(`${input.dataset.key}: not a number`);
      if (input.dataset.kind === 'integer' && !Number.isInteger(v)) throw new Error(`${input.dataset.key}: want a whole number`);
    }
    const path = input.dataset.key.split('.');
    let target = settings;
    for (const k of path.slice(0, -1)) target = target[k] ??= {};
    target[path[path.length - 1]] = v;
  }
  settings.maxMemoryMB = studio.state.settings.maxMemoryMB;
  return settings;
}

async function rebake(overrides) {
  try {
    const settings = Object.assign(readSettings(), overrides || {});
    setStatus('baking…');
    await api('POST', '/api/bake', settings);
    await refreshState();
  } catch (e) {
    setStatus(e.message, true);
  }
}

function showReport() {
  const st = studio.state;
  const rows = [];
  const r = st.report;
  if (r) {
    rows.push(['mode', r.mode + (r.mode === 'tiled' ? `, ${r.tilesX} × ${r.tilesY} tiles of ${r.tileSize} cells` : `, ${r.gridWidth} × ${r.gridHeight} cells`)]);
    const stages = [['rasterize', 'Rasterize'], ['filters', 'Filters'], ['compact', 'Compact'], ['erode', 'Erode'],
      ['distanceField', 'Distance field'], ['regions', 'Regions'], ['contours', 'Contours'], ['polyMesh', 'Poly mesh'],
      ['detailMesh', 'Detail mesh'], ['tileData', 'Tile data'], ['links', 'Links']];
    for (const [key, label] of stages) rows.push([label + ' ms', r.stagesMs[key].toFixed(2)]);
    rows.push(['total ms', r.totalMs.toFixed(2)]);
    rows.push(['spans (heightfield / compact / walkable)', `${r.heightfieldSpans} / ${r.compactSpans} / ${r.walkableSpans}`]);
    rows.push(['regions, contours', `${r.regions}, ${r.contours}`]);
    rows.push(['polygons, vertices', `${r.polys}, ${r.polyVerts}`]);
    rows.push(['detail triangles', `${r.detailTris}`]);
    if (r.dropLinks || r.jumpLinks) rows.push(['drop, jump links', `${r.dropLinks}, ${r.jumpLinks}`]);
    for (const w of r.warnings || []) rows.push(['warning', w]);
  }
  const table = $('report');
  table.replaceChildren();
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  const m = st.mesh;
  const info = $('meshinfo');
  info.textContent = `navmesh: ${m.polys} polygons in ${m.tiles} tile${m.tiles === 1 ? '' : 's'}, ${m.offMeshConnections} links`;
  info.dataset.polys = m.polys;
  info.dataset.tiles = m.tiles;
  info.dataset.version = st.version;
}

function showBake() {
  const b = studio.state.bake;
  const running = !!b && b.state === 'running';
  $('cancel').disabled = !running;
  $('progress').hidden = !running;
  if (!b) { $('bakestate').textContent = ''; return; }
  if (running) {
    $('progress').max = b.total || 1;
    if (b.total) $('progress').value = b.done; else $('progress').removeAttribute('value');
  }
  const time = `${(b.elapsedMs / 1000).toFixed(2)} s`;
  const text = {
    running: `bake ${b.id} running${b.total ? `: ${b.done} of ${b.total} tiles` : ''}, ${time}`,
    done: `bake ${b.id} done in ${time}`,
    cancelled: `bake ${b.id} cancelled after ${time}`,
    failed: `bake ${b.id} failed after ${time}: ${b.error}`,
  }[b.state];
  $('bakestate').textContent = text;
  if (b.state === 'failed') setStatus(b.error, true);
  else if (b.state === 'done' || b.state === 'cancelled') setStatus(text);
}

let polling = null;

// refreshState reads the server's state; a new version draws the layers
// again and repeats the last query on the new navmesh.
async function refreshState() {
  const st = await api('GET', '/api/state');
  const first = studio.state === null;
  const newVersion = st.version !== studio.version;
  const lastBake = studio.state && studio.state.bake;
  studio.state = st;
  if (first) {
    $('input').textContent = `${st.input} (${st.kind})`;
    buildSettingsForm();
    buildLayerList();
    $('bakepanel').querySelectorAll('button, input, select').forEach((el) => { if (st.kind !== 'obj') el.disabled = true; });
    if (st.kind !== 'obj') $('bakestate').textContent = 'A navmesh or tile cache file: nothing to bake.';
  }
  if (newVersion) {
    studio.version = st.version;
    for (const group of studio.layerGroups.values()) { scene.remove(group); disposeGroup(group); }
    studio.layerGroups.clear();
    studio.layerCounts = {};
    fillSettings(st.settings);
    updateLayerList();
    showReport();
    await showLayers();
    studio.drawnVersion = st.version; // the layers of this version are in the scene
    if (first) frameView(false);
    if (studio.start && studio.lastQuery) await runQuery(studio.lastQuery.kind);
  }
  if (st.bake && (!lastBake || lastBake.id !== st.bake.id || lastBake.state !== st.bake.state) && st.bake.state !== 'running') {
    if (lastBake || !first) studio.bakeDone++;
  }
  showBake();
  const running = st.bake && st.bake.state === 'running';
  if (running && !polling) polling = setInterval(() => refreshState().catch((e) => setStatus(e.message, true)), 150);
  if (!running && polling) { clearInterval(polling); polling = null; }
}

// ---- clicks and queries ------------------------------------------------------

const raycaster = new THREE.Raycaster();
const pointer = new THREE.Vector2();

// pick returns the world point under a canvas position: on the navmesh
// polygons if any lie there, else on the level.
function pick(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  pointer.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  for (const name of ['polygons', 'input']) {
    const group = studio.layerGroups.get(name);
    if (!group) continue;
    const hits = raycaster.intersectObjects(group.children.filter((o) => o.userData.pickable), false);
    if (hits.length) return hits[0].point;
  }
  return null;
}

const markers = new THREE.Group();
scene.add(markers);

function marker(point, color) {
  const m = new THREE.Mesh(new THREE.CylinderGeometry(0.25, 0.25, 1.6, 12), new THREE.MeshBasicMaterial({ color }));
  m.position.set(point[0], point[1] + 0.8, point[2]);
  return m;
}

function showMarkers() {
  markers.children.forEach(disposeGroup);
  markers.clear();
  if (studio.start) markers.add(marker(studio.start, 0x40d040));
  if (studio.end) markers.add(marker(studio.end, 0xe04040));
  needsRender = true;
}

const fmt = (v) => `(${v.map((x) => x.toFixed(2)).join(', ')})`;

async function runQuery(kind) {
  const body = { kind, start: studio.start };
  if (kind !== 'nearest') body.end = studio.end;
  const res = await api('POST', '/api/query', body);
  studio.lastQuery = res;
  if (studio.overlay) { scene.remove(studio.overlay); disposeGroup(studio.overlay); }
  const bytes = Uint8Array.from(atob(res.overlay), (c) => c.charCodeAt(0));
  studio.overlay = buildLayer(decodeLayer(bytes.buffer), 'overlay', false);
  // The answer shows through walls and floors drawn in front of it.
  studio.overlay.traverse((o) => { if (o.isLineSegments || o.isPoints) { o.material.depthTest = false; o.renderOrder = 10; } });
  scene.add(studio.overlay);
  needsRender = true;
  let text;
  if (kind === 'path') {
    text = !res.startFound || !res.endFound ? `no polygon near the ${res.startFound ? 'end' : 'start'} (half extents 2, 4, 2)` :
      `path ${fmt(res.start)} → ${fmt(res.end)}\n` +
      `corridor: ${res.polys} polygons${res.partial ? ' (partial: the end is out of reach)' : ''}\n` +
      `straight path: ${res.straight} points, length ${res.length3d.toFixed(3)} (xz ${res.length2d.toFixed(3)})\n` +
      res.points.map((p, i) => `  ${i}: ${fmt(p)}`).join('\n');
  } else if (kind === 'raycast') {
    text = !res.startFound ? 'no polygon near the start' :
      `raycast ${fmt(res.start)} → ${fmt(res.end)}\n` +
      (res.hit ? `hit a wall at t = ${res.t.toFixed(4)}, ${fmt(res.hitPoint)}, normal ${fmt(res.hitNormal)}` : 'reached the end: nothing in the way') +
      `\n${res.polys} polygons crossed`;
  } else {
    text = !res.startFound ? 'no polygon within half extents 2, 4, 2' :
      `nearest polygon ${res.startRef}\npoint ${fmt(res.nearest)}, ${res.distance.toFixed(3)} away${res.overPoly ? ' (over the polygon)' : ''}`;
  }
  $('result').textContent = text;
  $('result').dataset.kind = kind;
}

function tool() {
  return document.querySelector('input[name=tool]:checked').value;
}

async function onClick(clientX, clientY, shift) {
  const hit = pick(clientX, clientY);
  if (!hit) { setStatus('nothing there to click'); return; }
  const p = [hit.x, hit.y, hit.z];
  const t = tool();
  try {
    if (t === 'path' || t === 'raycast') {
      if (shift && studio.start) studio.end = p;
      else if (!studio.start || studio.end) { studio.start = p; studio.end = null; }
      else studio.end = p;
      showMarkers();
      if (studio.end) await runQuery(t);
      else $('result').textContent = 'start set: click the end';
    } else if (t === 'nearest') {
      studio.start = p; studio.end = null;
      showMarkers();
      await runQuery('nearest');
    } else if (t === 'agent') {
      showFrame(await api('POST', '/api/crowd', { op: 'spawn', pos: p }));
    } else if (t === 'target') {
      showFrame(await api('POST', '/api/crowd', { op: 'target', pos: p }));
    } else if (t === 'obstacle') {
      const id = obstacleAt(clientX, clientY);
      if (id >= 0 && shift) showFrame(await api('POST', '/api/crowd', { op: 'obstacle-remove', id }));
      else if (id < 0) showFrame(await api('POST', '/api/crowd', { op: 'obstacle-add', pos: p }));
    }
  } catch (e) {
    setStatus(e.message, true);
  }
}

// A click is a press and release within a few pixels; anything longer
// orbits or pans the view. In the obstacle tool a press on an obstacle
// drags it.
let press = null;
let drag = null;
canvas.addEventListener('pointerdown', (e) => {
  press = { x: e.clientX, y: e.clientY, shift: e.shiftKey, button: e.button };
  if (tool() === 'obstacle' && e.button === 0 && !e.shiftKey) {
    const id = obstacleAt(e.clientX, e.clientY);
    if (id >= 0) {
      drag = { id, sent: 0 };
      controls.enabled = false;
      canvas.setPointerCapture(e.pointerId);
    }
  }
});
canvas.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const now = performance.now();
  if (now - drag.sent < 50) return;
  drag.sent = now;
  const hit = pick(e.clientX, e.clientY);
  if (hit) api('POST', '/api/crowd', { op: 'obstacle-move', id: drag.id, pos: [hit.x, hit.y, hit.z] }).then(showFrame).catch((err) => setStatus(err.message, true));
});
canvas.addEventListener('pointerup', (e) => {
  if (drag) {
    const hit = pick(e.clientX, e.clientY);
    const id = drag.id;
    drag = null;
    controls.enabled = true;
    if (hit) api('POST', '/api/crowd', { op: 'obstacle-move', id, pos: [hit.x, hit.y, hit.z] }).then(showFrame).catch((err) => setStatus(err.message, true));
    press = null;
    return;
  }
  if (press && press.button === 0 && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 5) onClick(e.clientX, e.clientY, press.shift || e.shiftKey);
  press = null;
});

// ---- the crowd ---------------------------------------------------------------

const crowdGroup = new THREE.Group();
scene.add(crowdGroup);
const agentGeometry = new THREE.CylinderGeometry(1, 1, 1, 16);
agentGeometry.translate(0, 0.5, 0);
const obstacleGeometry = new THREE.CylinderGeometry(1, 1, 1, 24);
obstacleGeometry.translate(0, 0.5, 0);
// Colours by components.TargetState: none, failed, valid, requesting,
// waiting for the queue, waiting for a path, velocity.
const targetColors = [0x9aa3ad, 0xff4040, 0xffb030, 0x40a0ff, 0x40a0ff, 0x40a0ff, 0xc080ff];
const obstacleIds = [];

function showFrame(frame) {
  if (!frame || !frame.agents) return;
  studio.lastFrame = frame;
  crowdGroup.children.forEach(disposeGroup);
  crowdGroup.clear();
  obstacleIds.length = 0;
  const height = 2;
  if (frame.agents.length) {
    const bodies = new THREE.InstancedMesh(agentGeometry, new THREE.MeshBasicMaterial(), frame.agents.length);
    const matrix = new THREE.Matrix4();
    const color = new THREE.Color();
    const velocity = [];
    frame.agents.forEach((a, i) => {
      matrix.makeScale(a[5], height, a[5]).setPosition(a[0], a[1], a[2]);
      bodies.setMatrixAt(i, matrix);
      bodies.setColorAt(i, color.setHex(targetColors[a[6]] ?? 0xffffff));
      velocity.push(a[0], a[1] + height + 0.1, a[2], a[0] + a[3] * 0.5, a[1] + height + 0.1, a[2] + a[4] * 0.5);
    });
    crowdGroup.add(bodies);
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(velocity, 3));
    crowdGroup.add(new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0xffffff })));
  }
  frame.obstacles.forEach((o, i) => {
    const color = o.carving ? (o.landed ? 0x8a2020 : 0xd08080) : 0xe08a20;
    const m = new THREE.Mesh(obstacleGeometry, new THREE.MeshBasicMaterial({ color, transparent: true, opacity: 0.8 }));
    m.scale.set(o.radius, Math.max(o.height, 0.2), o.radius);
    m.position.set(...o.pos);
    m.userData.obstacle = i;
    obstacleIds.push(m);
    crowdGroup.add(m);
  });
  if (frame.target) {
    const [x, y, z] = frame.target;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute([x - 1, y + 0.1, z - 1, x + 1, y + 0.1, z + 1, x - 1, y + 0.1, z + 1, x + 1, y + 0.1, z - 1], 3));
    crowdGroup.add(new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0xffff40 })));
  }
  $('crowdinfo').textContent = `tick ${frame.tick} (${(frame.tick / 30).toFixed(1)} s), ${frame.playing ? 'playing' : 'paused'}, ` +
    `${frame.agents.length} agents, ${frame.reached || 0} arrived, ${frame.obstacles.length} obstacles` +
    (frame.msPerTick ? `, last tick ${frame.msPerTick.toFixed(2)} ms` : '');
  $('crowdinfo').dataset.tick = frame.tick;
  needsRender = true;
}

function obstacleAt(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  pointer.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  const hits = raycaster.intersectObjects(obstacleIds, false);
  return hits.length ? hits[0].object.userData.obstacle : -1;
}

async function crowd(op, extra) {
  try {
    showFrame(await api('POST', '/api/crowd', Object.assign({ op }, extra || {})));
  } catch (e) {
    setStatus(e.message, true);
  }
}

// ---- wiring ---------------------------------------------------------------------

function connectEvents() {
  const events = new EventSource('/api/events');
  events.addEventListener('frame', (e) => showFrame(JSON.parse(e.data)));
  events.addEventListener('state', () => refreshState().catch((err) => setStatus(err.message, true)));
  events.addEventListener('crowd-error', (e) => setStatus(JSON.parse(e.data).error, true));
  events.onerror = () => setStatus('lost the server: is navtool studio still running?', true);
  events.onopen = () => { if ($('status').classList.contains('error')) setStatus(''); };
}

$('rebake').addEventListener('click', () => rebake());
$('cancel').addEventListener('click', () => api('POST', '/api/bake/cancel').then(refreshState).catch((e) => setStatus(e.message, true)));
$('defaults').addEventListener('click', () => fillSettings(studio.state.defaults));
$('scatter').addEventListener('click', () => crowd('scatter', { count: 20 }));
$('play').addEventListener('click', () => crowd('play'));
$('pause').addEventListener('click', () => crowd('pause'));
$('step').addEventListener('click', () => crowd('step'));
$('clear').addEventListener('click', () => crowd('clear'));
$('top').addEventListener('click', () => frameView(true));
$('iso').addEventListener('click', () => frameView(false));
window.addEventListener('resize', () => { needsRender = true; });

// The browser tests drive the page through these (selftest.js).
studio.clickWorld = (x, y, z, shift) => {
  const v = new THREE.Vector3(x, y, z).project(camera);
  const rect = canvas.getBoundingClientRect();
  return onClick(rect.left + (v.x + 1) / 2 * rect.width, rect.top + (1 - v.y) / 2 * rect.height, !!shift);
};
studio.setTool = (name) => { document.querySelector(`input[name=tool][value="${name}"]`).checked = true; };
studio.rebake = rebake;
studio.crowd = crowd;
studio.frameView = frameView;
studio.render = () => { resize(); renderer.render(scene, camera); };

studio.ready = (async () => {
  resize();
  requestAnimationFrame(animate);
  await refreshState();
  const params = new URLSearchParams(location.search);
  // ?events=0 leaves the event stream closed, so that a headless
  // browser's --screenshot sees the page go idle.
  if (params.get('events') !== '0') connectEvents();
  setStatus('');
  const test = params.get('selftest');
  if (test && /^[a-z0-9-]+$/.test(test)) await import(`/selftest/${test}.js`);
})().catch((e) => { setStatus(e.message, true); console.error(e); });
