// Every text from Kafka or Redis (order ids, keys, values, reasons, errors) reaches the page through textContent:
// never innerHTML, so that a record holding markup shows as the text it is.
'use strict';

const REFRESH_MS = 5000;
// the dead-letter chart reads three hours of the topic: less often than the figures
const DEAD_LETTER_CHART_MS = 30000;
const SVG = 'http://www.w3.org/2000/svg';
// orders of a silent cohort shown at a time: a cohort may have thousands
const COHORT_PAGE = 50;
let overviewTimer = null;
let deadLetterChartAt = 0;
// who the console says this tab acts as: {user, role, mayAct}; null until it knows
let session = null;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function byId(id) { return document.getElementById(id); }

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function fillRows(tableId, rows) {
  const body = byId(tableId).tBodies[0];
  clear(body);
  rows.forEach(cells => {
    const tr = document.createElement('tr');
    cells.forEach(cell => tr.appendChild(cell instanceof Node ? cell : el('td', cell)));
    body.appendChild(tr);
  });
}

function time(ms) { return ms === null || ms === undefined ? '–' : new Date(ms).toISOString(); }

function duration(ms) {
  const a = Math.abs(ms);
  let t;
  if (a < 1000) t = a + ' ms';
  else if (a < 60000) t = (a / 1000).toFixed(1) + ' s';
  else if (a < 3600000) t = Math.floor(a / 60000) + ' min';
  else if (a < 86400000) t = Math.floor(a / 3600000) + ' h';
  else t = Math.floor(a / 86400000) + ' d';
  return ms < 0 ? '-' + t : t;
}

function say(text) { byId('message').textContent = text || ''; }

function csrf() {
  const pair = document.cookie.split(';').map(c => c.trim()).find(c => c.startsWith('lapse-console-csrf='));
  return pair ? pair.substring(pair.indexOf('=') + 1) : '';
}

function post(path, body) {
  return api(path, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', 'X-Lapse-Csrf': csrf()},
    body: JSON.stringify(body),
  });
}

function fillList(id, lines) {
  const list = byId(id);
  clear(list);
  lines.forEach(line => list.appendChild(el('li', line)));
}

async function api(path, options) {
  const headers = Object.assign({}, (options && options.headers) || {});
  const token = sessionStorage.getItem('lapse-console-token');
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const response = await fetch(path, Object.assign({}, options || {}, {headers, credentials: 'same-origin'}));
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (response.status === 401) byId('token-box').hidden = false;
  return {status: response.status, ok: response.ok, body};
}

/** Asks who this tab acts as, and offers the operators' forms and buttons to operators only. */
async function startSession() {
  const result = await api('/api/session');
  if (!result.ok) { say('session: ' + failure(result)); return; }
  const s = result.body;
  session = s.user ? {user: s.user, role: s.role, mayAct: s.mayAct} : null;
  if (!byId('replay-topic').value) byId('replay-topic').value = s.expiredTopic;
  byId('token-box').hidden = session !== null || !s.tokenRequired;
  byId('who').textContent = session === null ? ''
    : session.user + ', ' + session.role + (session.mayAct ? '' : ': reads only');
  const mayAct = session !== null && session.mayAct;
  document.querySelectorAll('[data-needs=operator]').forEach(node => { node.hidden = !mayAct; });
}

function failure(result) {
  return (result.body && result.body.error) ? result.body.error : 'HTTP ' + result.status;
}

// ---- tabs: each a <section class="tab" id="NAME">, a link in the nav with data-tab="NAME", and its entry here,
// whose open(rest) loads what it shows; rest is what follows NAME/ in the address (#order/ORDER)

const TABS = {
  'overview': {open() { deadLetterChartAt = 0; refreshOverview(); rebuilds.latest(); }},
  'order': {open(id) {
    if (!id) return;
    byId('order-id').value = decodeURIComponent(id);
    inspect(byId('order-id').value);
  }},
  'cohort': {open(name) { if (name) loadCohort(decodeURIComponent(name), 0); }},
  'dead-letters': {open() { loadDeadLetters(); }},
  'replay': {open() { replays.latest(); }},
  'audit': {open() { loadAudit(); }},
};

