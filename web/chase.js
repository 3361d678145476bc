// The chase page's glue: loads signposts_web.wasm (crates/signposts-web, plain C exports),
// draws the map and the enemies, steps every enemy each frame by one batched table query.
// Tables are built in a worker (build.js, its own instance of the module) with a progress bar,
// then loaded here from the bytes it saved: the page keeps drawing during a build.
// `window.signposts` is the page's state; `web/test.py` reads it through the DevTools protocol.
'use strict';

// The largest dense table the page offers to build (a wasm32 module addresses 4 GiB, and the
// worker and the page each hold the table and its saved bytes for a moment).
const DENSE_MAX_MIB = 1024;

const page = {
  ready: false, error: null, notice: null, width: 0, height: 0, player: null, enemies: 2000,
  map: '', buildMs: 0, loadMs: 0, inWorker: false, tableBytes: 0, denseBytes: 0, compressed: false,
  stepMs: [], astarMs: 0, repairs: 0, repairMs: 0,
  building: null, // while a table builds: { what, done, total, reports }
  lastBuild: null, // the last build's { what, reports, buildMs, inWorker }
  mode: 'grid', rooms: null, // rooms: { regions, buildMs, outlines } once built for this map
  // Crowd avoidance (the "avoid" box): `count` the enemies kept in the mode on show (fewer than
  // `enemies` when clamped to the open cells, one a cell), `clamped` the page's note about it.
  avoid: false, count: 0, clamped: null,
  moved: 0, // the enemies that moved in the last frame
  // Walls clicked are repaired over frames (`toggle_job`, `repair_step`): `repair` while one
  // runs ({ start, frames, left, workMs: the longest frame's own time, clickMs: the click's,
  // callMs: the longest `repair_step` call's }), `lastRepair` the last one's; `spreadRepairs` false repairs in the click instead (`toggle`), as before.
  spreadRepairs: true, repair: null, lastRepair: null,
};
window.signposts = page; // the page's state, for the test and the curious
// The mean distance (along the map) from the first 1,000 enemies to the player.
page.meanDistance = () => (page.mode === 'rooms'
  ? wasm.rooms_mean_distance(page.point.x, page.point.y, 1000)
  : wasm.mean_distance(page.player.x, page.player.y, 1000));
// Where cell (x, y)'s centre is on the screen.
page.screenAt = (x, y) => {
  const box = canvas.getBoundingClientRect();
  return { x: box.left + (x + 0.5) * scale, y: box.top + (y + 0.5) * scale };
};
page.isOpen = (x, y) => isOpen(x, y);
// The grid enemies' cells, `x, y` pairs (a copy).
page.enemyCells = () => Array.from(new Uint32Array(wasm.memory.buffer, wasm.enemies_ptr(), 2 * wasm.enemies_len()));
// The most grid enemies on one cell (1 with avoidance on), counted by the module.
page.mostInACell = () => wasm.most_in_a_cell();

let wasm;
let module; // the compiled module, for the build workers
let worker = null; // the build under way
let mapBytes = null; // the current map's `.map` bytes (null: a saved table)
const canvas = document.getElementById('canvas');
const context = canvas.getContext('2d');
const small = document.createElement('canvas'); // the map at one pixel a cell
const smallContext = small.getContext('2d');
let base; // the map's pixels (Uint32Array), walls and floor
let frame; // ImageData drawn each frame
let scale = 1;

function fail(message) {
  page.error = message;
  document.getElementById('error').textContent = message;
}

// A message about what the page can do next (not an error).
function notice(message) {
  page.notice = message;
  document.getElementById('error').textContent = message || '';
}

const stats = document.getElementById('stats');
const bar = document.getElementById('progress');
const denseButton = document.getElementById('dense');
const denseLimit = document.getElementById('dense-limit');
const mib = (bytes) => (bytes / 1048576).toFixed(1);

function lastError() {
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.error_ptr(), wasm.error_len());
  return new TextDecoder().decode(bytes);
}

