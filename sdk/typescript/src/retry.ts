// When a call is tried again, and how long to wait first: exponential backoff with full jitter,
// or the service's own `retryAfter` when it names one.
import type { ErrorCode, RulesError } from "./errors.js";

export interface RetryPolicy {
  /** Tries after the first; 0 turns retrying off. */
  retries: number;
  /** The first wait's upper bound; each further wait doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A RATE_LIMITED whose retryAfter is longer than this fails at once instead of waiting. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Refused before anything changed, and worth asking again shortly (docs/api.md, section 4). */
const REFUSED_FOR_NOW: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "UPGRADE_IN_PROGRESS",
  "RATE_LIMITED",
  "HINTS_BUSY",
  "HINT_TIMEOUT",
  "TOO_MANY_SOCKETS",
]);

/**
 * Whether a failed call may be sent again. A call that is `safe` to repeat (a query, or a
 * mutation carrying its idempotency key) is retried after UNAVAILABLE (also no answer) too,
 * which may come after the service applied it; any other only when the service refused it
 * before doing anything.
 */
export function retriable(error: RulesError, safe: boolean): boolean {
  if (REFUSED_FOR_NOW.has(error.code)) return true;
  return safe && error.code === "UNAVAILABLE";
}

/** How long to wait before try number `attempt` (1 for the first retry); undefined: give up. */
export function delayMs(policy: RetryPolicy, attempt: number, error: RulesError): number | undefined {
  if (attempt > policy.retries) return undefined;
  if (error.retryAfter !== undefined) {
    const asked = error.retryAfter * 1000;
    return asked > policy.maxRetryAfterMs ? undefined : asked;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** A fresh idempotency key (a UUID): crypto.randomUUID where there is one (Node, browsers). */
export function newIdempotencyKey(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (crypto?.randomUUID !== undefined) return crypto.randomUUID();
  // React Native has no crypto without a polyfill; a key only has to be unique per seat
  const hex = (digits: number): string =>
    Array.from({ length: digits }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}
