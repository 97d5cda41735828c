// The package's version follows the schema it was generated from: when schema/schema.graphql
// changes, `npm run generate` (make sdk-typescript) bumps the minor version (in package.json and
// package-lock.json) and records the schema's SHA-256 in package.json and
// src/generated/version.ts; a test fails while they differ.
// RULES_SCHEMA names another schema file, as for codegen.ts.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const schema = readFileSync(
  process.env.RULES_SCHEMA ?? new URL("../../../schema/schema.graphql", import.meta.url),
);
const sha256 = createHash("sha256").update(schema).digest("hex");
const manifest = new URL("../package.json", import.meta.url);
const pkg = JSON.parse(readFileSync(manifest, "utf8"));
if (pkg.schemaSha256 !== sha256) {
  const [major, minor] = pkg.version.split(".").map(Number);
  pkg.version = `${major}.${minor + 1}.0`;
  pkg.schemaSha256 = sha256;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  // the lock names the package's version twice: npm ci refuses a lock out of step
  const lockFile = new URL("../package-lock.json", import.meta.url);
  const lock = JSON.parse(readFileSync(lockFile, "utf8"));
  lock.version = pkg.version;
  lock.packages[""].version = pkg.version;
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
}
const module = `// Written by scripts/stamp-schema.mjs (npm run generate): do not edit.
export const SDK_VERSION = ${JSON.stringify(pkg.version)};
/** The SHA-256 of the schema/schema.graphql this SDK was generated from. */
export const SCHEMA_SHA256 = ${JSON.stringify(sha256)};
`;
writeFileSync(new URL("../src/generated/version.ts", import.meta.url), module);
console.log(`tree-games-rules-sdk ${pkg.version} for schema ${sha256.slice(0, 12)}`);
