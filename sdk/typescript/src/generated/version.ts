// Written by scripts/stamp-schema.mjs (npm run generate): do not edit.
export const SDK_VERSION = "0.4.0";
/** The SHA-256 of the schema/schema.graphql this SDK was generated from. */
export const SCHEMA_SHA256 = "8baf19f0679ea86ca7895e62a3d9b0fb9f69c050913b844aabc7eaed7f472789";
