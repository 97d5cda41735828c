// The playground page: create a game, play it hot seat against the server's bots, watch it as a
// spectator. A client of the public API only (api.js); the page keeps nothing the API does not
// give it, except the seat tokens (this tab's sessionStorage) and the views it has already seen.
// The history slider shows those, and asks the server (`stateAt`) for the versions it did not
// see, with the same seat's token: hidden information stays per seat (ALL-4).

import { ApiError, followGame, graphql, newKey, setLanguage } from "./api.js";
import { drawBoard, seatColour, targetOf } from "./boards.js";

const CATALOG = "{ catalog { kind title players { min max } cards } }";
const CREATE = `mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id } seats { seat token } }
}`;
const GAME = `query Game($id: ID!) {
  game(id: $id) {
    id kind version status players toAct viewer state
    legalMoves { move label labelMessage { text } }
    scores { final winners entries { seat points typedBreakdown { source points } detailMessages { text } } }
    history { version seat labelMessage { text } forced }
    takebacks takebackRequest { seat toVersion waitingFor }
  }
}`;
const MOVE = `mutation Move($input: ApplyMoveInput!) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { game { version } }
    ... on MoveRejected { code localizedMessage { text } reason rule currentVersion }
  }
}`;
const ASK_TAKEBACK = `mutation Ask($id: ID!, $version: Int, $key: String) {
  requestTakeback(gameId: $id, expectedVersion: $version, idempotencyKey: $key) {
    __typename ... on MoveRejected { code message currentVersion }
  }
}`;
const ANSWER_TAKEBACK = `mutation Answer($id: ID!, $accept: Boolean!, $version: Int, $key: String) {
  answerTakeback(gameId: $id, accept: $accept, expectedVersion: $version, idempotencyKey: $key) {
    __typename ... on MoveRejected { code message currentVersion }
  }
}`;
const STATE_AT = `query StateAt($id: ID!, $version: Int!) {
  game(id: $id) { stateAt(version: $version) }
}`;
const STRATEGIES = ["RANDOM", "GREEDY", "SEARCH"];

const $ = (selector) => document.querySelector(selector);
const catalog = new Map();

const table = {
  id: null,
  tokens: {}, // seat -> token, for the seats this tab created
  bots: {}, // seat -> strategy
  viewer: null, // a seat number, or null for the spectator
  latest: null, // the newest game as the viewer sees it
  views: new Map(), // "viewer@version" -> the game as that viewer saw it then
  asked: new Set(), // "viewer@version" keys whose past state is being fetched
  shown: null, // the version on the board; null: follow the newest
  stop: null, // stops the event stream
  refocus: false, // after a move, the next decision gets the focus (keyboard play)
};

function humanSeats(players) {
  return [...Array(players).keys()].filter((seat) => table.tokens[seat]);
}

function viewKey(viewer, version) {
  return `${viewer ?? "spectator"}@${version}`;
}

function setBusy(busy) {
  document.body.dataset.busy = busy ? "1" : "0";
}

function showRefusal(code, message, extra = "") {
  const box = $("#refusal");
  box.hidden = false;
  box.replaceChildren();
  const strong = document.createElement("strong");
  strong.textContent = code;
  box.append(strong, `: ${message}${extra}`);
  box.dataset.code = code;
}

function clearRefusal() {
  $("#refusal").hidden = true;
  delete $("#refusal").dataset.code;
}

// ---- the lobby -------------------------------------------------------------------------------

function fillPlayers() {
  const info = catalog.get($("#kind").value);
  const players = $("#players");
  const chosen = Number(players.value) || info.players.min;
  players.replaceChildren();
  for (let n = info.players.min; n <= info.players.max; n++) {
    players.append(new Option(String(n), String(n), false, n === chosen));
  }
  fillSeats();
}

function fillSeats() {
  const fieldset = $("#seat-kinds");
  fieldset.querySelectorAll("label").forEach((label) => label.remove());
  for (let seat = 0; seat < Number($("#players").value); seat++) {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.name = `seat-${seat}`;
    select.id = `seat-${seat}`;
    select.append(new Option("human", "HUMAN"));
    for (const strategy of STRATEGIES) select.append(new Option(`bot: ${strategy.toLowerCase()}`, strategy));
    if (seat > 0) select.value = "GREEDY";
    label.append(`Seat ${seat} `, select);
    fieldset.append(label);
  }
}