function show(tab, rest) {
  document.querySelectorAll('section.tab').forEach(s => { s.hidden = s.id !== tab; });
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.dataset.tab === tab));
  // a page opens at its top, not where the last one was scrolled to
  window.scrollTo(0, 0);
  clearTimeout(overviewTimer);
  say('');
  TABS[tab].open(rest);
}

function route() {
  const hash = location.hash.replace(/^#/, '');
  const slash = hash.indexOf('/');
  const tab = slash < 0 ? hash : hash.substring(0, slash);
  show(TABS[tab] ? tab : 'overview', slash < 0 ? undefined : hash.substring(slash + 1));
}

// ---- overview

async function refreshOverview() {
  clearTimeout(overviewTimer);
  const charts = [refreshLatenessChart()];
  if (Date.now() - deadLetterChartAt > DEAD_LETTER_CHART_MS) charts.push(refreshDeadLetterChart());
  const result = await api('/api/status');
  if (result.ok) renderOverview(result.body); else say('status: ' + failure(result));
  await Promise.all(charts);
  if (!byId('overview').hidden) overviewTimer = setTimeout(refreshOverview, REFRESH_MS);
}

// ---- charts: SVG drawn here, from this origin (no chart library, nothing from a CDN); text only as textContent

function svgNode(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, String(value)));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

const CHART = {width: 720, height: 180, left: 64, right: 12, top: 10, bottom: 24};

/** An empty chart with its axes: x over [from, to] (ms), y over [0, top]; returns the chart and its scales. */
function chartFrame(container, title, from, to, top, yLabel) {
  clear(container);
  const svg = svgNode('svg', {viewBox: '0 0 ' + CHART.width + ' ' + CHART.height, role: 'img'});
  svg.appendChild(svgNode('title', {}, title));
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const x = t => CHART.left + (t - from) / (to - from) * plotWidth;
  const y = v => CHART.top + plotHeight - v / top * plotHeight;
  svg.appendChild(svgNode('line', {x1: CHART.left, y1: y(0), x2: CHART.left + plotWidth, y2: y(0), class: 'axis'}));
  svg.appendChild(svgNode('line', {x1: CHART.left, y1: y(0), x2: CHART.left, y2: y(top), class: 'axis'}));
  svg.appendChild(svgNode('text', {x: CHART.left - 4, y: y(top) + 4, 'text-anchor': 'end', class: 'tick'}, yLabel(top)));
  svg.appendChild(svgNode('text', {x: CHART.left - 4, y: y(0), 'text-anchor': 'end', class: 'tick'}, yLabel(0)));
  [0, 0.5, 1].forEach(share => {
    const t = from + share * (to - from);
    svg.appendChild(svgNode('text', {x: x(t), y: CHART.height - 6, 'text-anchor': share === 0 ? 'start' : share === 1 ? 'end' : 'middle',
      class: 'tick'}, share === 1 ? 'now' : '-' + duration(to - t)));
  });
  container.appendChild(svg);
  return {svg, x, y};
}

async function refreshLatenessChart() {
  const result = await api('/api/lateness');
  if (!result.ok) { byId('lateness-chart-text').textContent = 'lateness: ' + failure(result); return; }
  drawLateness(result.body);
}

