// RATE_LIMITED honoured: a webhook endpoint's manual test events are bounded (10 a minute); the
// one past the bound is a RulesError with `retryAfter`, and a retrying client waits exactly that
// long and gets through. Prints one JSON summary (tests/clients/test_typescript_resilience.py).
// usage: node rate.mjs SDK_INDEX_JS SERVICE_URL HOOK_URL
import { pathToFileURL } from "node:url";

const [index, service, hook] = process.argv.slice(2);
const { Rules, RulesError } = await import(pathToFileURL(index).href);

const once = new Rules(`${service}/graphql`, { retry: { retries: 0 } });
const { endpoint } = await once.createWebhookEndpoint(hook, { description: "rate" });
let refused = null;
let sent = 0;
while (refused === null && sent < 100) {
  try {
    await once.sendTestWebhookEvent(endpoint.id);
    sent += 1;
  } catch (error) {
    refused = {
      rulesError: error instanceof RulesError,
      code: error.code,
      retryAfter: error.retryAfter,
    };
  }
}
const waits = [];
const patient = new Rules(`${service}/graphql`, {
  onRetry: (error, attempt, waitMs) => waits.push({ code: error.code, attempt, waitMs }),
});
const started = performance.now();
const eventId = await patient.sendTestWebhookEvent(endpoint.id);
const elapsedMs = performance.now() - started;
await once.deleteWebhookEndpoint(endpoint.id);
console.log(JSON.stringify({ sent, refused, waits, elapsedMs, eventId: typeof eventId }));
