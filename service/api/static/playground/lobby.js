// The lobby page: a player token for a player id, a game with open seats and its join code,
// joining by code or invite link, quick match, the player's games and a kind's leaderboard.
// A client of the public API only (api.js, docs/api.md "Players" and "Matchmaking"). A game
// is played in the playground's game view (index.html), acting with the player token, which
// plays the seats its player id holds and sees only their views (ALL-4).

import { graphql, subscribe } from "./api.js";

const CATALOG = "{ catalog { kind title players { min max } } }";
const ISSUE = `mutation Issue($playerId: String!) {
  issuePlayerToken(playerId: $playerId) { token playerId expiresAt }
}`;
const CREATE = `mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id } joinCode }
}`;
const LOBBY = "query Lobby($id: ID!) { lobby(gameId: $id) { joinCode started openSeats { seat } } }";
const JOIN = "mutation Join($code: String!) { joinGame(code: $code) { seat game { id } } }";
const MY_GAMES = "{ myGames(first: 20) { edges { node { id kind status players viewer version } } } }";
const LEADERBOARD = `query Board($kind: GameKind!) {
  leaderboard(kind: $kind, first: 10) { edges { node { playerId ordinal games } } }
}`;
const STATUS = "playerId state waitingSince window gameId seat";
const ENTER = `mutation Enter($input: MatchmakingInput!) { enterMatchmaking(input: $input) { ${STATUS} } }`;
const LEAVE = `mutation Leave($playerId: String!) { leaveMatchmaking(playerId: $playerId) { ${STATUS} } }`;
const MATCHMAKING = `query Status($playerId: String!) { matchmaking(playerId: $playerId) { ${STATUS} } }`;
const PLAYER_EVENTS = `subscription Player($playerId: String!) { playerEvents(playerId: $playerId) { ${STATUS} } }`;

const $ = (selector) => document.querySelector(selector);
const catalog = new Map();
let me = JSON.parse(sessionStorage.getItem("lobby:player") ?? "null"); // { playerId, token, expiresAt }
let ticking = null; // the timer of what this page waits for: a game to start, or a match
let stopEvents = null; // stops the playerEvents subscription

const key = () => $("#api-key").value.trim();

function showRefusal(error) {
  const box = $("#refusal");
  const strong = document.createElement("strong");
  strong.textContent = error.code ?? "ERROR";
  box.replaceChildren(strong, `: ${error.message}`);
  box.dataset.code = error.code ?? "ERROR";
  box.hidden = false;
}

function clearRefusal() {
  $("#refusal").hidden = true;
  delete $("#refusal").dataset.code;
}

// Runs one request for a form or button; a refusal is shown as the API typed it.
async function attempt(work) {
  clearRefusal();
  document.body.dataset.busy = "1";
  try {
    await work();
  } catch (error) {
    showRefusal(error);
  } finally {
    document.body.dataset.busy = "0";
  }
}

function stopWaiting() {
  clearInterval(ticking);
  ticking = null;
  stopEvents?.();
  stopEvents = null;
}

// Into the game view, holding the seat with the player token (the game view keeps its seat
// tokens in this tab's sessionStorage, by game).
function land(gameId, seat) {
  stopWaiting();
  sessionStorage.setItem(`play:${gameId}`, JSON.stringify({ tokens: { [seat]: me.token }, bots: {} }));
  location.assign(`./#game=${encodeURIComponent(gameId)}`);
}

function fillKinds(select) {
  for (const game of catalog.values()) select.append(new Option(game.title, game.kind));
}

function fillPlayers(kindSelect, playersSelect) {
  const { min, max } = catalog.get(kindSelect.value).players;
  playersSelect.replaceChildren();
  for (let n = min; n <= max; n++) playersSelect.append(new Option(String(n), String(n)));
}

// ---- the player ------------------------------------------------------------------------------