function drawLateness(h) {
  const now = Date.now();
  const from = now - h.spanMillis;
  const fired = h.points.filter(p => p.fired > 0);
  const top = Math.max(100, ...fired.map(p => p.p99Millis)) * 1.1;
  const chart = chartFrame(byId('lateness-chart'), 'fire lateness p50 and p99 over the last hour', from, now, top,
    v => duration(Math.round(v)));
  ['p99', 'p50'].forEach(q => {
    // a stretch without fires is a gap, not a line drawn across it
    let path = '';
    let drawing = false;
    h.points.forEach(p => {
      if (p.fired === 0) { drawing = false; return; }
      path += (drawing ? ' L' : ' M') + chart.x(p.at).toFixed(1) + ' ' + chart.y(p[q + 'Millis']).toFixed(1);
      drawing = true;
    });
    if (path) chart.svg.appendChild(svgNode('path', {d: path.trim(), class: 'line ' + q}));
    fired.forEach(p => chart.svg.appendChild(svgNode('circle',
      {cx: chart.x(p.at).toFixed(1), cy: chart.y(p[q + 'Millis']).toFixed(1), r: 2.5, class: 'point ' + q},
      q + ' ' + duration(Math.round(p[q + 'Millis'])) + ' at ' + time(p.at))));
  });
  const total = fired.reduce((sum, p) => sum + p.fired, 0);
  const source = h.urls.length === 0 ? 'no /metrics to read (start the console with --metrics URL)'
    : 'read every ' + duration(h.intervalMillis) + ' from ' + h.urls.join(', ');
  byId('lateness-chart-text').textContent = 'p99 (dark) and p50 (light) of what the timers fired in each '
    + duration(h.intervalMillis) + ': ' + total + ' expiries fired in the ' + h.points.length + ' intervals this console'
    + ' has seen since it started (it keeps an hour, in memory); ' + source + '.';
}

async function refreshDeadLetterChart() {
  const result = await api('/api/dead-letters/over-time');
  if (!result.ok) { byId('dead-letters-chart-text').textContent = 'dead letters: ' + failure(result); return; }
  deadLetterChartAt = Date.now();
  drawDeadLetters(result.body);
}

function drawDeadLetters(c) {
  const kinds = Object.keys(c.reasons);
  const totals = Array.from({length: c.buckets}, (_, i) => kinds.reduce((sum, k) => sum + c.reasons[k][i], 0));
  const top = Math.max(1, ...totals);
  const to = c.from + c.buckets * c.bucketMillis;
  const chart = chartFrame(byId('dead-letters-chart'), 'dead letters per reason over the last 3 hours', c.from, to, top,
    v => Math.round(v));
  for (let i = 0; i < c.buckets; i++) {
    let stacked = 0;
    kinds.forEach((k, n) => {
      const count = c.reasons[k][i];
      if (count === 0) return;
      const x = chart.x(c.from + i * c.bucketMillis);
      const bar = svgNode('rect', {x: (x + 0.5).toFixed(1), y: chart.y(stacked + count).toFixed(1),
        width: Math.max(1, chart.x(c.from + (i + 1) * c.bucketMillis) - x - 1).toFixed(1),
        height: (chart.y(stacked) - chart.y(stacked + count)).toFixed(1), class: 'bar series-' + (n % 6)});
      bar.appendChild(svgNode('title', {}, count + ' × ' + k + ', ' + time(c.from + i * c.bucketMillis)));
      chart.svg.appendChild(bar);
      stacked += count;
    });
  }
  const legend = byId('dead-letters-legend');
  clear(legend);
  kinds.forEach((k, n) => {
    const item = el('li');
    item.appendChild(el('span', null, 'swatch series-' + (n % 6)));
    item.appendChild(el('span', k + ': ' + c.reasons[k].reduce((a, b) => a + b, 0)));
    legend.appendChild(item);
  });
  byId('dead-letters-chart-text').textContent = (kinds.length === 0 ? 'none in the last 3 hours. ' : '')
    + 'Counted from the dead-letter topic\'s records by when each was written, per ' + duration(c.bucketMillis)
    + '; a reason is grouped by its words before the first colon.';
}

// ---- rebuild: in the background, with its progress, then its summary

/**
 * A run the server does in the background (a replay, a rebuild): drawn from its state, which is polled while it runs.
 * draw(state) shows it; show(state) draws it and polls on; latest() asks for the one running now, or the last.
 */
function backgroundRun(path, draw) {
  let timer = null;
  const run = {
    async latest() {
      clearTimeout(timer);
      const result = await api(path);
      if (result.ok) run.show(result.body);
    },
    show(state) {
      clearTimeout(timer);
      draw(state);
      if (state.running) timer = setTimeout(run.latest, 500);
    },
  };
  return run;
}

const rebuilds = backgroundRun('/api/rebuild', drawRebuild);

