// nwpcube's page: a tile map of the domain, a field at an hour over it, and a place's
// meteogram and days on a click. Everything comes from this server; nothing else is asked.
"use strict";

const TILE = 256;
const MIN_ZOOM = 2;
const MAX_ZOOM = 12;
// A key in the page's own URL (`/?apikey=…`) is passed on to every API request, so the
// page works on a server started with --keys.
const apiKey = new URLSearchParams(location.search).get("apikey");

const $ = (id) => document.getElementById(id);
const map = $("map");
const metricPicker = $("metric");
const slider = $("time");

const view = { zoom: 5, x: 0, y: 0 }; // the centre in world pixels at `zoom`
let times = []; // the store's whole UTC hours, in ms
let domainList = []; // /v1/domains' answer: each domain's extent, and a moving nest's positions
let place = null; // the clicked point, {latitude, longitude}

function api(path, parameters = {}) {
  const query = new URLSearchParams(parameters);
  if (apiKey) query.set("apikey", apiKey);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

// Web Mercator: longitude and latitude to world pixels at `zoom`, and back.
function project(latitude, longitude, zoom) {
  const size = TILE * 2 ** zoom;
  const sine = Math.sin((Math.max(-85.0511, Math.min(85.0511, latitude)) * Math.PI) / 180);
  return {
    x: ((longitude + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sine) / (1 - sine)) / (4 * Math.PI)) * size,
  };
}

function unproject(x, y, zoom) {
  const size = TILE * 2 ** zoom;
  const n = Math.PI * (1 - (2 * y) / size);
  return { latitude: (Math.atan(Math.sinh(n)) * 180) / Math.PI, longitude: (x / size) * 360 - 180 };
}

// "2026-06-20T12:00Z", the tile routes' time.
function hourText(ms) {
  return new Date(ms).toISOString().slice(0, 13) + ":00Z";
}

function selectedTime() {
  return times.length ? hourText(times[Number(slider.value)]) : null;
}

// Places one layer's tiles for the view, reusing the images already there.
function drawLayer(layer, urlOf) {
  const width = map.clientWidth;
  const height = map.clientHeight;
  const left = view.x - width / 2;
  const top = view.y - height / 2;
  const count = 2 ** view.zoom;
  const wanted = new Map();
  for (let ty = Math.max(0, Math.floor(top / TILE)); ty <= Math.min(count - 1, Math.floor((top + height) / TILE)); ty++) {
    for (let tx = Math.floor(left / TILE); tx <= Math.floor((left + width) / TILE); tx++) {
      wanted.set(`${view.zoom}/${tx}/${ty}`, { tx, ty, x: ((tx % count) + count) % count });
    }
  }
  for (const image of [...layer.children]) {
    if (!wanted.has(image.dataset.key)) image.remove();
  }
  const present = new Map([...layer.children].map((image) => [image.dataset.key, image]));
  for (const [key, tile] of wanted) {
    let image = present.get(key);
    if (!image) {
      image = document.createElement("img");
      image.alt = "";
      image.draggable = false;
      image.dataset.key = key;
      layer.append(image);
    }
    image.style.transform = `translate(${Math.round(tile.tx * TILE - left)}px, ${Math.round(tile.ty * TILE - top)}px)`;
    const url = urlOf(view.zoom, tile.x, tile.ty);
    if (image.getAttribute("src") !== url) image.src = url;
  }
}

// Where a domain is at `ms`: a moving nest's position at the step holding the time (the
// latest of its times not after `ms`, the first before the run), as /v1/domains?time= gives it.
function extentAt(domain, ms) {
  if (!domain.positions) return domain;
  let at = null;
  let atTime = -Infinity;
  let first = null;
  let firstTime = Infinity;
  for (const position of domain.positions) {
    for (const text of position.times) {
      const t = Date.parse(text);
      if (t <= ms && t > atTime) [at, atTime] = [position, t];
      if (t < firstTime) [first, firstTime] = [position, t];
    }
  }
  return at ?? first;
}