async function createGame(event) {
  event.preventDefault();
  clearRefusal();
  const players = Number($("#players").value);
  const bots = [];
  for (let seat = 0; seat < players; seat++) {
    const strategy = $(`#seat-${seat}`).value;
    if (strategy !== "HUMAN") bots.push({ seat, strategy });
  }
  const input = { kind: $("#kind").value, players, bots, takebacks: $("#takebacks").value };
  if ($("#seed").value.trim()) input.seed = $("#seed").value.trim();
  setBusy(true);
  try {
    const created = (await graphql(CREATE, { input }, null, $("#api-key").value.trim())).createGame;
    const tokens = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
    const botSeats = Object.fromEntries(bots.map((b) => [b.seat, b.strategy]));
    sessionStorage.setItem(`play:${created.game.id}`, JSON.stringify({ tokens, bots: botSeats }));
    location.hash = `game=${encodeURIComponent(created.game.id)}`;
  } catch (error) {
    $("#lobby").prepend($("#refusal"));
    showRefusal(error.code ?? "ERROR", error.message);
  } finally {
    setBusy(false);
  }
}

// ---- following a game ------------------------------------------------------------------------

let loading = null;
let loadAgain = false;

// One load at a time; news that arrive meanwhile ask for one more.
function refresh() {
  if (loading) {
    loadAgain = true;
    return loading;
  }
  loading = (async () => {
    setBusy(true);
    try {
      do {
        loadAgain = false;
        await load();
      } while (loadAgain);
    } catch (error) {
      showRefusal(error.code ?? "ERROR", error.message);
    } finally {
      loading = null;
      setBusy(false);
    }
  })();
  return loading;
}

async function load() {
  let game = (await graphql(GAME, { id: table.id }, table.tokens[table.viewer])).game;
  if (game === null) throw new ApiError("NOT_FOUND", "no game with this id (finished games expire)");
  const due = game.toAct.find((seat) => table.tokens[seat]);
  if ($("#follow").checked && due !== undefined && due !== table.viewer) {
    table.viewer = due; // hot seat: the board turns to the human seat that owes a decision
    game = (await graphql(GAME, { id: table.id }, table.tokens[due])).game;
  }
  table.views.set(viewKey(table.viewer, game.version), game);
  if (!table.latest || game.version >= table.latest.version || game.viewer !== table.latest.viewer) {
    table.latest = game;
  }
  render();
}

function listen() {
  table.stop?.();
  const id = table.id;
  table.stop = followGame(
    id,
    (event) => {
      if (!table.latest || event.version > table.latest.version) refresh();
    },
    (reason) => {
      if (table.id !== id || table.latest?.status === "FINISHED" || reason === "complete") return;
      $("#status").dataset.live = "reconnecting";
      setTimeout(() => table.id === id && listen(), 2000); // the socket dropped: follow again
    },
  );
}

function openGame(id, spectator) {
  table.stop?.();
  const saved = spectator ? null : JSON.parse(sessionStorage.getItem(`play:${id}`) ?? "null");
  Object.assign(table, {
    id,
    tokens: saved?.tokens ?? {},
    bots: saved?.bots ?? {},
    latest: null,
    views: new Map(),
    asked: new Set(),
    shown: null,
  });
  table.viewer = Object.keys(table.tokens).length ? Number(Object.keys(table.tokens)[0]) : null;
  $("#follow").checked = Object.keys(table.tokens).length > 0;
  $("#lobby").hidden = true;
  $("#table").hidden = false;
  $("#table").prepend($("#refusal"));
  clearRefusal();
  const link = $("#spectate-link");
  link.href = `#game=${encodeURIComponent(id)}&as=spectator`;
  link.textContent = `${location.origin}${location.pathname}${link.getAttribute("href")}`;
  listen();
  refresh();
}

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("game");
  if (id) {
    openGame(id, params.get("as") === "spectator");
  } else {
    table.stop?.();
    table.id = null;
    $("#lobby").hidden = false;
    $("#table").hidden = true;
  }
}

// ---- playing ---------------------------------------------------------------------------------