// Forgets the map on show: its stats, its rooms, its clicks (a new map starts clean).
function clearMap(what) {
  page.ready = false;
  if (worker) worker.terminate(); // a build for a map no longer wanted (its promise never ends)
  worker = null;
  page.building = null;
  bar.hidden = true;
  Object.assign(page, {
    error: null, notice: null, buildMs: 0, loadMs: 0, tableBytes: 0, denseBytes: 0, compressed: false,
    stepMs: [], astarMs: 0, repairs: 0, repairMs: 0, rooms: null, lastBuild: null, repair: null, lastRepair: null,
  });
  document.getElementById('error').textContent = '';
  denseButton.hidden = true;
  stats.textContent = `${what}…`;
}

async function loadMap(name) {
  page.map = name;
  clearMap(`loading ${name || 'the generated maze'}`);
  let bytes = new Uint8Array(0);
  if (name) {
    const response = await fetch('maps/' + name);
    if (!response.ok) return fail(`cannot fetch maps/${name}: ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  if (page.map !== name) return; // another map was picked meanwhile
  if (name.endsWith('.sp')) { // a table saved by `signposts build`: loaded, not built
    mapBytes = null;
    return loadTable(bytes, name, 0, false);
  }
  mapBytes = bytes;
  // A .map (or the maze) builds: dense up to the budget in MiB, compressed above.
  const budget = Math.min(DENSE_MAX_MIB, Math.max(0, Math.floor(Number(denseLimit.value)) || 0));
  await build(bytes, budget, name || 'the maze');
}

// Builds the table of `bytes` (a .map, or none: the maze) in a worker, a progress bar moving;
// then loads it here. Where workers cannot run, builds on this thread.
async function build(bytes, denseUpToMiB, what) {
  const map = page.map;
  page.building = { what, done: 0, total: 0, reports: 0 };
  showProgress();
  let result;
  let inWorker = true;
  try {
    worker = new Worker('build.js');
  } catch (e) {
    worker = null;
  }
  if (worker) {
    const mine = worker;
    result = await new Promise((resolve) => {
      mine.onmessage = ({ data }) => {
        if (data.progress) {
          Object.assign(page.building, data.progress);
          page.building.reports++;
          showProgress();
        } else resolve(data);
      };
      mine.onerror = (e) => resolve({ error: `the build worker failed: ${e.message}` });
      mine.postMessage({ module, bytes, denseUpToMiB });
    });
    mine.terminate();
    if (worker !== mine) return; // superseded
    worker = null;
  } else {
    inWorker = false;
    result = buildHere(bytes, denseUpToMiB);
  }
  if (page.map !== map) return;
  const reports = page.building.reports;
  page.building = null;
  bar.hidden = true;
  if (result.error) return fail(`${what}: ${result.error}`);
  page.lastBuild = { what, reports, buildMs: result.buildMs, inWorker };
  loadTable(result.table, what, result.buildMs, inWorker);
}

// The build on this thread (no workers): the page freezes until it ends.
function buildHere(bytes, denseUpToMiB) {
  const ptr = wasm.alloc(bytes.length);
  if (ptr === 0 && bytes.length > 0) return { error: 'no memory for the map' };
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  const start = performance.now();
  const rc = wasm.load_map(ptr, bytes.length, denseUpToMiB);
  const buildMs = performance.now() - start;
  wasm.dealloc(ptr, bytes.length);
  if (rc < 0) return { error: lastError() };
  if (wasm.save_table() < 0) return { error: lastError() };
  return { table: new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), wasm.out_len()).slice(), buildMs };
}

function showProgress() {
  const b = page.building;
  bar.hidden = false;
  bar.max = Math.max(1, b.total);
  bar.value = b.done;
  const percent = b.total ? ` ${(100 * b.done / b.total).toFixed(0)}% (${b.done} of ${b.total} batches of targets)` : '';
  stats.textContent = `building the table of ${b.what}:${percent}…`;
}

// Loads a saved table (from a build, or a .sp file) into the page's module and shows it.
function loadTable(bytes, what, buildMs, inWorker) {
  const start = performance.now();
  const ptr = wasm.alloc(bytes.length);
  if (ptr === 0 && bytes.length > 0) return fail(`${what}: no memory for the table's ${bytes.length} bytes`);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  const rc = wasm.load_saved(ptr, bytes.length);
  wasm.dealloc(ptr, bytes.length);
  if (rc < 0) return fail(`${what}: ${lastError()}`);
  Object.assign(page, { buildMs, loadMs: performance.now() - start, inWorker });
  page.width = wasm.width();
  page.height = wasm.height();
  page.tableBytes = wasm.table_bytes();
  page.compressed = wasm.compressed() === 1;
  page.denseBytes = page.compressed ? wasm.dense_bytes() : 0;
  // The page edits walls in dense tables only: the dense one, when it fits.
  denseButton.hidden = !(page.compressed && page.denseBytes <= DENSE_MAX_MIB * 1048576);
  denseButton.textContent = `build a dense table (${mib(page.denseBytes)} MiB) to edit walls`;
  scale = Math.max(1, Math.floor(Math.min(1200 / page.width, 500 / page.height)));
  canvas.width = page.width * scale;
  canvas.height = page.height * scale;
  small.width = page.width;
  small.height = page.height;
  frame = smallContext.createImageData(page.width, page.height);
  drawBase();
  page.player = firstOpen(page.width >> 1, page.height >> 1);
  page.point = { x: page.player.x + 0.5, y: page.player.y + 0.5 };
  page.rooms = null;
  // The module keeps the avoid setting across loads; it turns it off when the crowd does not fit.
  showAvoid();
  if (!setEnemies()) return;
  page.ready = true;
  if (page.mode === 'rooms') buildRooms();
}

// The dense table of the map on show, built from its cells (a compressed table's map).
denseButton.addEventListener('click', () => {
  if (!page.ready || !page.compressed) return;
  if (wasm.save_map() < 0) return fail(`the map: ${lastError()}`);
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), wasm.out_len()).slice();
  const what = `${page.map || 'the maze'}, dense`;
  clearMap(`building ${what}`);
  build(bytes, 0xffffffff, what); // u32::MAX MiB: dense whatever its size
});