// Each domain's outline (the extent of its cell centres) at the time shown: a moving nest's
// follows it.
function drawOutlines() {
  if (!times.length) return;
  const layer = $("outlines");
  const ms = times[Number(slider.value)];
  for (const domain of domainList) {
    let box = [...layer.children].find((child) => child.dataset.domain === domain.model_domain);
    if (!box) {
      box = document.createElement("div");
      box.className = domain.positions ? "outline moving" : "outline";
      box.dataset.domain = domain.model_domain;
      layer.append(box);
    }
    const extent = extentAt(domain, ms);
    const corner = project(extent.north, extent.west, view.zoom);
    const opposite = project(extent.south, extent.east, view.zoom);
    box.style.left = `${corner.x - view.x + map.clientWidth / 2}px`;
    box.style.top = `${corner.y - view.y + map.clientHeight / 2}px`;
    box.style.width = `${opposite.x - corner.x}px`;
    box.style.height = `${opposite.y - corner.y}px`;
  }
}

function draw() {
  const time = selectedTime();
  if (!time) return;
  const metric = metricPicker.value;
  drawLayer($("base"), (z, x, y) => api(`/v1/tiles/land/${time}/${z}/${x}/${y}.png`));
  drawLayer($("overlay"), (z, x, y) => api(`/v1/tiles/${metric}/${time}/${z}/${x}/${y}.png`));
  drawOutlines();
  const marker = $("marker");
  marker.hidden = !place;
  if (place) {
    const point = project(place.latitude, place.longitude, view.zoom);
    marker.style.left = `${point.x - view.x + map.clientWidth / 2}px`;
    marker.style.top = `${point.y - view.y + map.clientHeight / 2}px`;
  }
}

let drawPending = false;
function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    draw();
  });
}

// Zooms to `zoom`, keeping the world point under map pixel (px, py) where it is.
function zoomTo(zoom, px = map.clientWidth / 2, py = map.clientHeight / 2) {
  zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom));
  if (zoom === view.zoom) return;
  const scale = 2 ** (zoom - view.zoom);
  const dx = px - map.clientWidth / 2;
  const dy = py - map.clientHeight / 2;
  view.x = (view.x + dx) * scale - dx;
  view.y = (view.y + dy) * scale - dy;
  view.zoom = zoom;
  scheduleDraw();
}

function panBy(dx, dy) {
  view.x += dx;
  view.y += dy;
  scheduleDraw();
}

// The largest zoom at which the domains' bounds fit the map, centred on them.
function fit(bounds) {
  for (let zoom = MAX_ZOOM; zoom >= MIN_ZOOM; zoom--) {
    const corner1 = project(bounds.north, bounds.west, zoom);
    const corner2 = project(bounds.south, bounds.east, zoom);
    if (corner2.x - corner1.x <= map.clientWidth - 24 && corner2.y - corner1.y <= map.clientHeight - 24 || zoom === MIN_ZOOM) {
      Object.assign(view, { zoom, x: (corner1.x + corner2.x) / 2, y: (corner1.y + corner2.y) / 2 });
      return;
    }
  }
}

function pointAt(px, py) {
  return unproject(view.x + px - map.clientWidth / 2, view.y + py - map.clientHeight / 2, view.zoom);
}

// Dragging pans; a press that barely moves is a click on the place under it.
let drag = null;
map.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || event.target.closest("button")) return;
  drag = { x: event.clientX, y: event.clientY, moved: 0 };
  map.setPointerCapture(event.pointerId);
});
map.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  drag = { x: event.clientX, y: event.clientY, moved: drag.moved + Math.abs(dx) + Math.abs(dy) };
  panBy(-dx, -dy);
});
map.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const click = drag.moved < 5;
  drag = null;
  if (click) {
    const box = map.getBoundingClientRect();
    choose(pointAt(event.clientX - box.left, event.clientY - box.top));
  }
});
map.addEventListener("pointercancel", () => (drag = null));

