// The transport under the SDK: send a typed document (src/generated/graphql.ts) and get its typed
// answer. Queries and mutations go over HTTP with fetch (Node 20, browsers and React Native have
// it), retried by a RetryPolicy; subscriptions over graphql-ws on the platform's WebSocket (ws on
// Node). Every failure is a RulesError. src/rules.ts is the short-named API over this.
import { webSocketImpl } from "#websocket";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Kind, print, type DocumentNode, type GraphQLFormattedError } from "graphql";
import { createClient } from "graphql-ws";

import { RulesError, asRulesError } from "./errors.js";
import type { TypedMoveInput } from "./generated/graphql.js";
import { DEFAULT_RETRY, delayMs, retriable, sleep, type RetryPolicy } from "./retry.js";

export interface RulesClientOptions {
  /** The tenant's API key, sent as X-API-Key: the secret alone, not `tenant:secret`. */
  apiKey?: string;
  /** A seat token for every call that names none (Authorization: Bearer). */
  token?: string;
  /** A language tag (`fr`, `en-XA`) for texts and refusals' messages (Accept-Language). */
  language?: string;
  /** When and how long to retry; `{ retries: 0 }` turns retrying off. */
  retry?: Partial<RetryPolicy>;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
  /** Another WebSocket class; the platform's by default (`ws` on Node 20). */
  webSocket?: unknown;
  /** Told before each retry (a request's, or a subscription's resume): for logs and metrics. */
  onRetry?: (error: RulesError, attempt: number, waitMs: number) => void;
}

export interface CallOptions {
  /** The seat token to act with; the client's own without one. */
  token?: string;
  /** Whether sending it twice does no harm (a query, a mutation with its idempotency key). */
  safe?: boolean;
  signal?: AbortSignal;
}

interface Answer<T> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
}

const printed = new WeakMap<DocumentNode, string>();

function text(document: DocumentNode): string {
  let query = printed.get(document);
  if (query === undefined) {
    query = print(document);
    printed.set(document, query);
  }
  return query;
}

function isQuery(document: DocumentNode): boolean {
  const operation = document.definitions.find((node) => node.kind === Kind.OPERATION_DEFINITION);
  return operation?.kind === Kind.OPERATION_DEFINITION && operation.operation === "query";
}

/** Where a seat token goes: the `authorization` header, and graphql-ws's connection_init. */
function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** The tenant's key: on every request, and on a socket's upgrade where the platform can. */
function apiKeyHeader(apiKey: string | undefined): Record<string, string> {
  return apiKey === undefined ? {} : { "x-api-key": apiKey };
}

function seconds(header: string | null): number | undefined {
  const value = header === null ? NaN : Number(header);
  return Number.isFinite(value) ? value : undefined;
}

export class RulesClient {
  readonly url: string;
  readonly retry: RetryPolicy;
  readonly options: Readonly<RulesClientOptions>;
  private readonly fetch: typeof fetch;