async function rebuild() {
  const reason = byId('rebuild-reason').value.trim();
  if (!reason) { byId('rebuild-result').textContent = 'say why: a reason is required, for the audit'; return; }
  if (!window.confirm('Rebuild every timer in Redis from the compensator\'s state now?')) return;
  const result = await post('/api/rebuild', {reason});
  if (!result.ok) { byId('rebuild-result').textContent = 'rebuild: ' + failure(result); return; }
  rebuilds.show(result.body);
}

function drawRebuild(state) {
  if (state.running) {
    byId('rebuild-progress').textContent = 'rebuilding' + (state.progress ? ': ' + state.progress : '…');
    byId('rebuild-result').textContent = '';
    return;
  }
  byId('rebuild-progress').textContent = 'last rebuild by ' + state.user + ' (' + state.reason + ')'
    + (state.exit === 1 ? ': done, but not exact' : state.exit === 2 ? ': nothing done' : ': done');
  byId('rebuild-result').textContent = state.summary ? state.summary : 'rebuild failed: ' + state.error;
}

function renderOverview(s) {
  byId('overview-at').textContent = time(s.at);
  byId('watched').textContent = s.watched;
  byId('overdue').textContent = s.overdue;
  byId('dead-letters-count').textContent = s.deadLetters.size;
  byId('backlog').textContent = s.metrics.reached.length === 0 ? 'unknown' : s.metrics.backlog;
  const problems = byId('problems');
  clear(problems);
  if (s.problems.length === 0) problems.appendChild(el('li', 'none'));
  s.problems.forEach(p => problems.appendChild(el('li', p, 'problem')));
  byId('fleet-silence').textContent = s.fleetSilence
    ? 'since ' + time(s.fleetSilence.since) + ' (' + duration(s.at - s.fleetSilence.since) + ' ago): '
      + Math.round(s.fleetSilence.silentShare * 100) + ' % of the pushes missing; the producers stopped writing'
    : 'none';
  renderCohortSilences(s);
  const m = s.metrics;
  byId('overdue-text').textContent = s.overdue === 0 ? 'overdue: none'
    : 'overdue: ' + s.overdue + ', the oldest ' + s.oldestOverdue.orderId + ' (deadline ' + time(s.oldestOverdue.deadline)
      + ', ' + duration(s.at - s.oldestOverdue.deadline) + ' ago)';
  byId('lateness-text').textContent = m.p50Millis === null
    ? 'fire lateness: unknown (no timer reached has fired)'
    : 'fire lateness: p50 ' + duration(Math.round(m.p50Millis)) + ', p99 ' + duration(Math.round(m.p99Millis))
      + ' over ' + m.fired + ' expiries' + (m.unreachable.length ? '; not reached: ' + m.unreachable.join('; ') : '');
  byId('owners-text').textContent = 'timer shards: ' + s.timerOwners.timers + ' timers running'
    + (s.timerOwners.unserved.length ? '; shards no timer serves: ' + s.timerOwners.unserved.join(', ') : '; every shard served');
  byId('backlog-text').textContent = m.reached.length === 0 ? 'unknown: no service reached'
    : m.backlog === 0 ? 'none'
    : m.backlog + ' expiries not answered yet, ' + Math.round(m.drainRate) + '/s answered over the last minute'
      + (m.secondsToDrain === null || m.secondsToDrain === undefined ? ': not draining'
        : ': drained in about ' + duration(m.secondsToDrain * 1000));
  const d = s.deadLetters;
  byId('dead-letters-text').textContent = d.size + ', ' + d.recent + ' in the last ' + duration(s.deadLetterWindowMillis)
    + (d.newestAt ? '; newest ' + time(d.newestAt) + ': ' + d.newestReason : '');
  fillRows('lag', s.consumerLag.map(g => [g.role, g.group, g.lag === null ? 'nothing committed' : g.lag, g.partitions]));
  fillRows('watermarks', s.watermarks.map(w => [w.partition, time(w.watermark),
    duration(w.ageMillis) + (w.exists ? '' : ' (partition no longer exists)')])
    .concat(s.unreportedPartitions.map(p => [p, 'none yet', '–'])));
  fillRows('shards', s.shards.map(c => [c.shard, c.watched, c.overdue, c.epoch === null ? 'none' : c.epoch]));
}

