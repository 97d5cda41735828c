// Node ("#websocket" under the "node" condition): the `ws` package, which also sends headers on
// the upgrade request (the tenant's X-API-Key, for playerEvents).
import WebSocket from "ws";

export function webSocketImpl(headers: Record<string, string> = {}): unknown {
  if (Object.keys(headers).length === 0) return WebSocket;
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  };
}
