// The players' side of the TypeScript SDK against a service that needs an API key: languages,
// an open seat joined by code with a player token, the player's games, matchmaking followed on
// playerEvents (the key sent on the socket's upgrade), matchmaking with a player token, challenges
// and rematches (offered, accepted, declined), ratings without an archive, and a revoked player
// token.
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
// matchmaking with a player token: no playerId, the token's own player; another's is FORBIDDEN
const eve = tenant.withToken((await tenant.issuePlayerToken(`eve-${suffix}`, 600)).token);
const fay = tenant.withToken((await tenant.issuePlayerToken(`fay-${suffix}`, 600)).token);
const pool = { kind: "TREELINE", players: 2 };
const tokenSeek = {
  entered: (await eve.enterMatchmaking(pool)).state,
  read: await eve.matchmaking(),
  left: (await eve.leaveMatchmaking()).state,
  another: await outcome(() => eve.matchmaking(bob)),
};
await eve.enterMatchmaking(pool);
const tokenStatuses = [];
for await (const status of eve.playerEvents()) {
  const { state, playerId, seatToken: token, type } = status;
  tokenStatuses.push({ state, playerId, token, type });
  if (tokenStatuses.length === 1) await fay.enterMatchmaking(pool);
  if (status.state === "MATCHED") break;
}

// a challenge accepted with joinGame, another declined; both by player tokens
const dan = tenant.withToken((await tenant.issuePlayerToken(`dan-${suffix}`, 600)).token);
const annRules = tenant.withToken(ann.token);
const challenge = await annRules.createChallenge({ kind: "TREELINGS", opponents: [`dan-${suffix}`] });
const pending = await dan.myChallenges();
const accepted = await dan.joinGame({ gameId: challenge.game.id });
const other = await annRules.createChallenge({ kind: "TREELINGS", opponents: [`dan-${suffix}`] });
const declined = await dan.declineChallenge(other.game.id);
const challenges = {
  seatToken: typeof challenge.seatToken,
  pending: pending.map((item) => ({ seat: item.seat, gameId: item.game.id === challenge.game.id })),
  accepted: { seat: accepted.seat, status: accepted.game.status, toAct: accepted.game.toAct },
  declined: declined.status,
  again: await outcome(() => dan.declineChallenge(other.game.id)),
};

// a rematch offered and accepted by the seats' tokens, another offered and declined
async function over() {
  const game = await tenant.createGame({ kind: "TREELINGS", players: 2 });
  const [first, second] = game.seats.map((seat) => tenant.withToken(seat.token));
  await first.resign(game.game.id);
  return { id: game.game.id, first, second };
}
const played = await over();
const early = await outcome(() => played.first.rematch(played.id));
const offered = await played.first.offerRematch(played.id);
const offeredAgain = await played.first.offerRematch(played.id);
const found = await tenant.rematch(played.id);
const taken = await played.second.acceptRematch(played.id);
const refused = await over();
await refused.first.offerRematch(refused.id);
const rematchDeclined = await refused.second.declineRematch(refused.id);
const rematches = {
  before: early,
  offered: { seat: offered.seat, token: typeof offered.seatToken, id: offered.game.id },
  sameGame: offeredAgain.game.id === offered.game.id && found?.gameId === offered.game.id,
  accepted: { seat: taken.seat, token: typeof taken.seatToken, status: taken.game.status },
  started: (await played.second.withToken(taken.seatToken).game(taken.game.id))?.toAct,
  declined: rematchDeclined.status,
  notOver: await outcome(async () => {
    const active = await tenant.createGame({ kind: "TREELINGS", players: 2 });
    return tenant.withToken(active.seats[0].token).offerRematch(active.game.id);
  }),
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
    tokenSeek,
    tokenStatuses,
    challenges,
    rematches,
  }),
);
