// Every way the TypeScript SDK's calls and game events can be refused, against a real service:
// each failure must be a RulesError (an Error) with its typed code, never a raw GraphQL error,
// CloseEvent or ErrorEvent, and a refused decision a MoveRejected value. Prints one JSON object,
// name -> what came back (tests/clients/test_typescript_resilience.py checks it).
// usage: node errors.mjs SDK_INDEX_JS SERVICE_URL
import { pathToFileURL } from "node:url";

const [index, service] = process.argv.slice(2);
const { Rules, RulesError } = await import(pathToFileURL(index).href);

const rules = new Rules(`${service}/graphql`, { retry: { retries: 0 } });
const created = await rules.createGame({ kind: "TREELINGS", players: 2, seed: "errors" });
const id = created.game.id;
const toAct = created.game.toAct[0];
const token = created.seats.find((seat) => seat.seat === toAct).token;
const other = created.seats.find((seat) => seat.seat !== toAct).token;
const legal = await rules.legalMoves(id, { token });
const move = legal.legalMoves[0];

async function outcome(call) {
  try {
    const value = await call();
    if (value !== null && typeof value === "object" && "__typename" in value) {
      return { value: value.__typename, code: value.code ?? null };
    }
    const plain = value === null || typeof value === "string" || typeof value === "boolean";
    return { value: plain ? value : typeof value };
  } catch (error) {
    return {
      rulesError: error instanceof RulesError,
      isError: error instanceof Error,
      code: error?.code,
    };
  }
}

async function drain(events) {
  for await (const event of events) void event;
  return "completed";
}

const calls = {
  eventsOfAnUnknownGame: () => drain(rules.events("no-such-game")),
  eventsAfterTheGamesVersion: () => drain(rules.events(id, { afterVersion: 999 })),
  eventsWithABadToken: () => drain(rules.events(id, { token: "not-a-token" })),
  legalMovesWithABadToken: () => rules.legalMoves(id, { token: "not-a-token" }),
  anUnknownGame: () => rules.game("no-such-game"),
  anotherSeatsView: () => rules.game(id, { token, asSeat: toAct === 0 ? 1 : 0 }),
  exportAnActiveGame: () => rules.exportGame(id),
  createWithTooManyPlayers: () => rules.createGame({ kind: "TREELINGS", players: 99 }),
  applyAtAStaleVersion: () =>
    rules.applyMove(id, move, { expectedVersion: legal.version + 5, token }),
  applyOutOfTurn: () => rules.applyMove(id, move, { token: other }),
  validateOutOfTurn: async () => (await rules.validateMove(id, move, { token: other })).code,
  resignWithABadToken: () => rules.resign(id, { token: "not-a-token" }),
  takebackWhereNoneAllowed: () => rules.requestTakeback(id, { token }),
  suggestAsASpectator: () => rules.suggestMove(id, "RANDOM"),
  reissueForAnUnknownGame: () => rules.reissueSeatToken("no-such-game", 0),
  abandonAnUnknownGame: () => rules.abandonGame("no-such-game"),
  updateAnUnknownEndpoint: () => rules.updateWebhookEndpoint("no-such-endpoint", { enabled: false }),
  createAnEndpointWithABadUrl: () => rules.createWebhookEndpoint("not a url"),
  verifyARecordThatIsNone: async () => (await rules.verifyGameRecord({ not: "a record" })).valid,
};
const summary = {};
for (const [name, call] of Object.entries(calls)) summary[name] = await outcome(call);
console.log(JSON.stringify(summary));