// The rooms of the map as it is now: its navigation mesh and region oracle (the second mode).
function buildRooms() {
  const start = performance.now();
  if (wasm.rooms_build() < 0) return fail(`the rooms: ${lastError()}`);
  const outlines = new Float32Array(wasm.memory.buffer, wasm.rooms_outlines_ptr(), wasm.rooms_outlines_len()).slice();
  page.rooms = { regions: wasm.rooms_regions(), buildMs: performance.now() - start, outlines };
  setEnemies();
}

// Sets the enemy count of the mode on show to the slider's (clamped by the module to the open
// cells with avoidance on: the page says so). False on error.
function setEnemies() {
  const rooms = page.mode === 'rooms' && page.rooms;
  const n = rooms ? wasm.rooms_set_enemies(page.enemies) : wasm.set_enemies(page.enemies);
  if (n < 0) {
    fail(`the ${rooms ? "rooms' " : ''}enemies: ${lastError()}`);
    return false;
  }
  page.count = n;
  page.clamped = n < page.enemies && page.avoid
    ? `(${n} kept: one enemy a cell, ${wasm.open_cells()} open cells)` : null;
  document.getElementById('clamped').textContent = page.clamped || '';
  return true;
}

// The avoid box as the module has it.
function showAvoid() {
  page.avoid = wasm.avoid() === 1;
  avoidBox.checked = page.avoid;
}

const avoidBox = document.getElementById('avoid');
avoidBox.addEventListener('change', () => {
  if (wasm.set_avoid(avoidBox.checked ? 1 : 0) < 0) fail(`avoidance: ${lastError()}`);
  showAvoid();
  page.stepMs = [];
  if (page.ready) setEnemies();
});

