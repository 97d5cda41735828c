// The package's entry: `Rules` and its short-named types, the typed errors, the retry policy,
// and the lower layer (RulesClient, the generated documents) for operations of one's own.
export * from "./rules.js";
export type * from "./types.js";
export {
  CLIENT_ERROR_CODES,
  ERROR_CODES,
  RulesError,
  SERVICE_ERROR_CODES,
  asRulesError,
  type ErrorCode,
  type RulesErrorDetails,
} from "./errors.js";
export { DEFAULT_RETRY, newIdempotencyKey, type RetryPolicy } from "./retry.js";
export { RulesClient, asTypedMoveInput, type CallOptions, type RulesClientOptions } from "./client.js";
export { SCHEMA_SHA256, SDK_VERSION } from "./generated/version.js";