  /** `url` is the GraphQL endpoint, e.g. http://127.0.0.1:8000/graphql. */
  constructor(url: string, options: RulesClientOptions = {}) {
    this.url = url;
    this.options = options;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    // bound: a browser's fetch refuses to be called as another object's method
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The same client acting with another seat token (or API key, or language). */
  with(options: RulesClientOptions): RulesClient {
    return new RulesClient(this.url, { ...this.options, ...options });
  }

  /**
   * One query or mutation. A refusal the service asks to retry (UPGRADE_IN_PROGRESS,
   * RATE_LIMITED after its retryAfter, ...) is sent again, the very same variables each time;
   * a network error or UNAVAILABLE only when the call is safe to repeat (src/retry.ts).
   */
  async request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    options: string | CallOptions = {},
  ): Promise<TResult> {
    const call = typeof options === "string" ? { token: options } : options;
    const safe = call.safe ?? isQuery(document);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.send(document, variables, call.token ?? this.options.token, call.signal);
      } catch (thrown) {
        const error = asRulesError(thrown);
        const wait = retriable(error, safe) ? delayMs(this.retry, attempt, error) : undefined;
        if (wait === undefined) throw error;
        this.options.onRetry?.(error, attempt, wait);
        await sleep(wait, call.signal);
      }
    }
  }

  private async send<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TResult> {
    const { apiKey, language } = this.options;
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          ...apiKeyHeader(apiKey),
          ...(language === undefined ? {} : { "accept-language": language }),
          ...bearer(token),
        },
        body: JSON.stringify({ query: text(document), variables }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (thrown) {
      if (signal?.aborted) throw thrown;
      const message = thrown instanceof Error ? thrown.message : "fetch failed";
      throw new RulesError("UNAVAILABLE", `${message} (${this.url})`, { cause: thrown });
    }
    let answer: Answer<TResult>;
    try {
      answer = (await response.json()) as Answer<TResult>;
    } catch (thrown) {
      // a proxy's error page, a connection cut mid-answer: no GraphQL answer at all
      const lost = response.status >= 502 && response.status <= 504;
      const message = `not a GraphQL answer (HTTP ${response.status})`;
      throw new RulesError(lost ? "UNAVAILABLE" : "BAD_RESPONSE", message, {
        status: response.status,
        cause: thrown,
      });
    }
    if (answer.errors !== undefined && answer.errors.length > 0) {
      const retryAfter = seconds(response.headers.get("retry-after"));
      throw RulesError.fromErrors(answer.errors, response.status, retryAfter);
    }
    if (answer.data === undefined || answer.data === null) {
      const message = `no data (HTTP ${response.status})`;
      throw new RulesError("BAD_RESPONSE", message, { status: response.status });
    }
    return answer.data;
  }

  /**
   * A subscription's events on one socket, in order, until the server completes it (gameEvents:
   * after the FINISHED or ABANDONED event). Leaving the loop early closes the socket. Its end
   * by any error is a RulesError; `Rules.events` resumes after a dropped socket.
   */
  async *subscribe<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    token?: string,
  ): AsyncGenerator<TResult, void, undefined> {
    const socket = createClient({
      url: this.url.replace(/^http/, "ws"),
      webSocketImpl: this.options.webSocket ?? webSocketImpl(apiKeyHeader(this.options.apiKey)),
      connectionParams: bearer(token ?? this.options.token),
      retryAttempts: 0, // Rules.events resumes with afterVersion = the last version seen
    });
    try {
      const events = socket.iterate<TResult>({
        query: text(document),
        variables: variables as Record<string, unknown>,
      });
      for (;;) {
        let step: IteratorResult<{ data?: TResult | null; errors?: readonly unknown[] }>;
        try {
          step = await events.next();
        } catch (thrown) {
          throw asRulesError(thrown);
        }
        if (step.done) return;
        const event = step.value;
        if (event.errors !== undefined && event.errors.length > 0) {
          throw RulesError.fromErrors(event.errors as GraphQLFormattedError[], 200);
        }
        if (event.data === undefined || event.data === null) {
          throw new RulesError("BAD_RESPONSE", "an event without data");
        }
        yield event.data;
      }
    } finally {
      await socket.dispose();
    }
  }
}

/**
 * A legal move's `typedMoveInput` as `applyMove`'s `typedMove`. The schema gives it as JSON (an
 * output field cannot have an input type); the server promises a TypedMoveInput value: one
 * field, named for the move, holding the move's fields or `true`. This checks that shape.
 */
export function asTypedMoveInput(value: unknown): TypedMoveInput {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`not a typed move: ${JSON.stringify(value)}`);
  }
  const fields = Object.entries(value);
  const only = fields[0];
  const fits = only !== undefined && (only[1] === true || typeof only[1] === "object");
  if (fields.length !== 1 || !fits) {
    throw new TypeError(`a typed move has exactly one field: ${JSON.stringify(value)}`);
  }
  return value as TypedMoveInput;
}

export { RulesError };