function drawBase() {
  const cells = new Uint8Array(wasm.memory.buffer, wasm.cells_ptr(), page.width * page.height);
  base = new Uint32Array(cells.length);
  for (let i = 0; i < cells.length; i++) base[i] = cells[i] ? 0xff2a2622 : 0xff5a524c; // ABGR
}

function isOpen(x, y) {
  return x >= 0 && y >= 0 && x < page.width && y < page.height &&
    new Uint8Array(wasm.memory.buffer, wasm.cells_ptr(), page.width * page.height)[y * page.width + x] === 1;
}

// The open cell nearest (x, y) in rings.
function firstOpen(x, y) {
  for (let r = 0; r < Math.max(page.width, page.height); r++) {
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
      if (isOpen(x + dx, y + dy)) return { x: x + dx, y: y + dy };
    }
  }
  return { x: 0, y: 0 };
}

function cellAt(event) {
  const box = canvas.getBoundingClientRect();
  return { x: Math.floor((event.clientX - box.left) / scale), y: Math.floor((event.clientY - box.top) / scale) };
}

canvas.addEventListener('mousemove', (event) => {
  const cell = cellAt(event);
  if (!page.ready || !isOpen(cell.x, cell.y)) return;
  page.player = cell;
  const box = canvas.getBoundingClientRect();
  page.point = { x: (event.clientX - box.left) / scale, y: (event.clientY - box.top) / scale };
});

canvas.addEventListener('click', (event) => {
  const cell = cellAt(event);
  if (!page.ready || (cell.x === page.player.x && cell.y === page.player.y)) return;
  if (page.compressed) {
    // A compressed table's edit can take a rebuild (seconds to minutes here, on one thread,
    // where the dense table's repair is spread over frames): the page edits dense tables only.
    return notice(page.denseBytes <= DENSE_MAX_MIB * 1048576
      ? `walls are edited in the dense table on this page: press "${denseButton.textContent}" above`
      : `walls are edited in the dense table on this page, and this map's (${mib(page.denseBytes)} MiB) ` +
        `is past the page's ${DENSE_MAX_MIB} MiB: pick a smaller map to edit walls`);
  }
  const start = performance.now();
  const rc = page.spreadRepairs ? wasm.toggle_job(cell.x, cell.y) : wasm.toggle(cell.x, cell.y);
  if (rc < 0) return fail(`cannot edit (${cell.x}, ${cell.y}): ${lastError()}`);
  if (!page.spreadRepairs) page.repairMs = performance.now() - start;
  else if (!page.repair) page.repair = { start, frames: 0, left: 0, workMs: 0, clickMs: performance.now() - start, callMs: 0 };
  page.repairs = wasm.repairs();
  drawBase();
  showAvoid(); // a crowd that could not be made again after the edit turned avoidance off
  if (page.mode === 'rooms') buildRooms(); // a new mesh for the new walls
  else page.count = wasm.enemies_len(); // with avoidance, one on the closed cell may have had nowhere to go
});

document.getElementById('mode').addEventListener('change', (event) => {
  page.mode = event.target.value;
  page.stepMs = [];
  if (page.mode === 'rooms' && page.ready && !page.rooms) buildRooms();
  else if (page.ready) setEnemies();
});

const slider = document.getElementById('enemies');
slider.addEventListener('input', () => {
  page.enemies = Number(slider.value);
  document.getElementById('count').textContent = page.enemies;
  if (page.ready && wasm.set_enemies(page.enemies) < 0) fail(`the enemies: ${lastError()}`);
  if (page.rooms && wasm.rooms_set_enemies(page.enemies) < 0) fail(`the rooms' enemies: ${lastError()}`);
  if (page.ready) setEnemies(); // the mode on show: its count, and whether it was clamped
});