async function send(move) {
  clearRefusal();
  table.refocus = true;
  const game = table.latest;
  setBusy(true);
  try {
    const input = { gameId: game.id, move, expectedVersion: game.version, idempotencyKey: newKey() };
    const result = (await graphql(MOVE, { input }, table.tokens[game.viewer])).applyMove;
    if (result.__typename === "MoveRejected") {
      const why = result.reason ? ` (${result.reason}${result.rule ? `, ${result.rule}` : ""})` : "";
      showRefusal(result.code, result.localizedMessage.text, why);
    }
  } catch (error) {
    showRefusal(error.code ?? "ERROR", error.message);
  } finally {
    setBusy(false);
  }
  await refresh();
}

// Takebacks (docs/api.md, section 13): ask as the seat shown; answer a request waiting for it.
async function takeback(query, name, extra = {}) {
  clearRefusal();
  const game = table.latest;
  setBusy(true);
  try {
    const variables = { id: game.id, version: game.version, key: newKey(), ...extra };
    const result = (await graphql(query, variables, table.tokens[game.viewer]))[name];
    if (result.__typename === "MoveRejected") showRefusal(result.code, result.message);
  } catch (error) {
    showRefusal(error.code ?? "ERROR", error.message);
  } finally {
    setBusy(false);
  }
  await refresh();
}

function renderTakeback(game, live) {
  const request = game.takebackRequest;
  const seat = game.viewer;
  $("#takeback").hidden = !live || game.takebacks === "NONE" || game.status !== "ACTIVE" || seat === null;
  $("#ask-takeback").hidden = request !== null;
  $("#takeback-request").hidden = request === null;
  const answering = request !== null && request.waitingFor.includes(seat);
  $("#accept-takeback").hidden = !answering;
  $("#decline-takeback").hidden = !answering;
  if (request) {
    const waiting = request.waitingFor.map((s) => `seat ${s}`).join(", ");
    $("#takeback-request").textContent = `Seat ${request.seat} asks to go back to version ${request.toVersion}; waiting for ${waiting}.`;
  }
}

function choose(key, moves) {
  const here = moves.filter((m) => targetOf(m.move) === key);
  if (here.length === 1) {
    send(here[0].move);
    return;
  }
  document.querySelectorAll("[data-target].chosen").forEach((n) => n.classList.remove("chosen"));
  document.querySelectorAll(`[data-target="${key}"]`).forEach((n) => n.classList.add("chosen"));
  $("#moves-note").textContent = `${here.length} moves here: pick one from the list.`;
  let first = null;
  document.querySelectorAll("#moves li").forEach((li) => {
    const match = targetOf(moves[Number(li.dataset.index)].move) === key;
    li.classList.toggle("dimmed", !match);
    if (match && !first) first = li.querySelector("button");
  });
  first?.focus();
}

// ---- drawing ---------------------------------------------------------------------------------

function render() {
  const focused = focusedSelector();
  const latest = table.latest;
  const live = table.shown === null || table.shown >= latest.version;
  const game = live ? latest : table.views.get(viewKey(table.viewer, table.shown));
  const info = catalog.get(latest.kind);
  document.body.dataset.version = String(latest.version);
  document.body.dataset.status = latest.status;
  document.body.dataset.viewer = latest.viewer === null ? "spectator" : String(latest.viewer);
  $("#game-title").textContent = `${info.title}, ${latest.players} players · game ${latest.id}`;
  const who = latest.viewer === null ? "a spectator (public view)" : `seat ${latest.viewer}`;
  const turn = latest.status === "FINISHED" ? "finished" : `to act: ${latest.toAct.map((s) => `seat ${s}`).join(", ")}`;
  $("#status").textContent = `Version ${latest.version} · ${turn} · seen as ${who}`;
  $("#status").dataset.toAct = latest.toAct.join(",");

  renderSeats(latest);
  const slider = $("#slider");
  slider.max = String(latest.version);
  slider.value = String(live ? latest.version : table.shown);
  $("#shown-version").textContent = live ? `${latest.version} (now)` : `${table.shown} of ${latest.version}`;
  $("#past").hidden = live;
  if (!live) {
    const how = game?.replayed ? "as the server replays it for" : "as";
    $("#past").textContent = game
      ? `Version ${table.shown}, read only: ${how} ${who}. Move the slider to the end to play.`
      : `Version ${table.shown}: asking the server for it as ${who}…`;
    if (!game) askPast(table.viewer, table.shown);
  }

  const moves = live && game.legalMoves ? game.legalMoves : [];
  renderBoard(game, info, moves);
  renderMoves(moves, live, latest);
  renderTakeback(latest, live);
  renderScores(game?.scores ? game : latest); // a replayed past state comes without its scores
  renderHistory(latest, live ? latest.version : table.shown);
  renderTokens(latest);
  // Drawing replaced the focused element: keyboard play continues where it was, or after a
  // move at the next decision.
  if ((table.refocus || focused) && moves.length) {
    table.refocus = false;
    const same = focused && document.querySelector(focused);
    (same || $("#board .target") || $("#moves button")).focus();
  }
}