function link(text, hash) {
  const a = el('a', text);
  a.setAttribute('href', '#' + hash);
  return a;
}

/** The silent cohorts lapse status names, each with a link to its orders. */
function renderCohortSilences(s) {
  byId('cohort-silences-text').textContent = !s.cohortOf ? 'none told (fleet.cohort-field is empty)'
    : s.cohortSilences.length === 0 ? 'none (no cohort of ' + s.cohortOf + ' went silent while the rest pushes)'
    : s.cohortSilences.length + ' of ' + s.cohortOf + ': their orders stopped pushing together while the rest of the'
      + ' fleet pushes; each fires and is pulled. Ask that cohort\'s upstream.';
  fillRows('cohort-silences', s.cohortSilences.map(c => {
    const orders = el('td');
    orders.appendChild(link('orders', 'cohort/' + encodeURIComponent(c.cohort)));
    return [c.cohort, 'about ' + c.silentOrders + ' of ' + c.orders,
      time(c.since) + ' (' + duration(s.at - c.since) + ' ago)', orders];
  }));
}

// ---- cohort: one page of a silent cohort's orders

let cohortShown = null;

async function loadCohort(name, offset) {
  byId('cohort-title').textContent = 'cohort ' + name;
  clear(byId('cohort-orders').tBodies[0]);
  ['cohort-silence', 'cohort-summary', 'cohort-more'].forEach(id => { byId(id).textContent = ''; });
  byId('cohort-summary').textContent = 'reading its orders…';
  const result = await api('/api/cohorts/' + encodeURIComponent(name) + '?offset=' + offset + '&limit=' + COHORT_PAGE);
  if (!result.ok) { byId('cohort-summary').textContent = ''; say(failure(result)); return; }
  renderCohort(result.body);
}

function renderCohort(c) {
  cohortShown = c;
  const v = c.silence;
  byId('cohort-title').textContent = 'cohort ' + c.cohort + ' (' + c.cohortOf + ')';
  byId('cohort-silence').textContent = 'silent since ' + time(v.since) + ': about ' + v.silentOrders + ' of its '
    + v.orders + ' orders went silent together while the rest of the fleet pushes';
  byId('cohort-summary').textContent = c.found + ' orders whose pushes from ' + time(c.from) + ' to ' + time(c.to)
    + ' name the cohort; ' + c.fired + ' fired since the silence began, ' + c.pulled + ' pulled.';
  fillRows('cohort-orders', c.orders.map(o => {
    const order = el('td');
    order.appendChild(link(o.orderId, 'order/' + encodeURIComponent(o.orderId)));
    return [order, o.timer, time(o.lastSeen),
      o.expiries === 0 ? 'no' : o.expiries + ', last ' + time(o.lastFiredAt),
      o.pulls === 0 ? 'no' : o.pulls + ', last ' + o.lastPull + ' ' + time(o.lastPulledAt)];
  }));
  const shownTo = c.offset + c.orders.length;
  byId('cohort-more').textContent = c.found === 0 ? 'no orders found'
    : 'orders ' + (c.orders.length === 0 ? 'none' : (c.offset + 1) + '–' + shownTo) + ' of ' + c.found
      + (c.more > 0 ? ', ' + c.more + ' more' : '');
  byId('cohort-previous').disabled = c.offset === 0;
  byId('cohort-next').disabled = c.more === 0;
}

// ---- order

async function inspect(orderId) {
  byId('order-view').hidden = true;
  byId('act-result').textContent = '';
  const result = await api('/api/orders/' + encodeURIComponent(orderId));
  if (!result.ok) { say(failure(result)); return; }
  say('');
  renderOrder(result.body);
}