// A frame's share of a repair under way: about REPAIR_MS of its time, in calls of `units`
// units of work each (a unit: about 4,096 nodes handled or entries written, whichever part of
// the repair they are in), calibrated as it goes so that one call takes a fraction of the share
// (the module has no clock of its own).
const REPAIR_MS = 6;
let units = 4;
function repairFrame() {
  const r = page.repair;
  if (!r) return;
  const start = performance.now();
  let left;
  do {
    const t = performance.now();
    left = wasm.repair_step(units);
    const took = performance.now() - t;
    r.callMs = Math.max(r.callMs, took);
    if (took < REPAIR_MS / 8) units = Math.min(2 * units, 1 << 20);
    else if (took > REPAIR_MS / 4) units = Math.max(1, units >> 1);
  } while (left > 0 && performance.now() - start < REPAIR_MS);
  r.frames++;
  r.left = left;
  if (left < 0) {
    page.repair = null;
    drawBase(); // the map went back to the table's
    return fail(`the repair: ${lastError()}`);
  }
  if (left === 0) { // the repaired table is in use
    page.repairMs = performance.now() - r.start;
    page.lastRepair = { ms: page.repairMs, frames: r.frames, workMs: r.workMs, clickMs: r.clickMs, callMs: r.callMs };
    page.repair = null;
  }
}

let frames = 0;
function step() {
  if (!page.ready) return;
  repairFrame();
  const start = performance.now();
  if (page.mode === 'rooms') {
    if (!page.rooms) return;
    page.moved = wasm.rooms_tick(page.point.x, page.point.y, 0.25); // a quarter cell a frame, any angle
    page.stepMs.push(performance.now() - start);
    if (page.stepMs.length > 30) page.stepMs.shift();
    return;
  }
  page.moved = wasm.tick(page.player.x, page.player.y);
  page.stepMs.push(performance.now() - start);
  if (page.stepMs.length > 30) page.stepMs.shift();
  if (frames++ % 30 === 0) {
    // What one A* search per enemy would cost this frame: 200 searches, scaled.
    const sample = Math.min(200, page.count);
    const t = performance.now();
    wasm.astar(page.player.x, page.player.y, sample);
    page.astarMs = sample ? (performance.now() - t) * page.count / sample : 0;
  }
}

function draw() {
  if (!page.ready) return;
  const pixels = new Uint32Array(frame.data.buffer);
  pixels.set(base);
  const rooms = page.mode === 'rooms' && page.rooms;
  if (!rooms) {
    const positions = new Uint32Array(wasm.memory.buffer, wasm.enemies_ptr(), 2 * wasm.enemies_len());
    for (let i = 0; i < positions.length; i += 2) pixels[positions[i + 1] * page.width + positions[i]] = 0xff3c46ee;
    pixels[page.player.y * page.width + page.player.x] = 0xff66f08c;
  }
  smallContext.putImageData(frame, 0, 0);
  context.imageSmoothingEnabled = false;
  context.drawImage(small, 0, 0, canvas.width, canvas.height);
  if (rooms) drawRooms();
  const mean = page.stepMs.reduce((a, b) => a + b, 0) / Math.max(1, page.stepMs.length);
  if (rooms) {
    document.getElementById('stats').innerHTML =
      `map ${page.width}×${page.height}: ${page.rooms.regions} convex regions, their doors and the region ` +
      `oracle built in ${page.rooms.buildMs.toFixed(0)} ms\n` +
      (page.avoid
        ? `${page.count} enemies, discs of radius ${wasm.rooms_radius()} kept apart (ORCA): ${mean.toFixed(2)} ms a frame; ` +
          `${wasm.rooms_overlaps()} pairs overlap, the deepest by ${wasm.rooms_deepest_overlap().toFixed(2)} cells\n`
        : `${page.count} enemies, each walking straight to its next waypoint (any angle): ` +
          `${mean.toFixed(2)} ms a frame\n`) +
      `walls clicked: ${page.repairs} (the rooms are built again after each)`;
    return;
  }
  const why = page.compressed
    ? `compressed (its dense table would take ${mib(page.denseBytes)} MiB)`
    : 'dense (every optimal move, edited in place)';
  const built = page.lastBuild
    ? `built in ${page.buildMs.toFixed(0)} ms${page.inWorker ? ' in a worker' : ''}, loaded in ${page.loadMs.toFixed(0)} ms`
    : `loaded in ${page.loadMs.toFixed(0)} ms`;
  document.getElementById('stats').innerHTML =
    `map ${page.width}×${page.height}, table ${why}: ${mib(page.tableBytes)} MiB, ${built}\n` +
    (page.avoid
      ? `${page.count} enemies, one a cell (the least crowded optimal move, or wait): ${mean.toFixed(2)} ms a frame\n`
      : `${page.count} enemies: all their steps of a frame ${mean.toFixed(2)} ms (one batched table query)\n`) +
    `<span class="why">the same steps by one A* search each: ${page.astarMs.toFixed(1)} ms ` +
    `(${(page.astarMs / Math.max(mean, 1e-3)).toFixed(0)}× the table)</span>\n` +
    (page.repair
      ? `walls clicked: ${page.repairs}, repairing over frames (${page.repair.left} units of work left; ` +
        'the enemies keep to the table before the click, off the closed cells)'
      : `walls clicked: ${page.repairs}, the last repaired in ${page.repairMs.toFixed(1)} ms` +
        (page.lastRepair ? ` over ${page.lastRepair.frames} frames` : ''));
}

