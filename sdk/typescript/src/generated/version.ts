// Written by scripts/stamp-schema.mjs (npm run generate): do not edit.
export const SDK_VERSION = "0.2.0";
/** The SHA-256 of the schema/schema.graphql this SDK was generated from. */
export const SCHEMA_SHA256 = "8215ba9d8c54fdd4eb3da0ec344c0813f3f9508b44a48bc5c196b96d3e1c144c";