function renderOrder(o) {
  byId('order-view').hidden = false;
  byId('order-title').textContent = 'order ' + o.orderId + ' (shard ' + o.shard + ')';
  fillRows('order-facts', [
    ['timer', o.phase + ', attempt ' + o.attempt],
    ['last seen', time(o.lastSeen)],
    ['due at', time(o.dueAt)],
    ['ended at', time(o.endedAt)],
    ['tombstone until', time(o.tombstoneUntil)],
    ['last status', o.lastStatus ? o.lastStatus.status + ' at ' + time(o.lastStatus.ts) + ' (' + o.lastStatus.at + ')' : 'not found'],
    ['found since ' + o.since, o.pushesFound + ' pushes, ' + o.expiriesFound + ' expiries, ' + o.pullsFound + ' pulls'],
  ].map(([k, v]) => [el('th', k), el('td', v)]));
  byId('order-held').textContent = o.held.headline;
  const reasons = byId('order-held-reasons');
  clear(reasons);
  o.held.reasons.forEach(r => reasons.appendChild(el('li', r)));
  const events = []
    .concat(o.pushes.map(e => ({t: e.timestamp, what: 'push ' + e.event.status, where: e.at, details: e.event})))
    .concat(o.expiries.map(e => ({t: e.timestamp, what: 'expiry (' + e.event.source + ', attempt ' + e.event.attempt + ')', where: e.at, details: e.event})))
    .concat(o.pulls.map(e => ({t: e.timestamp, what: 'pull result', where: e.at, details: e.event})))
    .concat(o.byHand.map(a => ({t: a.at, what: a.action + ' by ' + a.user, where: 'audit', details: a.reason})));
  events.sort((a, b) => b.t - a.t);
  fillRows('order-timeline', events.map(e => [time(e.t), e.what, e.where,
    el('td', typeof e.details === 'string' ? e.details : JSON.stringify(e.details), 'value')]));
}

async function act(action) {
  const orderId = byId('order-id').value;
  const reason = byId('act-reason').value.trim();
  if (!reason) { byId('act-result').textContent = 'say why: a reason is required, for the audit'; return; }
  const what = action === 'fire' ? 'Fire the expiry of ' : 'Stop watching ';
  if (!window.confirm(what + orderId + ' now?')) return;
  const result = await post('/api/orders/' + encodeURIComponent(orderId) + '/' + action, {reason});
  // the order shown again first: showing it clears the last result
  if (result.ok) await inspect(orderId);
  byId('act-result').textContent = result.ok
    ? action + ': ' + JSON.stringify(result.body)
    : action + ' refused: ' + (result.body && result.body.outcome ? result.body.outcome : failure(result));
}

// ---- dead letters

let deadLettersAsked = 0;

async function loadDeadLetters() {
  const params = new URLSearchParams();
  new FormData(byId('dlq-form')).forEach((v, k) => { if (String(v).trim()) params.append(k, String(v).trim()); });
  const asked = ++deadLettersAsked;
  const result = await api('/api/dead-letters?' + params.toString());
  // an earlier request answered late would show other letters than the filters say, and drop the selection
  if (asked !== deadLettersAsked) return;
  if (!result.ok) { say('dead letters: ' + failure(result)); return; }
  byId('dlq-count').textContent = result.body.length + ' dead letters shown, newest first';
  byId('dlq-all').checked = false;
  fillRows('dlq', result.body.map(l => {
    const value = el('td', null, 'value');
    value.appendChild(el('div', l.value));
    value.appendChild(el('div', l.valueHex, 'hex'));
    const pick = el('td');
    if (session !== null && session.mayAct) {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'dlq-pick';
      box.value = l.at;
      box.title = 'select ' + l.at;
      pick.appendChild(box);
    }
    return [pick, time(l.written), l.at, l.reason, l.source === null ? 'unknown' : l.source,
      l.key === null ? '(none)' : l.key, value];
  }));
  selectionChanged();
}

// ---- redrive: a dry run of exactly this selection first, then the redrive of it

let plannedRedrive = null;

function selectedLetters() {
  return Array.from(document.querySelectorAll('input.dlq-pick:checked')).map(box => box.value);
}

function selectionChanged() {
  const letters = selectedLetters();
  byId('redrive-selected').textContent = letters.length === 0 ? 'none selected' : letters.length + ' selected';
  plannedRedrive = null;
  byId('redrive').disabled = true;
  clear(byId('redrive-plan'));
  byId('redrive-result').textContent = '';
}