// The regions' outlines, the enemies as dots at their exact positions, the player.
function drawRooms() {
  const o = page.rooms.outlines;
  context.strokeStyle = 'rgba(120, 170, 255, 0.35)';
  context.lineWidth = 1;
  context.beginPath();
  for (let i = 0; i < o.length;) {
    const n = o[i++];
    context.moveTo(o[i] * scale, o[i + 1] * scale);
    for (let k = 1; k < n; k++) context.lineTo(o[i + 2 * k] * scale, o[i + 2 * k + 1] * scale);
    context.closePath();
    i += 2 * n;
  }
  context.stroke();
  const positions = new Float32Array(wasm.memory.buffer, wasm.rooms_enemies_ptr(), 2 * wasm.rooms_enemies_len());
  context.fillStyle = '#ee463c';
  const radius = wasm.rooms_radius() * scale; // with avoidance: discs of the agents' radius
  if (radius > 0) {
    context.beginPath();
    for (let i = 0; i < positions.length; i += 2) {
      const x = positions[i] * scale;
      const y = positions[i + 1] * scale;
      context.moveTo(x + radius, y);
      context.arc(x, y, radius, 0, 2 * Math.PI);
    }
    context.fill();
  } else {
    const size = Math.max(2, scale * 0.5);
    for (let i = 0; i < positions.length; i += 2) {
      context.fillRect(positions[i] * scale - size / 2, positions[i + 1] * scale - size / 2, size, size);
    }
  }
  context.fillStyle = '#8cf066';
  context.fillRect(page.point.x * scale - scale / 2, page.point.y * scale - scale / 2, scale, scale);
}

function loop() {
  const start = performance.now();
  const repairing = page.repair;
  step();
  draw();
  // A frame's own time while a repair runs (the page's work, not the browser's).
  if (repairing) repairing.workMs = Math.max(repairing.workMs, performance.now() - start);
  if (page.lastRepair && repairing && !page.repair) page.lastRepair.workMs = repairing.workMs;
  requestAnimationFrame(loop);
}

async function start() {
  try {
    module = await WebAssembly.compileStreaming(fetch('signposts_web.wasm'));
    // The page's instance builds nothing (the workers do): its progress import does nothing.
    wasm = (await WebAssembly.instantiate(module, { env: { progress() {} } })).exports;
    // Maps listed in maps/maps.txt (one file name a line: .map files, or tables saved by
    // `signposts build` as .sp) join the generated maze in the menu.
    const list = await fetch('maps/maps.txt').then((r) => (r.ok ? r.text() : '')).catch(() => '');
    const select = document.getElementById('map');
    for (const name of list.split('\n').map((s) => s.trim()).filter(Boolean)) {
      select.add(new Option(name, name));
    }
    select.addEventListener('change', () => loadMap(select.value));
    requestAnimationFrame(loop); // frames run during the first build too
    await loadMap('');
  } catch (e) {
    fail(String(e));
  }
}

start();