let wheelAt = 0;
map.addEventListener("wheel", (event) => {
  event.preventDefault();
  // One zoom step per gesture burst, however many events a trackpad sends.
  if (event.timeStamp - wheelAt < 250 || event.deltaY === 0) return;
  wheelAt = event.timeStamp;
  const box = map.getBoundingClientRect();
  zoomTo(view.zoom + (event.deltaY < 0 ? 1 : -1), event.clientX - box.left, event.clientY - box.top);
}, { passive: false });

map.addEventListener("keydown", (event) => {
  const step = 96;
  const actions = {
    ArrowLeft: () => panBy(-step, 0), ArrowRight: () => panBy(step, 0),
    ArrowUp: () => panBy(0, -step), ArrowDown: () => panBy(0, step),
    "+": () => zoomTo(view.zoom + 1), "=": () => zoomTo(view.zoom + 1), "-": () => zoomTo(view.zoom - 1),
    Enter: () => choose(pointAt(map.clientWidth / 2, map.clientHeight / 2)),
  };
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});
$("zoom-in").addEventListener("click", () => zoomTo(view.zoom + 1));
$("zoom-out").addEventListener("click", () => zoomTo(view.zoom - 1));
window.addEventListener("resize", scheduleDraw);
$("controls").addEventListener("submit", (event) => event.preventDefault()); // nothing to send

function showTime() {
  const time = times[Number(slider.value)];
  const text = new Date(time).toUTCString().replace(/:00 GMT$/, " UTC").replace(/ \d{4}/, "");
  $("time-label").value = text;
  slider.setAttribute("aria-valuetext", text);
}

// While the slider moves only its label follows; the tiles follow once it rests a moment.
let timeTimer = 0;
slider.addEventListener("input", () => {
  showTime();
  drawOutlines();
  clearTimeout(timeTimer);
  timeTimer = setTimeout(scheduleDraw, 150);
});
metricPicker.addEventListener("change", () => {
  showLegend();
  scheduleDraw();
});

function showLegend() {
  const legend = $("legend");
  legend.src = api(`/v1/legend/${metricPicker.value}.svg`);
  legend.alt = `Colour scale: ${metricPicker.selectedOptions[0].text}`;
}

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function json(url) {
  const response = await fetch(url);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body && (body.reason || body.error?.message)) || `${response.status} ${response.statusText}`);
  return body;
}

// WMO 4677 codes as /v1/forecast gives them, in words.
const weatherWords = {
  0: "Clear", 1: "Mainly clear", 2: "Partly cloudy", 3: "Overcast", 45: "Fog", 48: "Rime fog",
  51: "Light drizzle", 53: "Drizzle", 55: "Dense drizzle", 56: "Freezing drizzle", 57: "Freezing drizzle",
  61: "Light rain", 63: "Rain", 65: "Heavy rain", 66: "Freezing rain", 67: "Freezing rain",
  71: "Light snow", 73: "Snow", 75: "Heavy snow", 77: "Snow grains", 80: "Light showers", 81: "Showers",
  82: "Violent showers", 85: "Snow showers", 86: "Heavy snow showers", 95: "Thunderstorm",
  96: "Thunderstorm, hail", 99: "Thunderstorm, heavy hail",
};

function cell(row, text) {
  row.insertCell().textContent = text;
}

const names = ["weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum"];

// The days from today, or, when the store's runs are all past or all to come, their own
// days, so that an archived run shows its days too.
function storeDays() {
  const first = times[0];
  const last = times[times.length - 1];
  if (Date.now() >= first && Date.now() <= last) return {};
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  return { start_date: day(first), end_date: day(Math.min(last, first + 6 * 86400000)) };
}