function redriveSummary(r) {
  const parts = [(r.dryRun ? 'dry run: would redrive ' + r.wouldPublish.length : 'redrove ' + r.published)
    + ' of ' + r.selected + ' dead letters'];
  if (r.redrivenBefore) parts.push(r.redrivenBefore + ' redriven before');
  if (r.statusSince) parts.push(r.statusSince + ' of orders with a status since');
  if (r.superseded) parts.push(r.superseded + ' superseded by newer expiries');
  if (r.refused.length) parts.push(r.refused.length + ' refused');
  if (r.unknownSource) parts.push(r.unknownSource + ' without a source');
  if (r.topicGone) parts.push(r.topicGone + ' whose topic no longer exists');
  if (r.failed) parts.push(r.failed + ' failed (first: ' + r.firstError + ')');
  return parts.join(', ');
}

async function redrive(dryRun) {
  const letters = dryRun ? selectedLetters() : plannedRedrive && plannedRedrive.letters;
  if (!letters || letters.length === 0) { byId('redrive-result').textContent = 'select the dead letters to redrive'; return; }
  const reason = byId('redrive-reason').value.trim();
  if (!dryRun && !reason) { byId('redrive-result').textContent = 'say why: a reason is required, for the audit'; return; }
  if (!dryRun && !window.confirm('Publish ' + letters.length + ' dead letters again?')) return;
  byId('redrive-result').textContent = dryRun ? 'looking…' : 'redriving…';
  const dryRunId = dryRun ? undefined : plannedRedrive.dryRunId;
  const result = await post('/api/dead-letters/redrive', {letters, dryRun, dryRunId, reason});
  if (!result.ok) { byId('redrive-result').textContent = 'redrive: ' + failure(result); return; }
  const r = result.body;
  fillList('redrive-plan', r.wouldPublish.map(line => 'would publish ' + line)
    .concat(r.refused.map(line => 'not redriven ' + line)));
  byId('redrive-result').textContent = redriveSummary(r);
  // the server runs only what a dry run showed: the run names it
  plannedRedrive = dryRun && r.wouldPublish.length > 0 ? {letters, dryRunId: r.dryRunId} : null;
  byId('redrive').disabled = plannedRedrive === null;
}

// ---- replay: a dry run of exactly this form first, then the replay, with its progress, then its summary

let plannedReplay = null;
const replays = backgroundRun('/api/replay', drawReplay);

function replayForm() {
  const form = {};
  new FormData(byId('replay-form')).forEach((v, k) => { if (String(v).trim()) form[k] = String(v).trim(); });
  return form;
}

function replaySummary(r) {
  let text = (r.dryRun ? 'dry run: ' : '') + 'replay ' + r.topic + ' from ' + r.from + ' to ' + r.to
    + (r.toTopic !== r.topic ? ' → ' + r.toTopic : '') + ': read ' + r.read + ' records';
  if (r.key) text += ', ' + (r.read - r.otherKeys) + ' of order ' + r.key;
  if (r.copiesLeftOut) text += ', ' + r.copiesLeftOut + ' copies left out';
  if (r.orders !== null && r.orders !== undefined) {
    text += '; ' + r.orders + ' orders expired' + (r.statusSince ? ', ' + r.statusSince + ' had a status since' : '');
  }
  if (r.replayedBefore) text += ', ' + r.replayedBefore + ' replayed before';
  text += '; ' + (r.dryRun ? 'would publish ' + r.selected : 'published ' + r.published)
    + (r.failed ? ', ' + r.failed + ' failed (first: ' + r.firstError + ')' : '') + ' in ' + duration(r.millis);
  return text;
}

function replayChanged() {
  plannedReplay = null;
  byId('replay-plan').hidden = true;
}

