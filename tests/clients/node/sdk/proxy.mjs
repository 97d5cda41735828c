// A TCP proxy on loopback in front of the service, for cutting connections on purpose: `cut()`
// destroys every connection through it (a dropped socket: the client sees close 1006), and
// `dropNextAnswer()` lets the next request reach the service but destroys its connection as the
// answer starts (the request was applied, the client never hears so).
import net from "node:net";

export async function startProxy(target) {
  const { hostname, port } = new URL(target);
  const open = new Set();
  let dropArmed = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    open.add(client);
    open.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (dropArmed) {
        dropArmed = false;
        close();
        return;
      }
      client.write(chunk);
    });
    for (const side of [client, upstream]) {
      side.on("error", close);
      side.on("close", close);
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    dropNextAnswer() {
      dropArmed = true;
    },
    async close() {
      this.cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