// The place's meteogram and its days, once the forecast says the place is in a domain.
async function choose(point) {
  if (!times.length) return; // the map is not shown
  place = { latitude: Number(point.latitude.toFixed(4)), longitude: Number(point.longitude.toFixed(4)) };
  scheduleDraw();
  const where = `${Math.abs(place.latitude).toFixed(3)}° ${place.latitude < 0 ? "S" : "N"}, `
    + `${Math.abs(place.longitude).toFixed(3)}° ${place.longitude < 0 ? "W" : "E"}`;
  status(`Forecast for ${where}…`);
  $("place").hidden = true;
  const chosen = place;
  const days = storeDays();
  let forecast;
  try {
    forecast = await json(api("/v1/forecast", {
      ...chosen, daily: names.join(","), timezone: "auto", ...days,
    }));
  } catch (error) {
    if (chosen === place) status(`No forecast for ${where}: ${error.message}`, true);
    return;
  }
  if (chosen !== place) return;
  status("");
  $("place-title").textContent = `${where} (${forecast.timezone})`;
  const meteogram = $("meteogram");
  meteogram.alt = `Meteogram for ${where}: temperature, precipitation, wind and cloud over three days`;
  // The same first day as the table's: today, or an archived store's own first day.
  const start = days.start_date ? { start_date: days.start_date } : {};
  meteogram.src = api("/v1/meteogram.svg", { ...chosen, days: 3, timezone: "auto", ...start });
  // An image that fails says nothing of why; the route's JSON error does.
  meteogram.onerror = () => json(meteogram.src).catch((error) => {
    if (chosen === place) $("meteogram-caption").textContent = `No meteogram: ${error.message}`;
  });
  $("meteogram-caption").textContent = `Local time, ${forecast.timezone}; model cell at `
    + `${forecast.cell?.latitude ?? forecast.latitude}, ${forecast.cell?.longitude ?? forecast.longitude}.`;
  const daily = forecast.daily;
  const units = forecast.daily_units;
  const body = $("days").tBodies[0];
  body.replaceChildren();
  daily.time.forEach((day, index) => {
    // A day the runs cover only in part has some values missing: left out, not half shown.
    if (names.some((name) => daily[name][index] === null)) return;
    const row = body.insertRow();
    const date = new Date(`${day}T12:00Z`);
    cell(row, date.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }));
    cell(row, weatherWords[daily.weather_code[index]] ?? `code ${daily.weather_code[index]}`);
    for (const name of names.slice(1)) cell(row, `${daily[name][index].toFixed(1)} ${units[name]}`);
  });
  $("place").hidden = false;
}

async function start() {
  try {
    const [runs, domains] = await Promise.all([json(api("/v1/runs")), json(api("/v1/domains"))]);
    const hours = new Set();
    for (const run of runs.runs) {
      if (!run.first) continue; // a run the store cannot read
      const step = run.step_seconds * 1000;
      for (let t = Date.parse(run.first); t <= Date.parse(run.last); t += step) {
        if (t % 3600000 === 0) hours.add(t);
      }
    }
    times = [...hours].sort((a, b) => a - b);
    if (!times.length || !domains.domains.length) throw new Error("the store holds no readable run yet");
    domainList = domains.domains;
    const now = Date.now();
    const first = times.findIndex((t) => t >= now - 3600000);
    slider.max = String(times.length - 1);
    slider.value = String(first >= 0 ? first : 0);
    slider.disabled = false;
    showTime();
    const bounds = domains.domains.reduce((all, d) => ({
      south: Math.min(all.south, d.south), west: Math.min(all.west, d.west),
      north: Math.max(all.north, d.north), east: Math.max(all.east, d.east),
    }));
    map.setAttribute("aria-label", "Map of the model domain " + domains.domains.map((d) => d.model_domain).join(", "));
    fit(bounds);
    showLegend();
    draw();
  } catch (error) {
    status(`The map cannot be shown: ${error.message}`, true);
  }
}

start();
