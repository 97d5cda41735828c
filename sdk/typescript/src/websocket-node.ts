// Node ("#websocket" under the "node" condition): the platform's WebSocket where Node has one
// (22 and later), else the `ws` package.
import WebSocket from "ws";

export function webSocketImpl(): unknown {
  return (globalThis as { WebSocket?: unknown }).WebSocket ?? WebSocket;
}
