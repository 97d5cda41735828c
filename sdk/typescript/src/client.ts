// The hand-written half of the SDK: send a typed document (src/generated/graphql.ts) and get its
// typed answer. Queries and mutations go over HTTP with fetch (node 20 and browsers have it),
// subscriptions over graphql-ws. Everything else is in the generated types.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print, type DocumentNode, type GraphQLFormattedError } from "graphql";
import { createClient } from "graphql-ws";
import WebSocket from "ws";

import type { TypedMoveInput } from "./generated/graphql.js";

/** A GraphQL error answer; `code` is the first error's `extensions.code` (e.g. NOT_FOUND). */
export class RulesError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly errors: readonly GraphQLFormattedError[],
    readonly status: number,
  ) {
    const code = errors[0]?.extensions?.["code"];
    super(errors.map((error) => error.message).join("; ") || `HTTP ${status}`);
    this.name = "RulesError";
    this.code = typeof code === "string" ? code : undefined;
  }
}

export interface RulesClientOptions {
  /** The tenant's API key (X-API-Key): seeded games in production, acting as a seat. */
  apiKey?: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
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

/** Where a seat token goes: the `authorization` header, and graphql-ws's connection_init. */
function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

export class RulesClient {
  readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly fetch: typeof fetch;

  /** `url` is the GraphQL endpoint, e.g. http://127.0.0.1:8000/graphql. */
  constructor(url: string, options: RulesClientOptions = {}) {
    this.url = url;
    this.apiKey = options.apiKey;
    // bound: a browser's fetch refuses to be called as another object's method
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** One query or mutation as the seat whose token is given (a spectator without one). */
  async request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    token?: string,
  ): Promise<TResult> {
    const response = await this.fetch(this.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
        ...(this.apiKey === undefined ? {} : { "x-api-key": this.apiKey }),
        ...bearer(token),
      },
      body: JSON.stringify({ query: text(document), variables }),
    });
    let answer: Answer<TResult>;
    try {
      answer = (await response.json()) as Answer<TResult>;
    } catch {
      // a proxy's error page, a cut connection: no GraphQL answer at all
      const message = `not a GraphQL answer (HTTP ${response.status})`;
      throw new RulesError([{ message }], response.status);
    }
    if (answer.errors !== undefined && answer.errors.length > 0) {
      throw new RulesError(answer.errors, response.status);
    }
    if (answer.data === undefined || answer.data === null) {
      throw new RulesError([{ message: `no data (HTTP ${response.status})` }], response.status);
    }
    return answer.data;
  }

  /**
   * A subscription's events, in order, until the server completes it (gameEvents: after the
   * FINISHED or ABANDONED event). Leaving the loop early closes the socket.
   */
  async *subscribe<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    token?: string,
  ): AsyncGenerator<TResult, void, undefined> {
    const socket = createClient({
      url: this.url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: bearer(token),
      retryAttempts: 0, // a resumer subscribes again with afterVersion = the last version seen
    });
    try {
      const events = socket.iterate<TResult>({
        query: text(document),
        variables: variables as Record<string, unknown>,
      });
      for await (const event of events) {
        if (event.errors !== undefined && event.errors.length > 0) {
          throw new RulesError(event.errors, 200);
        }
        if (event.data === undefined || event.data === null) {
          throw new RulesError([{ message: "an event without data" }], 200);
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
