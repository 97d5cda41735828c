// The playground's only way into the service: the public API (docs/api.md).
// GraphQL over HTTP for reading and moving, subscriptions (`gameEvents`, `playerEvents`) over
// graphql-transport-ws for news.
// Nothing here is private to the playground: any browser app can do the same.

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const ENDPOINT = new URL("/graphql", location.href);

// The language of the texts the service says (labels, refusals, score details): sent as
// Accept-Language (docs/translating.md); "en-XA" is the pseudo-locale.
let language = "en";

export function setLanguage(tag) {
  language = tag;
}

export async function graphql(query, variables = {}, token = null, apiKey = "") {
  const headers = { "content-type": "application/json", "accept-language": language };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apiKey) headers["x-api-key"] = apiKey; // needed to create games where RULES_API_KEYS is set
  let answer;
  try {
    answer = await fetch(ENDPOINT, {
      method: "POST",
      headers,
      body: JSON.stringify({ query, variables }),
    });
  } catch (error) {
    throw new ApiError("NETWORK", String(error));
  }
  let body;
  try {
    body = await answer.json();
  } catch {
    throw new ApiError(`HTTP_${answer.status}`, answer.statusText || "not JSON");
  }
  if (body.errors?.length) {
    const first = body.errors[0];
    const said = first.extensions?.message?.text ?? first.message;
    throw new ApiError(first.extensions?.code ?? "GRAPHQL_ERROR", said);
  }
  return body.data;
}

const EVENTS = "subscription Events($gameId: ID!) { gameEvents(gameId: $gameId) { version status } }";

// Follows a game as a spectator (events carry no hidden information: ALL-4): `onEvent` gets
// every version, `onEnd(reason)` once when the stream ends. Returns a function that stops it.
export function followGame(gameId, onEvent, onEnd) {
  return subscribe(EVENTS, { gameId }, (data) => onEvent(data.gameEvents), onEnd);
}

// One subscription over graphql-transport-ws: `onData` gets each result's data, `onEnd(reason)`
// once when the stream ends. Returns a function that stops it.
export function subscribe(query, variables, onData, onEnd) {
  const url = new URL(ENDPOINT);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url, "graphql-transport-ws");
  let ended = false;
  const end = (reason) => {
    if (!ended) {
      ended = true;
      onEnd(reason);
    }
  };
  const send = (message) => socket.send(JSON.stringify(message));
  socket.onopen = () => send({ type: "connection_init", payload: {} });
  socket.onmessage = (frame) => {
    const message = JSON.parse(frame.data);
    if (message.type === "connection_ack") {
      send({ id: "events", type: "subscribe", payload: { query, variables } });
    } else if (message.type === "ping") {
      send({ type: "pong" });
    } else if (message.type === "next") {
      const errors = message.payload.errors;
      if (errors?.length) end(`${errors[0].extensions?.code ?? "ERROR"}: ${errors[0].message}`);
      else onData(message.payload.data);
    } else if (message.type === "error") {
      end(`${message.payload?.[0]?.extensions?.code ?? "ERROR"}: ${message.payload?.[0]?.message}`);
    } else if (message.type === "complete") {
      end("complete");
      socket.close(1000);
    }
  };
  socket.onclose = (event) => end(`closed ${event.code} ${event.reason}`.trim());
  return () => {
    ended = true;
    socket.close(1000);
  };
}

// Idempotency keys: crypto.randomUUID needs a secure context; plain http on a LAN is not one.
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `play-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
