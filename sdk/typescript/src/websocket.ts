// The WebSocket of the platform: browsers and React Native have one. A bundler takes this module
// (package.json "imports", "#websocket": every condition but "node"), so `ws` is never bundled.
// A browser's WebSocket sends no headers of ours: a tenant's API key stays on its backend.
export function webSocketImpl(_headers: Record<string, string> = {}): unknown {
  return (globalThis as { WebSocket?: unknown }).WebSocket;
}
