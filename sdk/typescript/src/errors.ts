// Every failure the SDK surfaces is a RulesError with a typed `code`: the service's
// `extensions.code` (docs/api.md), a socket's close code by name, or one of the SDK's own.
import type { GraphQLFormattedError } from "graphql";

/** The codes the service answers (service/refusals.py as GraphQL names them, docs/api.md). */
export const SERVICE_ERROR_CODES = [
  // a refused decision; a MoveRejected's `code` (RejectCode) when a mutation answers it
  "ILLEGAL_MOVE",
  "MALFORMED_MOVE",
  "NOT_YOUR_TURN",
  "STALE_VERSION",
  "GAME_OVER",
  "UNAUTHORIZED",
  "NOT_FOUND",
  "IDEMPOTENCY_KEY_REUSED",
  "TAKEBACK_NOT_ALLOWED",
  // any other request refused
  "BAD_USER_INPUT",
  "FORBIDDEN",
  "GAME_NOT_OVER",
  "RULES_CHANGED",
  "UNREADABLE_RECORD",
  "GAME_FULL",
  "GAME_NOT_STARTED",
  "ALREADY_QUEUED",
  "NOT_QUEUED",
  // refused for now: the SDK retries these (src/retry.ts)
  "UNAVAILABLE",
  "UPGRADE_IN_PROGRESS",
  "RATE_LIMITED",
  "HINTS_BUSY",
  "HINT_TIMEOUT",
  // the request itself, before any resolver
  "BAD_REQUEST",
  "PAYLOAD_TOO_LARGE",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "INTERNAL_SERVER_ERROR",
  // subscriptions: an error message, or the socket's close code (4413, 4429)
  "TOO_MANY_SUBSCRIPTIONS",
  "SLOW_CONSUMER",
  "TOO_MANY_SOCKETS",
] as const;

/**
 * The SDK's own: an answer that is not GraphQL, a code newer than the SDK. No answer at all (the
 * service out of reach, a connection cut) is UNAVAILABLE, as the service's own "not now" and as
 * the Python SDK says it; the network's error is the RulesError's `cause`.
 */
export const CLIENT_ERROR_CODES = ["BAD_RESPONSE", "UNKNOWN"] as const;

export const ERROR_CODES = [...SERVICE_ERROR_CODES, ...CLIENT_ERROR_CODES] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && KNOWN.has(code);
}

export interface RulesErrorDetails {
  /** The GraphQL errors as answered (the first one's `extensions.code` is `code`). */
  errors?: readonly GraphQLFormattedError[];
  /** The HTTP status, or a socket's close code; 0 when nothing was answered. */
  status?: number;
  /** RATE_LIMITED: seconds to wait before asking again (extensions.retryAfter, Retry-After). */
  retryAfter?: number;
  /** What failed underneath: a network error, a close event. */
  cause?: unknown;
  /** The code as answered, when `code` is UNKNOWN. */
  rawCode?: string;
}

/** A request or subscription the service refused, or that could not reach it. */
export class RulesError extends Error {
  readonly code: ErrorCode;
  /** The code as answered: `code` is UNKNOWN for one newer than this SDK, this keeps it. */
  readonly rawCode: string;
  readonly errors: readonly GraphQLFormattedError[];
  readonly status: number;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, details: RulesErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "RulesError";
    this.code = code;
    this.rawCode = details.rawCode ?? code;
    this.errors = details.errors ?? [];
    this.status = details.status ?? 0;
    this.retryAfter = details.retryAfter;
  }

  /** A GraphQL error answer: the first error's `extensions.code` and `retryAfter`. */
  static fromErrors(
    errors: readonly GraphQLFormattedError[],
    status: number,
    retryAfter?: number,
  ): RulesError {
    const first = errors[0]?.extensions;
    const code = first?.["code"];
    const after = first?.["retryAfter"];
    const message = errors.map((error) => error.message).join("; ") || `HTTP ${status}`;
    return new RulesError(isErrorCode(code) ? code : "UNKNOWN", message, {
      errors,
      status,
      retryAfter: typeof after === "number" ? after : retryAfter,
      ...(typeof code === "string" ? { rawCode: code } : {}),
    });
  }
}

// The close codes a socket may end with, by name (docs/api.md, "Live updates"; graphql-ws's).
const CLOSE_CODES: Record<number, ErrorCode> = {
  4400: "BAD_REQUEST",
  4401: "UNAUTHORIZED",
  4403: "FORBIDDEN",
  4413: "SLOW_CONSUMER",
  4429: "TOO_MANY_SOCKETS",
  4500: "INTERNAL_SERVER_ERROR",
};

/** A close event's shape, whatever WebSocket made it (a browser's, ws's). */
interface Closed {
  code: number;
  reason?: string;
}

function isClosed(value: unknown): value is Closed {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "code") === "number";
}

/** Whatever a subscription or a fetch threw, as a RulesError. */
export function asRulesError(thrown: unknown): RulesError {
  if (thrown instanceof RulesError) return thrown;
  if (Array.isArray(thrown)) return RulesError.fromErrors(thrown as GraphQLFormattedError[], 200);
  if (isClosed(thrown)) {
    // the service names the code first in the reason: "SLOW_CONSUMER: fell too far behind"
    const reason = thrown.reason ?? "";
    const named = reason.split(":")[0];
    const code = isErrorCode(named) ? named : (CLOSE_CODES[thrown.code] ?? "UNAVAILABLE");
    const said = reason === "" ? `the socket closed (${thrown.code})` : reason;
    return new RulesError(code, said, { status: thrown.code, cause: thrown });
  }
  const message = thrown instanceof Error ? thrown.message : "the connection failed";
  return new RulesError("UNAVAILABLE", message, { cause: thrown });
}
