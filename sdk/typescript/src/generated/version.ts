// Written by scripts/stamp-schema.mjs (npm run generate): do not edit.
export const SDK_VERSION = "0.3.0";
/** The SHA-256 of the schema/schema.graphql this SDK was generated from. */
export const SCHEMA_SHA256 = "3785c10c54423d352ad9f9b1440fafd7946a7315869c65731fd0c49c11ed03e0";