// A version this page did not see as this viewer: the server replays it (`stateAt`) for the
// same token, so it never shows more than that seat could see then (ALL-4). Only the state
// comes back: no moves, and the scores table keeps showing the newest scores.
function askPast(viewer, version) {
  const key = viewKey(viewer, version);
  if (table.asked.has(key)) return;
  table.asked.add(key);
  const id = table.id;
  graphql(STATE_AT, { id, version }, table.tokens[viewer])
    .then((data) => {
      if (table.id !== id || !data.game) return;
      const past = { ...table.latest, version, state: data.game.stateAt, legalMoves: [] };
      table.views.set(key, { ...past, scores: null, replayed: true });
      render();
    })
    .catch((error) => showRefusal(error.code ?? "ERROR", String(error.message)))
    .finally(() => table.asked.delete(key));
}

// A selector for the focused place or move, when the focus is on the board or the move list.
function focusedSelector() {
  const active = document.activeElement;
  if (!active?.closest?.("#board, #moves")) return null;
  if (active.dataset.target) return `#board [data-target="${active.dataset.target}"].target`;
  const item = active.closest("li");
  return item ? `#moves li:nth-child(${[...item.parentNode.children].indexOf(item) + 1}) button` : null;
}

function renderSeats(game) {
  const nav = $("#seats");
  nav.replaceChildren();
  const button = (label, viewer, enabled) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.viewer = viewer === null ? "spectator" : String(viewer);
    b.setAttribute("aria-pressed", String(game.viewer === viewer));
    b.disabled = !enabled;
    b.addEventListener("click", () => {
      $("#follow").checked = false; // the reader chose: stop turning the board
      table.viewer = viewer;
      table.shown = null;
      refresh();
    });
    nav.append(b);
  };
  for (let seat = 0; seat < game.players; seat++) {
    const bot = table.bots[seat];
    const acting = game.toAct.includes(seat) ? " (to act)" : "";
    button(bot ? `Seat ${seat}: ${bot.toLowerCase()} bot${acting}` : `Seat ${seat}${acting}`, seat, Boolean(table.tokens[seat]));
  }
  button("Spectator", null, true);
}

function renderBoard(game, info, moves) {
  const holder = $("#board");
  const list = $("#board-text ul");
  list.replaceChildren();
  if (!game) {
    holder.replaceChildren();
    return;
  }
  const { svg, lines } = drawBoard(game.kind, game.state, info);
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    list.append(li);
  }
  const targets = new Map();
  for (const move of moves) {
    const key = targetOf(move.move);
    if (key) targets.set(key, [...(targets.get(key) ?? []), move.labelMessage.text]);
  }
  svg.querySelectorAll("[data-target]").forEach((node) => {
    const labels = targets.get(node.dataset.target);
    if (!labels) return;
    node.classList.add("target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", labels.join(" / "));
    node.addEventListener("click", () => choose(node.dataset.target, moves));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        choose(node.dataset.target, moves);
      }
    });
  });
  holder.replaceChildren(svg);
}

