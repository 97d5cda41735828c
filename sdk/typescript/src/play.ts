// A whole game of every kind through the SDK, as an app's backend would play it: create with
// typed options (and a bot seat in some), follow gameEvents, and at each event where a human seat
// is to act read its legal moves and send one back exactly as `typedMoveInput` gave it. At the end:
// scores, history, and the seed reveal checked against the commitment; then a game that ends by
// resigning. Prints one JSON summary (tests/clients/test_typescript_sdk.py checks it).
// usage: npm run play -- [GRAPHQL_URL] [seed] [--api-key SECRET]   (or RULES_API_KEY=SECRET)
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";

import { Rules, RulesError, type CreateGameInput, type GameKind, type GameView } from "./index.js";

/** Any game has ended long before this many decisions; a loop past it is a bug. */
const MOST_MOVES = 5000;

/** The table each kind is played at: typed options, and which seats the server plays. */
const TABLES: Record<GameKind, Omit<CreateGameInput, "seed">> = {
  TREELINE: { kind: "TREELINE", players: 2, typedOptions: { treeline: { startSeat: 0 } } },
  TREELINGS: { kind: "TREELINGS", players: 3, typedOptions: { treelings: { startSeat: 1 } } },
  TREETOPIA: {
    kind: "TREETOPIA",
    players: 2,
    typedOptions: { treetopia: { startSeat: 0 } },
    bots: [{ seat: 1, strategy: "RANDOM" }],
  },
  TREE_LINED_AVENUE: {
    kind: "TREE_LINED_AVENUE",
    players: 3,
    typedOptions: { avenue: { startSeat: 0, randomOrder: false } },
    bots: [{ seat: 2, strategy: "GREEDY" }],
  },
};

/** The phase's name whatever the game: the union is exhaustive, a new view fails to compile. */
function phaseOf(view: GameView): string {
  switch (view.__typename) {
    case "TreelineView":
      return view.treelinePhase;
    case "TreelingsView":
      return view.treelingsPhase;
    case "TreetopiaView":
      return view.treetopiaPhase;
    case "AvenueView":
      return view.avenuePhase;
    default: {
      const unknown: never = view;
      throw new Error(`a view of another game: ${JSON.stringify(unknown)}`);
    }
  }
}

/** mulberry32: the same seed chooses the same moves in every run. */
function chooser(seed: string): (count: number) => number {
  let state = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return (count) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * count);
  };
}

interface Played {
  kind: GameKind;
  id: string;
  players: number;
  bots: number[];
  status: string;
  moves: number;
  humanMoves: number;
  forcedMoves: number;
  staleMoves: number;
  events: number;
  gapFree: boolean;
  replayedFromStart: boolean;
  phases: string[];
  final: boolean;
  winners: number[];
  points: number[];
  breakdownItems: number;
  historyEntries: number;
  commitmentHolds: boolean;
  revealedOptions: unknown;
  /** exportGame's record, replayed by verifyGameRecord, verifies up to the last version. */
  recordValid: boolean;
}

async function playWhole(rules: Rules, kind: GameKind, seed: string): Promise<Played> {
  const table = TABLES[kind];
  const createGame = await rules.createGame({ ...table, seed: `${seed}-${kind}` });
  const id = createGame.game.id;
  const tokens = new Map(createGame.seats.map((seat) => [seat.seat, seat.token]));
  const bots = createGame.game.seats.filter((seat) => seat.bot !== null).map((seat) => seat.seat);
  const choose = chooser(`${seed}-${kind}`);
  const versions: number[] = [];
  const phases = new Set<string>();
  let humanMoves = 0;
  let staleMoves = 0;
  let status: string = createGame.game.status;

  // Each version once, in order: the current one first, then every new one, until FINISHED.
  // A human seat moves at the version it saw; bots move on the server meanwhile.
  const watcher = tokens.get(0);
  for await (const event of rules.events(id, { token: watcher })) {
    versions.push(event.version);
    status = event.status;
    if (event.status !== "ACTIVE") continue; // the stream completes after it
    const seat = event.game.toAct.find((toAct) => tokens.has(toAct));
    if (seat === undefined) continue; // a bot's turn: its move is the next event
    const token = tokens.get(seat);
    const game = await rules.game(id, { token });
    if (game === null) throw new Error(`game ${id} is gone`);
    if (game.version !== event.version) continue; // a bot moved already: a later event follows
    phases.add(phaseOf(game.view));
    const legal = game.legalMoves[choose(game.legalMoves.length)];
    if (legal === undefined) throw new Error(`seat ${seat} is to act without a legal move`);
    const applyMove = await rules.applyMove(id, legal, { expectedVersion: game.version, token });
    if (applyMove.__typename === "MoveRejected") {
      // A bot moved between our read and our move (a simultaneous decision): read again.
      if (applyMove.code === "STALE_VERSION") {
        staleMoves += 1;
        continue;
      }
      throw new Error(`${kind} ${legal.label} rejected: ${applyMove.code} ${applyMove.message}`);
    }
    humanMoves += 1;
    if (humanMoves > MOST_MOVES) throw new Error(`${kind} has not ended after ${MOST_MOVES} moves`);
  }

  // A client back after a dropped socket resumes after the last version it saw: here 0, so the
  // whole game again from the history, then the stream completes (the game is over).
  const replayed: number[] = [];
  for await (const event of rules.events(id, { afterVersion: 0, token: watcher })) {
    replayed.push(event.version);
  }

  const scored = await rules.scores(id);
  const history = (await rules.history(id))?.history ?? [];
  const revealed = await rules.seedReveal(id);
  const reveal = revealed?.seedReveal;
  if (scored === null || revealed === null || reveal === null || reveal === undefined) {
    throw new Error(`game ${id}: no scores or no seed reveal after the end`);
  }
  const verdict = await rules.verifyGameRecord(await rules.exportGame(id));
  const commitment = createHash("sha256").update(reveal.salt + reveal.seed).digest("hex");
  const first = versions[0] ?? 0;
  return {
    kind,
    id,
    players: createGame.game.players,
    bots,
    status,
    moves: history.filter((entry) => entry.event === null).length,
    humanMoves,
    forcedMoves: history.filter((entry) => entry.forced).length,
    staleMoves,
    events: versions.length,
    gapFree: versions.every((version, index) => version === first + index),
    replayedFromStart:
      replayed.length === history.length &&
      replayed.every((version, index) => version === index + 1),
    phases: [...phases].sort(),
    final: scored.scores.final,
    winners: scored.scores.winners,
    points: scored.scores.entries.map((entry) => entry.points),
    breakdownItems: scored.scores.entries.flatMap((entry) => entry.typedBreakdown).length,
    historyEntries: history.length,
    commitmentHolds: commitment === revealed.seedCommitment,
    revealedOptions: reveal.options,
    recordValid: verdict.valid && verdict.version === history.length,
  };
}

