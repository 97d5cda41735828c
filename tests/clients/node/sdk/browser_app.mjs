// A browser app's use of the TypeScript SDK, bundled by esbuild --platform=browser
// (tests/clients/test_typescript_browser.py): it follows a game's events over the page's own
// WebSocket while playing both seats, and meets a refused subscription as a RulesError.
import { Rules, RulesError } from "tree-games-rules-sdk";

window.playAndFollow = async (graphql) => {
  const rules = new Rules(graphql);
  const created = await rules.createGame({ kind: "TREELINGS", players: 2 });
  const id = created.game.id;
  const tokens = new Map(created.seats.map((seat) => [seat.seat, seat.token]));
  const versions = [];
  let status = created.game.status;
  for await (const event of rules.events(id, { token: tokens.get(0) })) {
    versions.push(event.version);
    status = event.status;
    if (event.status !== "ACTIVE") continue;
    const token = tokens.get(event.game.toAct[0]);
    const legal = await rules.legalMoves(id, { token });
    if (legal.version !== event.version) continue;
    await rules.applyMove(id, legal.legalMoves[0], { expectedVersion: legal.version, token });
  }
  const history = (await rules.history(id)).history.length;
  let refused = null;
  try {
    for await (const event of rules.events("no-such-game")) void event;
  } catch (error) {
    refused = { rulesError: error instanceof RulesError, code: error.code };
  }
  return { versions, status, history, refused };
};
