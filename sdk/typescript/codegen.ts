// graphql-codegen: the published schema and operations.graphql into one module of typed
// documents, src/generated/graphql.ts (committed). `make sdk-typescript` runs it; the test runs
// it with `--check`, which fails when the committed module is stale. RULES_SCHEMA names another
// schema file (a checkout whose schema/ holds someone's uncommitted `make schema`).
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: process.env["RULES_SCHEMA"] ?? "../../schema/schema.graphql",
  documents: ["operations.graphql"],
  generates: {
    "src/generated/graphql.ts": {
      plugins: ["typescript-operations", "typed-document-node"],
      config: {
        // Every scalar mapped: a new one must be given a type here, not become `any`.
        strictScalars: true,
        scalars: {
          // Any JSON value: a reader narrows it before use.
          JSON: "unknown",
          // ISO 8601 on the wire (GameClock.deadline, GameFilter.createdAfter).
          DateTime: "string",
        },
        // Only the inputs and enums the operations use, not every output type of the schema.
        onlyOperationTypes: true,
        enumsAsTypes: true,
        useTypeImports: true,
        // Leaves out `__typename` where the document does not ask for it.
        skipTypename: true,
      },
    },
  },
};

export default config;
