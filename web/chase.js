// The chase page's glue: loads signposts_web.wasm (crates/signposts-web, plain C exports),
// draws the map and the enemies, steps every enemy each frame by one batched table query.
// `window.signposts` is the page's state; `web/test.py` reads it through the DevTools protocol.
'use strict';

const page = {
  ready: false, error: null, width: 0, height: 0, player: null, enemies: 2000,
  buildMs: 0, tableBytes: 0, compressed: false, stepMs: [], astarMs: 0, repairs: 0, repairMs: 0,
  mode: 'grid', rooms: null, // rooms: { regions, buildMs, outlines } once built for this map
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

let wasm;
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

function lastError() {
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.error_ptr(), wasm.error_len());
  return new TextDecoder().decode(bytes);
}

async function loadMap(name) {
  page.ready = false;
  let bytes = new Uint8Array(0);
  if (name) {
    const response = await fetch('maps/' + name);
    if (!response.ok) return fail(`cannot fetch maps/${name}: ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  const ptr = wasm.alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  const start = performance.now();
  // A table saved by `signposts build` (.sp) loads; a .map (or the maze) builds, dense up to 256 MiB.
  const rc = name.endsWith('.sp') ? wasm.load_saved(ptr, bytes.length) : wasm.load_map(ptr, bytes.length, 256);
  page.buildMs = performance.now() - start;
  wasm.dealloc(ptr, bytes.length);
  if (rc < 0) return fail(`${name || 'the maze'}: ${lastError()}`);
  page.width = wasm.width();
  page.height = wasm.height();
  page.tableBytes = wasm.table_bytes();
  page.compressed = wasm.compressed() === 1;
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
  wasm.set_enemies(page.enemies);
  page.ready = true;
  if (page.mode === 'rooms') buildRooms();
}

// The rooms of the map as it is now: its navigation mesh and region oracle (the second mode).
function buildRooms() {
  const start = performance.now();
  if (wasm.rooms_build() < 0) return fail(`the rooms: ${lastError()}`);
  const outlines = new Float32Array(wasm.memory.buffer, wasm.rooms_outlines_ptr(), wasm.rooms_outlines_len()).slice();
  page.rooms = { regions: wasm.rooms_regions(), buildMs: performance.now() - start, outlines };
  wasm.rooms_set_enemies(page.enemies);
}

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
  const start = performance.now();
  const rc = wasm.toggle(cell.x, cell.y);
  if (rc < 0) return fail(`cannot edit (${cell.x}, ${cell.y}): ${lastError()}`);
  page.repairMs = performance.now() - start;
  page.repairs = wasm.repairs();
  drawBase();
  if (page.mode === 'rooms') buildRooms(); // a new mesh for the new walls
});

document.getElementById('mode').addEventListener('change', (event) => {
  page.mode = event.target.value;
  page.stepMs = [];
  if (page.mode === 'rooms' && page.ready && !page.rooms) buildRooms();
});

const slider = document.getElementById('enemies');
slider.addEventListener('input', () => {
  page.enemies = Number(slider.value);
  document.getElementById('count').textContent = page.enemies;
  if (page.ready) wasm.set_enemies(page.enemies);
  if (page.rooms) wasm.rooms_set_enemies(page.enemies);
});

let frames = 0;
function step() {
  if (!page.ready) return;
  const start = performance.now();
  if (page.mode === 'rooms') {
    if (!page.rooms) return;
    wasm.rooms_tick(page.point.x, page.point.y, 0.25); // a quarter cell a frame, any angle
    page.stepMs.push(performance.now() - start);
    if (page.stepMs.length > 30) page.stepMs.shift();
    return;
  }
  wasm.tick(page.player.x, page.player.y);
  page.stepMs.push(performance.now() - start);
  if (page.stepMs.length > 30) page.stepMs.shift();
  if (frames++ % 30 === 0) {
    // What one A* search per enemy would cost this frame: 200 searches, scaled.
    const sample = Math.min(200, page.enemies);
    const t = performance.now();
    wasm.astar(page.player.x, page.player.y, sample);
    page.astarMs = (performance.now() - t) * page.enemies / sample;
  }
}

function draw() {
  if (!page.ready) return;
  const pixels = new Uint32Array(frame.data.buffer);
  pixels.set(base);
  const rooms = page.mode === 'rooms' && page.rooms;
  if (!rooms) {
    const positions = new Uint32Array(wasm.memory.buffer, wasm.enemies_ptr(), 2 * page.enemies);
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
      `${page.enemies} enemies, each walking straight to its next waypoint (any angle): ` +
      `${mean.toFixed(2)} ms a frame\n` +
      `walls clicked: ${page.repairs} (the rooms are built again after each)`;
    return;
  }
  const why = page.compressed
    ? 'compressed (a dense table of this map would pass 256 MiB)'
    : 'dense (every optimal move, edited in place)';
  document.getElementById('stats').innerHTML =
    `map ${page.width}×${page.height}, table ${why}: ${(page.tableBytes / 1048576).toFixed(1)} MiB, ` +
    `built in ${page.buildMs.toFixed(0)} ms\n` +
    `${page.enemies} enemies: all their steps of a frame ${mean.toFixed(2)} ms (one batched table query)\n` +
    `<span class="why">the same steps by one A* search each: ${page.astarMs.toFixed(1)} ms ` +
    `(${(page.astarMs / Math.max(mean, 1e-3)).toFixed(0)}× the table)</span>\n` +
    `walls clicked: ${page.repairs}, the last repaired in ${page.repairMs.toFixed(1)} ms`;
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
  const positions = new Float32Array(wasm.memory.buffer, wasm.rooms_enemies_ptr(), 2 * page.enemies);
  context.fillStyle = '#ee463c';
  const size = Math.max(2, scale * 0.5);
  for (let i = 0; i < positions.length; i += 2) {
    context.fillRect(positions[i] * scale - size / 2, positions[i + 1] * scale - size / 2, size, size);
  }
  context.fillStyle = '#8cf066';
  context.fillRect(page.point.x * scale - scale / 2, page.point.y * scale - scale / 2, scale, scale);
}

function loop() {
  step();
  draw();
  requestAnimationFrame(loop);
}

async function start() {
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch('signposts_web.wasm'), {});
    wasm = instance.exports;
    // Maps listed in maps/maps.txt (one file name a line: .map files, or tables saved by
    // `signposts build` as .sp) join the generated maze in the menu.
    const list = await fetch('maps/maps.txt').then((r) => (r.ok ? r.text() : '')).catch(() => '');
    const select = document.getElementById('map');
    for (const name of list.split('\n').map((s) => s.trim()).filter(Boolean)) {
      select.add(new Option(name, name));
    }
    select.addEventListener('change', () => loadMap(select.value));
    await loadMap('');
    requestAnimationFrame(loop);
  } catch (e) {
    fail(String(e));
  }
}

start();
