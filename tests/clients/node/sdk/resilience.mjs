// The TypeScript SDK through a proxy that cuts connections (proxy.mjs): game events resume
// after dropped sockets, a move whose answer was lost is retried with the same idempotency key
// and applied once, a create is not retried, and a service that is gone ends in a RulesError.
// Prints one JSON summary (tests/clients/test_typescript_resilience.py checks it).
// usage: node resilience.mjs SDK_INDEX_JS SERVICE_URL
import { pathToFileURL } from "node:url";

import { startProxy } from "./proxy.mjs";

const [index, service] = process.argv.slice(2);
const { Rules, RulesError } = await import(pathToFileURL(index).href);

const FAST = { retries: 6, baseDelayMs: 20, maxDelayMs: 200 };

function failure(error) {
  return {
    rulesError: error instanceof RulesError,
    isError: error instanceof Error,
    code: error?.code,
    message: String(error?.message),
  };
}

/** Follow a whole game through the proxy, cutting every socket at two events. */
async function resume(proxy) {
  const retries = [];
  const direct = new Rules(`${service}/graphql`);
  const proxied = new Rules(`${proxy.url}/graphql`, {
    retry: FAST,
    onRetry: (error, attempt) => retries.push({ attempt, ...failure(error) }),
  });
  const created = await direct.createGame({ kind: "TREELINGS", players: 2, seed: "resume" });
  const id = created.game.id;
  const tokens = new Map(created.seats.map((seat) => [seat.seat, seat.token]));
  const versions = [];
  let status = created.game.status;
  for await (const event of proxied.events(id, { token: tokens.get(0) })) {
    versions.push(event.version);
    status = event.status;
    if (versions.length === 3 || versions.length === 10) proxy.cut();
    if (event.status !== "ACTIVE") continue;
    const seat = event.game.toAct[0];
    const token = tokens.get(seat);
    const legal = await direct.legalMoves(id, { token });
    if (legal.version !== event.version) continue;
    await direct.applyMove(id, legal.legalMoves[0], { expectedVersion: legal.version, token });
  }
  const history = (await direct.history(id)).history.length;
  return { versions, status, history, retries };
}

/** The answer to a move is lost on its way back: the retry carries the same key. */
async function lostAnswer(proxy) {
  const retries = [];
  const direct = new Rules(`${service}/graphql`);
  const proxied = new Rules(`${proxy.url}/graphql`, {
    retry: FAST,
    onRetry: (error, attempt) => retries.push({ attempt, ...failure(error) }),
  });
  const created = await direct.createGame({ kind: "TREELINGS", players: 2, seed: "lost" });
  const id = created.game.id;
  const token = created.seats.find((seat) => seat.seat === created.game.toAct[0]).token;
  const legal = await direct.legalMoves(id, { token });
  await proxied.catalog(); // a kept-alive connection, as an app has
  proxy.dropNextAnswer();
  const applied = await proxied.applyMove(id, legal.legalMoves[0], {
    expectedVersion: legal.version,
    token,
  });
  const history = (await direct.history(id)).history;
  return {
    typename: applied.__typename,
    replayed: applied.replayed,
    version: applied.game?.version,
    decisions: history.filter((entry) => !entry.forced).length,
    retries,
  };
}

/** A create whose answer is lost is not sent again: it would be a second game. */
async function lostCreate(proxy) {
  const retries = [];
  const proxied = new Rules(`${proxy.url}/graphql`, {
    retry: FAST,
    onRetry: (error, attempt) => retries.push({ attempt, ...failure(error) }),
  });
  proxy.dropNextAnswer();
  try {
    await proxied.createGame({ kind: "TREELINGS", players: 2 });
    return { created: true, retries };
  } catch (error) {
    return { ...failure(error), retries };
  }
}

/** Nothing listens any more: a query and the events give up after their retries. */
async function gone(proxy) {
  await proxy.close();
  const retries = [];
  const rules = new Rules(`${proxy.url}/graphql`, {
    retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 20 },
    onRetry: (error) => retries.push(error.code),
  });
  const outcome = {};
  try {
    await rules.catalog();
  } catch (error) {
    outcome.query = failure(error);
  }
  try {
    for await (const event of rules.events("any")) outcome.event = event;
  } catch (error) {
    outcome.events = failure(error);
  }
  return { ...outcome, retries };
}

const proxy = await startProxy(service);
const summary = {
  resume: await resume(proxy),
  lostAnswer: await lostAnswer(proxy),
  lostCreate: await lostCreate(proxy),
  gone: await gone(proxy),
};
console.log(JSON.stringify(summary));
