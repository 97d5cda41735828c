// A TypeScript app's view of the installed package: its .d.ts type the short names.
import { Rules, RulesError, type ErrorCode, type GameEvent, type MoveResult } from "tree-games-rules-sdk";

export async function firstVersion(rules: Rules, gameId: string): Promise<number | ErrorCode> {
  try {
    for await (const event of rules.events(gameId)) {
      const seen: GameEvent = event;
      return seen.version;
    }
    return -1;
  } catch (error) {
    if (error instanceof RulesError) return error.code;
    throw error;
  }
}

export function rejected(result: MoveResult): string | null {
  return result.__typename === "MoveRejected" ? result.code : null;
}