function showPlayer() {
  $("#whoami").hidden = me === null;
  $("#player").hidden = me === null;
  if (me === null) return;
  const until = new Date(me.expiresAt).toLocaleTimeString();
  $("#whoami").textContent = `Playing as ${me.playerId} (token good until ${until}).`;
  document.body.dataset.player = me.playerId;
  refreshMine();
  refreshBoard();
}

async function identify(event) {
  event.preventDefault();
  await attempt(async () => {
    const issued = (await graphql(ISSUE, { playerId: $("#player-id").value.trim() }, null, key())).issuePlayerToken;
    stopWaiting();
    me = { playerId: issued.playerId, token: issued.token, expiresAt: issued.expiresAt };
    sessionStorage.setItem("lobby:player", JSON.stringify(me));
    showPlayer();
  });
}

// ---- open seats and join codes ---------------------------------------------------------------

// Waits on this page until every seat is filled: a join or the start makes no new version, so
// the game view would not hear of it (docs/api.md, "Players").
function awaitStart(gameId, seat) {
  stopWaiting();
  let asking = false;
  const check = async () => {
    if (asking) return;
    asking = true;
    try {
      const lobby = (await graphql(LOBBY, { id: gameId }, me.token)).lobby;
      if (lobby.started) land(gameId, seat);
      if (lobby.joinCode) showInvite(lobby.joinCode);
      const open = lobby.openSeats.map((s) => `seat ${s.seat}`).join(", ");
      $("#seats-open").textContent = `You hold seat ${seat}. Waiting for players: ${open} open.`;
    } catch (error) {
      stopWaiting();
      showRefusal(error);
    } finally {
      asking = false;
    }
  };
  ticking = setInterval(check, 1000);
  check();
}

function showInvite(code) {
  const link = $("#invite-link");
  link.href = `${location.pathname}#code=${encodeURIComponent(code)}`;
  link.textContent = new URL(link.getAttribute("href"), location.href).href;
  $("#join-code").textContent = code;
  $("#invite").hidden = false;
}

async function createOpen(event) {
  event.preventDefault();
  await attempt(async () => {
    const players = Number($("#players").value);
    const openSeats = [...Array(players).keys()].slice(1).map((seat) => ({ seat }));
    const input = { kind: $("#kind").value, players, playerIds: [me.playerId], openSeats };
    const created = (await graphql(CREATE, { input }, null, key())).createGame;
    showInvite(created.joinCode);
    awaitStart(created.game.id, 0);
  });
}

async function join(event) {
  event.preventDefault();
  await attempt(async () => {
    const code = $("#code").value.trim();
    const joined = (await graphql(JOIN, { code }, me.token)).joinGame;
    awaitStart(joined.game.id, joined.seat);
  });
}

// ---- quick match -----------------------------------------------------------------------------

function showMatchmaking(status) {
  const line = $("#matchmaking");
  line.dataset.state = status.state;
  line.hidden = false;
  $("#leave-match").hidden = status.state !== "WAITING";
  if (status.state === "MATCHED") {
    line.textContent = `Matched: game ${status.gameId}, seat ${status.seat}.`;
    land(status.gameId, status.seat);
  } else if (status.state === "WAITING") {
    const waited = Math.max(0, Math.round((Date.now() - Date.parse(status.waitingSince)) / 1000));
    line.textContent = `Waiting ${waited} s; rating window ±${status.window.toFixed(2)} (it widens as you wait).`;
  } else {
    line.textContent = status.state === "MATCHING" ? "Matched: the game is being created…" : "Not waiting.";
  }
}

// Told by playerEvents; asked every second too, for the waiting time and window (and in case
// the socket cannot carry the tenant's key: a browser's WebSocket sends no X-API-Key).
function awaitMatch() {
  stopWaiting();
  const playerId = me.playerId;
  stopEvents = subscribe(PLAYER_EVENTS, { playerId }, (data) => showMatchmaking(data.playerEvents), () => {});
  let asking = false;
  ticking = setInterval(async () => {
    if (asking) return;
    asking = true;
    try {
      showMatchmaking((await graphql(MATCHMAKING, { playerId }, null, key())).matchmaking);
    } catch (error) {
      stopWaiting();
      showRefusal(error);
    } finally {
      asking = false;
    }
  }, 1000);
}