async function replayDryRun() {
  replayChanged();
  byId('replay-result').textContent = 'looking…';
  const form = replayForm();
  const result = await post('/api/replay', Object.assign({dryRun: true}, form));
  if (!result.ok) { byId('replay-result').textContent = 'replay: ' + failure(result); return; }
  const r = result.body;
  byId('replay-result').textContent = '';
  byId('replay-plan').hidden = false;
  byId('replay-plan-summary').textContent = replaySummary(r);
  fillRows('replay-partitions', Object.entries(r.perPartition).map(([partition, count]) => [partition, count]));
  fillList('replay-sample', r.wouldPublish.map(line => 'would publish ' + line)
    .concat(r.selected > r.wouldPublish.length ? ['… and ' + (r.selected - r.wouldPublish.length) + ' more'] : []));
  byId('replay-window').textContent = 'Replay reads exactly this window, fixed now: from ' + r.from + ' to ' + r.to
    + ', whenever you run it.';
  plannedReplay = r.selected > 0 ? {form, dryRunId: r.dryRunId} : null;
  byId('replay-run').disabled = plannedReplay === null;
}

async function replayRun() {
  if (!plannedReplay) return;
  const reason = byId('replay-reason').value.trim();
  if (!reason) { byId('replay-result').textContent = 'say why: a reason is required, for the audit'; return; }
  const form = plannedReplay.form;
  if (!window.confirm('Replay ' + form.topic + ' from ' + form.from + ' now?')) return;
  const result = await post('/api/replay', Object.assign({dryRun: false, dryRunId: plannedReplay.dryRunId, reason}, form));
  if (!result.ok) { byId('replay-result').textContent = 'replay: ' + failure(result); return; }
  replayChanged();
  replays.show(result.body);
}

function drawReplay(state) {
  if (state.running) {
    byId('replay-progress').textContent = 'replaying ' + state.replay + (state.progress ? ': ' + state.progress : '…');
    byId('replay-result').textContent = '';
    return;
  }
  byId('replay-progress').textContent = 'last replay by ' + state.user + ': ' + state.replay + ' (' + state.reason + ')';
  byId('replay-result').textContent = state.report ? replaySummary(state.report) : 'replay failed: ' + state.error;
}

// ---- audit

async function loadAudit() {
  const result = await api('/api/audit?limit=200');
  if (!result.ok) { say('audit: ' + failure(result)); return; }
  fillRows('audit-log', result.body.map(a => [time(a.at), a.user, a.action, a.orderId, a.reason]));
}

// ---- start

document.addEventListener('DOMContentLoaded', async () => {
  byId('token').value = sessionStorage.getItem('lapse-console-token') || '';
  byId('token-save').addEventListener('click', async () => {
    sessionStorage.setItem('lapse-console-token', byId('token').value.trim());
    await startSession();
    route();
  });
  byId('order-form').addEventListener('submit', e => {
    e.preventDefault();
    location.hash = 'order/' + encodeURIComponent(byId('order-id').value.trim());
  });
  byId('dlq-form').addEventListener('submit', e => { e.preventDefault(); loadDeadLetters(); });
  byId('dlq').addEventListener('change', e => { if (e.target.classList.contains('dlq-pick')) selectionChanged(); });
  byId('dlq-all').addEventListener('change', () => {
    document.querySelectorAll('input.dlq-pick').forEach(box => { box.checked = byId('dlq-all').checked; });
    selectionChanged();
  });
  byId('redrive-dry-run').addEventListener('click', () => redrive(true));
  byId('redrive').addEventListener('click', () => redrive(false));
  byId('replay-form').addEventListener('submit', e => { e.preventDefault(); replayDryRun(); });
  byId('replay-form').addEventListener('input', replayChanged);
  byId('replay-run').addEventListener('click', replayRun);
  byId('fire').addEventListener('click', () => act('fire'));
  byId('cancel').addEventListener('click', () => act('cancel'));
  byId('rebuild').addEventListener('click', rebuild);
  byId('cohort-previous').addEventListener('click',
    () => cohortShown && loadCohort(cohortShown.cohort, Math.max(0, cohortShown.offset - COHORT_PAGE)));
  byId('cohort-next').addEventListener('click',
    () => cohortShown && loadCohort(cohortShown.cohort, cohortShown.offset + cohortShown.orders.length));
  window.addEventListener('hashchange', route);
  // the tab clicked again is shown again from its top: the browser would only scroll to the section of that name
  document.querySelectorAll('nav a').forEach(a => a.addEventListener('click', e => {
    if (location.hash === '#' + a.dataset.tab) { e.preventDefault(); route(); }
  }));
  await startSession();
  route();
});
