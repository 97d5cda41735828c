// A fresh app using the SDK as installed from its npm pack tarball: plays a whole game of
// Treelings against a service that needs an API key (RULES_API_KEY), following its events.
// Prints one JSON summary (tests/clients/test_typescript_package.py checks it).
// usage: RULES_API_KEY=SECRET node packaged_game.mjs GRAPHQL_URL
import { createRequire } from "node:module";

import { Rules, SDK_VERSION } from "tree-games-rules-sdk";

const [graphql] = process.argv.slice(2);
const rules = new Rules(graphql, { apiKey: process.env.RULES_API_KEY });
const created = await rules.createGame({ kind: "TREELINGS", players: 2 });
const id = created.game.id;
const tokens = new Map(created.seats.map((seat) => [seat.seat, seat.token]));
const versions = [];
let pseudo = null; // a label in en-XA, the pseudo-locale: ⟦accented words⟧
let status = created.game.status;
for await (const event of rules.events(id, { token: tokens.get(0) })) {
  versions.push(event.version);
  status = event.status;
  if (event.status !== "ACTIVE") continue;
  const token = tokens.get(event.game.toAct[0]);
  const legal = await rules.legalMoves(id, { token, language: "en-XA" });
  if (legal.version !== event.version) continue;
  pseudo ??= { label: legal.legalMoves[0].label, text: legal.legalMoves[0].labelMessage.text };
  await rules.applyMove(id, legal.legalMoves[0], { expectedVersion: legal.version, token });
}
const scores = await rules.scores(id);
const listed = await rules.games({ kind: "TREELINGS" }, { first: 100 });
const installed = createRequire(import.meta.url)("tree-games-rules-sdk/package.json").version;
console.log(
  JSON.stringify({
    status,
    versions,
    final: scores.scores.final,
    listed: listed.edges.some((edge) => edge.node.id === id),
    pseudo,
    sdkVersion: SDK_VERSION,
    installed,
  }),
);