async function quickMatch(event) {
  event.preventDefault();
  await attempt(async () => {
    const input = { kind: $("#match-kind").value, players: Number($("#match-players").value), playerId: me.playerId };
    const status = (await graphql(ENTER, { input }, null, key())).enterMatchmaking;
    if (status.state !== "MATCHED") awaitMatch();
    showMatchmaking(status);
  });
}

async function leaveMatch() {
  await attempt(async () => {
    stopWaiting();
    showMatchmaking((await graphql(LEAVE, { playerId: me.playerId }, null, key())).leaveMatchmaking);
  });
}

// ---- the player's games and the leaderboard --------------------------------------------------

async function refreshMine() {
  await attempt(async () => {
    const list = $("#my-games");
    list.replaceChildren();
    for (const { node } of (await graphql(MY_GAMES, {}, me.token)).myGames.edges) {
      const li = document.createElement("li");
      li.dataset.game = node.id;
      const open = document.createElement("button");
      open.type = "button";
      open.textContent = "Open";
      // an active game may still wait for players: awaitStart lands at once if it started
      const active = node.status === "ACTIVE";
      open.addEventListener("click", () => (active ? awaitStart(node.id, node.viewer) : land(node.id, node.viewer)));
      const title = catalog.get(node.kind)?.title ?? node.kind;
      const status = node.status.toLowerCase();
      li.append(`${title}, ${node.players} players, seat ${node.viewer}, ${status}, version ${node.version} `, open);
      list.append(li);
    }
    if (!list.children.length) list.textContent = "No games yet.";
  });
}

async function refreshBoard() {
  const body = $("#leaderboard tbody");
  body.replaceChildren();
  try {
    const edges = (await graphql(LEADERBOARD, { kind: $("#board-kind").value }, null, key())).leaderboard.edges;
    edges.forEach(({ node }, index) => {
      const row = document.createElement("tr");
      for (const text of [index + 1, node.playerId, node.ordinal.toFixed(2), node.games]) {
        const cell = document.createElement("td");
        cell.textContent = String(text);
        row.append(cell);
      }
      body.append(row);
    });
    $("#leaderboard").hidden = !edges.length;
    $("#leaderboard-note").textContent = edges.length
      ? "Best first (mu - 3 sigma). Read only."
      : "No rated game of this kind yet (games are rated with the archive, docs/api.md \"Ratings\").";
  } catch (error) {
    $("#leaderboard-note").textContent = `${error.code}: ${error.message}`;
  }
}

// ---- start -----------------------------------------------------------------------------------

async function start() {
  try {
    for (const game of (await graphql(CATALOG)).catalog) catalog.set(game.kind, game);
  } catch (error) {
    showRefusal(error);
    return;
  }
  for (const [kind, players] of [["#kind", "#players"], ["#match-kind", "#match-players"]]) {
    fillKinds($(kind));
    fillPlayers($(kind), $(players));
    $(kind).addEventListener("change", () => fillPlayers($(kind), $(players)));
  }
  fillKinds($("#board-kind"));
  $("#board-kind").addEventListener("change", refreshBoard);
  $("#identify").addEventListener("submit", identify);
  $("#open").addEventListener("submit", createOpen);
  $("#join").addEventListener("submit", join);
  $("#match").addEventListener("submit", quickMatch);
  $("#leave-match").addEventListener("click", leaveMatch);
  $("#refresh-mine").addEventListener("click", refreshMine);
  const invited = new URLSearchParams(location.hash.slice(1)).get("code");
  if (invited) {
    $("#code").value = invited;
    $("#join-title").textContent = "Join by code: you are invited";
  }
  if (me) $("#player-id").value = me.playerId;
  showPlayer();
  document.body.dataset.busy = "0";
  document.body.dataset.ready = "1";
}

start();