function renderMoves(moves, live, latest) {
  const list = $("#moves");
  list.replaceChildren();
  $("#moves-note").textContent = !live
    ? "Reading the past: no moves."
    : latest.status === "FINISHED"
      ? "The game is over."
      : moves.length
        ? "Click a move, or a highlighted place on the board (Tab, then Enter)."
        : latest.viewer === null
          ? "Spectators see no moves."
          : "Not this seat's turn: waiting for the others.";
  moves.forEach((move, index) => {
    const li = document.createElement("li");
    li.dataset.index = String(index);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.labelMessage.text;
    button.dataset.move = JSON.stringify(move.move);
    button.addEventListener("click", () => send(move.move));
    li.append(button);
    list.append(li);
  });
}

function renderScores(game) {
  const body = $("#scores tbody");
  body.replaceChildren();
  for (const entry of game.scores.entries) {
    const row = document.createElement("tr");
    row.dataset.seat = String(entry.seat);
    if (game.scores.winners.includes(entry.seat)) row.classList.add("winner");
    const seat = document.createElement("td");
    seat.textContent = `seat ${entry.seat}`;
    seat.style.color = seatColour(entry.seat);
    const points = document.createElement("td");
    points.className = "points";
    points.textContent = String(entry.points);
    const breakdown = document.createElement("td");
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `${entry.typedBreakdown.length} items`;
    const items = document.createElement("ul");
    entry.typedBreakdown.forEach((item, index) => {
      const li = document.createElement("li");
      li.textContent = `${item.source} ${item.points}: ${entry.detailMessages[index].text}`;
      items.append(li);
    });
    details.append(summary, items);
    breakdown.append(details);
    row.append(seat, points, breakdown);
    body.append(row);
  }
  $("#scores").dataset.final = String(game.scores.final);
}

function renderHistory(game, upTo) {
  const list = $("#history");
  list.replaceChildren();
  for (const entry of [...game.history].reverse()) {
    const li = document.createElement("li");
    li.value = entry.version;
    const seat = entry.seat === null ? "" : `seat ${entry.seat} `;
    li.textContent = `v${entry.version} ${seat}${entry.labelMessage.text}${entry.forced ? " (forced)" : ""}`;
    if (entry.version > upTo) li.classList.add("future");
    list.append(li);
  }
}

function renderTokens(game) {
  const list = $("#tokens");
  list.replaceChildren();
  for (let seat = 0; seat < game.players; seat++) {
    const li = document.createElement("li");
    if (table.tokens[seat]) {
      const code = document.createElement("code");
      code.textContent = table.tokens[seat];
      li.append(`seat ${seat}: `, code);
    } else {
      li.textContent = `seat ${seat}: ${table.bots[seat] ? `${table.bots[seat].toLowerCase()} bot, no token` : "not held by this tab"}`;
    }
    list.append(li);
  }
}

// ---- start -----------------------------------------------------------------------------------

async function start() {
  setBusy(true);
  try {
    for (const game of (await graphql(CATALOG)).catalog) catalog.set(game.kind, game);
  } catch (error) {
    showRefusal(error.code ?? "ERROR", error.message);
    return;
  } finally {
    setBusy(false);
  }
  for (const game of catalog.values()) $("#kind").append(new Option(game.title, game.kind));
  $("#language").addEventListener("change", () => {
    setLanguage($("#language").value);
    if (table.id) refresh();
  });
  $("#kind").addEventListener("change", fillPlayers);
  $("#players").addEventListener("change", fillSeats);
  fillPlayers();
  $("#create").addEventListener("submit", createGame);
  $("#watch").addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `game=${encodeURIComponent($("#watch-id").value.trim())}&as=spectator`;
  });
  $("#slider").addEventListener("input", () => {
    if (!table.latest) return;
    const version = Number($("#slider").value);
    table.shown = version >= table.latest.version ? null : version;
    render();
  });
  $("#send-raw").addEventListener("click", () => {
    let move;
    try {
      move = JSON.parse($("#raw").value);
    } catch (error) {
      showRefusal("NOT_JSON", String(error.message));
      return;
    }
    send(move);
  });
  $("#ask-takeback").addEventListener("click", () => takeback(ASK_TAKEBACK, "requestTakeback"));
  $("#accept-takeback").addEventListener("click", () =>
    takeback(ANSWER_TAKEBACK, "answerTakeback", { accept: true }));
  $("#decline-takeback").addEventListener("click", () =>
    takeback(ANSWER_TAKEBACK, "answerTakeback", { accept: false }));
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "1";
}

start();
