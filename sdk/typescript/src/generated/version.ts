// Written by scripts/stamp-schema.mjs (npm run generate): do not edit.
export const SDK_VERSION = "0.5.0";
/** The SHA-256 of the schema/schema.graphql this SDK was generated from. */
export const SCHEMA_SHA256 = "8c0f53c9e6d4bb05dc369989758611c3881ecb65829e53bc646f94124fbc4173";