/** A game that ends early: seat 0 resigns at once. */
async function resignOne(rules: Rules, seed: string): Promise<unknown> {
  const createGame = await rules.createGame({ kind: "TREELINGS", players: 2, seed: `${seed}-resign` });
  const token = createGame.seats.find((seat) => seat.seat === 0)?.token;
  const expectedVersion = createGame.game.version;
  const resign = await rules.resign(createGame.game.id, { expectedVersion, token });
  if (resign.__typename === "MoveRejected") throw new Error(`resign rejected: ${resign.code}`);
  return { status: resign.game.status, outcome: resign.game.outcome };
}

/** How refusals reach the caller: a rule's as a typed MoveRejected, a request's as a RulesError. */
async function refusals(rules: Rules, seed: string): Promise<Record<string, unknown>> {
  const createGame = await rules.createGame({ kind: "TREELINGS", players: 2, seed: `${seed}-refusals` });
  const id = createGame.game.id;
  const token = createGame.seats.find((seat) => seat.seat === 0)?.token;
  const seen = await rules.legalMoves(id, { token });
  const legal = seen?.legalMoves[0];
  if (seen == null || legal === undefined) throw new Error("no legal move at the start");
  const applyMove = await rules.applyMove(id, legal, { expectedVersion: seen.version + 1, token });
  let badToken: string | undefined = "answered";
  try {
    await rules.legalMoves(id, { token: "no-seat-has-this-token" });
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    badToken = error.code;
  }
  const staleVersion = applyMove.__typename === "MoveRejected" ? applyMove.code : "applied";
  return { staleVersion, badToken };
}

const USAGE = "usage: npm run play -- [GRAPHQL_URL] [seed] [--api-key SECRET]";

/** Why a key cannot be X-API-Key as it is: RULES_API_KEYS lists `tenant:secret`, the header
 * takes the secret alone. */
function keyProblem(key: string): string | undefined {
  if (key.trim() === "") return "the API key is empty";
  if (/^[^:\s]+:.+/.test(key)) {
    return "the API key looks like `tenant:secret` (as RULES_API_KEYS lists it): give only the secret after the colon";
  }
  return undefined;
}

/** Exit 2 with a sentence for a key the service cannot take or did not get; 1 otherwise. */
function explain(error: unknown, key: string | undefined): never {
  if (error instanceof RulesError && error.code === "UNAUTHORIZED" && key === undefined) {
    console.error("this service needs an API key: set RULES_API_KEY or pass --api-key SECRET");
    process.exit(2);
  }
  if (error instanceof RulesError && error.code === "UNAUTHORIZED") {
    console.error(`the service refused the API key: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { "api-key": { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const [url = "http://127.0.0.1:8000/graphql", seed = "sdk-ts"] = positionals;
  const apiKey = values["api-key"] ?? process.env["RULES_API_KEY"];
  const problem = apiKey === undefined ? undefined : keyProblem(apiKey);
  if (problem !== undefined) {
    console.error(problem);
    process.exit(2);
  }
  const rules = new Rules(url, apiKey === undefined ? {} : { apiKey });
  const kinds = Object.keys(TABLES) as GameKind[];
  // One game after another: what the summary shows, not a load test.
  const games: Played[] = [];
  try {
    for (const kind of kinds) games.push(await playWhole(rules, kind, seed));
  } catch (error) {
    explain(error, apiKey);
  }
  const resigned = await resignOne(rules, seed);
  console.log(JSON.stringify({ games, resigned, refused: await refusals(rules, seed) }));
}

await main();
