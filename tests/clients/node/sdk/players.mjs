// The players' side of the TypeScript SDK against a service that needs an API key: languages,
// an open seat joined by code with a player token, the player's games, matchmaking followed on
// playerEvents (the key sent on the socket's upgrade), ratings without an archive, and a revoked
// player token.
// Prints one JSON summary (tests/clients/test_typescript_resilience.py checks it).
// usage: RULES_API_KEY=SECRET node players.mjs SDK_INDEX_JS GRAPHQL_URL
import { pathToFileURL } from "node:url";

const [index, graphql] = process.argv.slice(2);
const { Rules, RulesError } = await import(pathToFileURL(index).href);

const tenant = new Rules(graphql, { apiKey: process.env.RULES_API_KEY, retry: { retries: 0 } });
const suffix = Date.now().toString(36);
const languages = (await tenant.languages()).map((language) => language.tag);

const created = await tenant.createGame({ kind: "TREELINGS", players: 2, openSeats: [{ seat: 1 }] });
const id = created.game.id;
const before = await tenant.lobby(id);
const ann = await tenant.issuePlayerToken(`ann-${suffix}`, 600);
const player = new Rules(graphql, { token: ann.token, retry: { retries: 0 } });
const joined = await player.joinGame({ code: before.joinCode });
const after = await tenant.lobby(id);
const mine = await player.myGames({ kind: "TREELINGS" });

const bob = `bob-${suffix}`;
const waiting = await tenant.enterMatchmaking({ kind: "TREELINGS", players: 2, playerId: bob, rating: 30 });
const statuses = [];
for await (const status of tenant.playerEvents(bob)) {
  statuses.push({ state: status.state, token: typeof status.seatToken });
  if (statuses.length === 1) {
    await tenant.enterMatchmaking({ kind: "TREELINGS", players: 2, playerId: `cat-${suffix}`, rating: 30 });
  }
  if (status.state === "MATCHED") break;
}

// ratings live in the archive: this service has none, so nothing is rated and a policy is refused
async function outcome(call) {
  try {
    return { value: await call() };
  } catch (error) {
    return { rulesError: error instanceof RulesError, code: error.code };
  }
}
const ratings = {
  rating: await outcome(() => tenant.rating(`ann-${suffix}`, "TREELINGS")),
  leaderboard: await outcome(() => tenant.leaderboard("TREELINGS")),
  policy: await outcome(() => tenant.ratingPolicy()),
  setPolicy: await outcome(() => tenant.setRatingPolicy(2)),
};
await tenant.revokePlayerTokens(`ann-${suffix}`);
let revoked = null;
try {
  await player.myGames();
} catch (error) {
  revoked = { rulesError: error instanceof RulesError, code: error.code };
}
console.log(
  JSON.stringify({
    languages,
    joinCode: typeof before.joinCode,
    startedBefore: before.started,
    joinedSeat: joined.seat,
    startedAfter: after.started,
    listed: mine.edges.some((edge) => edge.node.id === id),
    waiting: waiting.state,
    statuses,
    ratings,
    revoked,
  }),
);
