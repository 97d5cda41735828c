// A whole game of every kind through the SDK, as an app's backend would play it: create with
// typed options (and a bot seat in some), follow gameEvents, and at each event where a human seat
// is to act read its legal moves and send one back exactly as `typedMoveInput` gave it. At the end:
// scores, history, and the seed reveal checked against the commitment; then a game that ends by
// resigning. Prints one JSON summary (tests/clients/test_typescript_sdk.py checks it).
// usage: node build/play.js http://127.0.0.1:8000/graphql [seed]
import { createHash } from "node:crypto";

import { RulesClient, RulesError, asTypedMoveInput } from "./client.js";
import {
  ApplyMoveDocument,
  CreateGameDocument,
  ExportGameDocument,
  GameDocument,
  GameEventsDocument,
  HistoryDocument,
  LegalMovesDocument,
  ResignDocument,
  ScoresDocument,
  SeedRevealDocument,
  VerifyGameRecordDocument,
  type CreateGameInput,
  type GameKind,
  type GameQuery,
} from "./generated/graphql.js";

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

type View = NonNullable<GameQuery["game"]>["view"];

/** The phase's name whatever the game: the union is exhaustive, a new view fails to compile. */
function phaseOf(view: View): string {
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

async function playWhole(rules: RulesClient, kind: GameKind, seed: string): Promise<Played> {
  const table = TABLES[kind];
  const { createGame } = await rules.request(CreateGameDocument, {
    input: { ...table, seed: `${seed}-${kind}` },
  });
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
  const events = rules.subscribe(GameEventsDocument, { gameId: id }, watcher);
  for await (const { gameEvents: event } of events) {
    versions.push(event.version);
    status = event.status;
    if (event.status !== "ACTIVE") continue; // the stream completes after it
    const seat = event.game.toAct.find((toAct) => tokens.has(toAct));
    if (seat === undefined) continue; // a bot's turn: its move is the next event
    const token = tokens.get(seat);
    const { game } = await rules.request(GameDocument, { id }, token);
    if (game === null) throw new Error(`game ${id} is gone`);
    if (game.version !== event.version) continue; // a bot moved already: a later event follows
    phases.add(phaseOf(game.view));
    const legal = game.legalMoves[choose(game.legalMoves.length)];
    if (legal === undefined) throw new Error(`seat ${seat} is to act without a legal move`);
    const { applyMove } = await rules.request(
      ApplyMoveDocument,
      {
        input: {
          gameId: id,
          typedMove: asTypedMoveInput(legal.typedMoveInput),
          expectedVersion: game.version,
        },
      },
      token,
    );
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
  const again = rules.subscribe(GameEventsDocument, { gameId: id, afterVersion: 0 }, watcher);
  for await (const { gameEvents: event } of again) replayed.push(event.version);

  const scored = (await rules.request(ScoresDocument, { id })).game;
  const history = (await rules.request(HistoryDocument, { id })).game?.history ?? [];
  const revealed = (await rules.request(SeedRevealDocument, { id })).game;
  const reveal = revealed?.seedReveal;
  if (scored === null || revealed === null || reveal === null || reveal === undefined) {
    throw new Error(`game ${id}: no scores or no seed reveal after the end`);
  }
  const record = (await rules.request(ExportGameDocument, { gameId: id })).exportGame;
  const verdict = (await rules.request(VerifyGameRecordDocument, { record })).verifyGameRecord;
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
async function resignOne(rules: RulesClient, seed: string): Promise<unknown> {
  const { createGame } = await rules.request(CreateGameDocument, {
    input: { kind: "TREELINGS", players: 2, seed: `${seed}-resign` },
  });
  const token = createGame.seats.find((seat) => seat.seat === 0)?.token;
  const { resign } = await rules.request(
    ResignDocument,
    { gameId: createGame.game.id, expectedVersion: createGame.game.version },
    token,
  );
  if (resign.__typename === "MoveRejected") throw new Error(`resign rejected: ${resign.code}`);
  return { status: resign.game.status, outcome: resign.game.outcome };
}

/** How refusals reach the caller: a rule's as a typed MoveRejected, a request's as a RulesError. */
async function refusals(rules: RulesClient, seed: string): Promise<Record<string, unknown>> {
  const { createGame } = await rules.request(CreateGameDocument, {
    input: { kind: "TREELINGS", players: 2, seed: `${seed}-refusals` },
  });
  const id = createGame.game.id;
  const token = createGame.seats.find((seat) => seat.seat === 0)?.token;
  const seen = (await rules.request(LegalMovesDocument, { id }, token)).game;
  const legal = seen?.legalMoves[0];
  if (seen == null || legal === undefined) throw new Error("no legal move at the start");
  const typedMove = asTypedMoveInput(legal.typedMoveInput);
  const { applyMove } = await rules.request(
    ApplyMoveDocument,
    { input: { gameId: id, typedMove, expectedVersion: seen.version + 1 } },
    token,
  );
  let badToken: string | undefined = "answered";
  try {
    await rules.request(LegalMovesDocument, { id }, "no-seat-has-this-token");
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    badToken = error.code;
  }
  const staleVersion = applyMove.__typename === "MoveRejected" ? applyMove.code : "applied";
  return { staleVersion, badToken };
}

async function main(): Promise<void> {
  const [url, seed = "sdk-ts"] = process.argv.slice(2);
  if (url === undefined) throw new Error("usage: node build/play.js GRAPHQL_URL [seed]");
  const rules = new RulesClient(url);
  const kinds = Object.keys(TABLES) as GameKind[];
  // One game after another: what the summary shows, not a load test.
  const games: Played[] = [];
  for (const kind of kinds) games.push(await playWhole(rules, kind, seed));
  const resigned = await resignOne(rules, seed);
  console.log(JSON.stringify({ games, resigned, refused: await refusals(rules, seed) }));
}

await main();
