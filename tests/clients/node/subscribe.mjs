// The reference graphql-ws client follows one game: prints each gameEvents payload as a JSON
// line and exits 0 when the server completes the subscription (non-zero on any error).
// usage: node subscribe.mjs ws://host:port/graphql GAME_ID [SEAT_TOKEN]
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const [url, gameId, token] = process.argv.slice(2);
const client = createClient({
  url,
  webSocketImpl: WebSocket,
  connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  retryAttempts: 0,
});
const query = "subscription ($id: ID!) { gameEvents(gameId: $id) { gameId version status } }";
client.subscribe(
  { query, variables: { id: gameId } },
  {
    next: (result) => console.log(JSON.stringify(result)),
    error: (error) => {
      console.error("subscription error:", error instanceof Error ? error.message : error);
      process.exit(1);
    },
    complete: () => client.dispose().then(() => process.exit(0)),
  },
);
