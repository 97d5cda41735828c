// The WebSocket of the platform: browsers and React Native have one. A bundler takes this module
// (package.json "imports", "#websocket": every condition but "node"), so `ws` is never bundled.
export function webSocketImpl(): unknown {
  return (globalThis as { WebSocket?: unknown }).WebSocket;
}
