// The SDK's public API: one method per operation of the service, short names, typed answers.
// Each method sends one document of src/generated/graphql.ts through RulesClient (retries,
// typed errors); `events` follows a game and resumes by itself after a dropped socket.
import { RulesClient, asTypedMoveInput, type RulesClientOptions } from "./client.js";
import { RulesError, asRulesError } from "./errors.js";
import * as ops from "./generated/graphql.js";
import { delayMs, newIdempotencyKey, sleep } from "./retry.js";

import type {
  AbandonResult,
  Challenge,
  ChallengeDeclined,
  CreatedGame,
  Game,
  GameEvent,
  GameInfo,
  GamePage,
  GameView,
  History,
  JoinedGame,
  Language,
  LeftGame,
  LegalMoves,
  Lobby,
  MatchmakingStatus,
  MoveResult,
  MoveValidation,
  PendingChallenge,
  PlayerToken,
  PlayerTokensRevoked,
  Rating,
  RatingPage,
  RatingPolicy,
  RecordVerification,
  Rematch,
  RematchDeclined,
  RematchSeat,
  ResignResult,
  Scores,
  SeatCredential,
  SeedReveal,
  SigningKey,
  Suggestion,
  TakebackAnswer,
  TakebackResult,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointDetail,
  WebhookEndpointWithSecret,
  WebhookEventPage,
} from "./types.js";

/** Who a call acts as: a seat's token, or the tenant (API key) acting for a human seat. */
export interface As {
  token?: string;
  asSeat?: number;
  /** This call's texts in another language than the client's. */
  language?: string;
}

/** A decision's guards: the version it was chosen at, and its idempotency key. */
export interface Guarded extends As {
  expectedVersion?: number;
  /** Made once per call when left out, and sent again unchanged on every retry. */
  idempotencyKey?: string;
}

export interface EventsOptions {
  /** Every version after this one; without it the current version first. */
  afterVersion?: number;
  token?: string;
  /** Stops following (between events or while waiting to resume). */
  signal?: AbortSignal;
}

/** A move to send: a TypedMoveInput, or a legal move or suggestion as read. */
export type MoveToSend = ops.TypedMoveInput | { typedMoveInput: unknown };

function typed(move: MoveToSend): ops.TypedMoveInput {
  return "typedMoveInput" in move ? asTypedMoveInput(move.typedMoveInput) : move;
}

/** Codes after which a socket is worth opening again: the game goes on, the socket did not. */
const RESUMABLE: ReadonlySet<string> = new Set([
  "SLOW_CONSUMER",
  "TOO_MANY_SOCKETS",
  "RATE_LIMITED",
  "UNAVAILABLE",
  "UPGRADE_IN_PROGRESS",
]);

export class Rules {
  readonly client: RulesClient;

  /** `url` is the GraphQL endpoint, e.g. http://127.0.0.1:8000/graphql. */
  constructor(url: string | RulesClient, options: RulesClientOptions = {}) {
    this.client = typeof url === "string" ? new RulesClient(url, options) : url;
  }

  /** The same service as another seat (its token), another tenant or in another language. */
  with(options: RulesClientOptions): Rules {
    return new Rules(this.client.with(options));
  }

  /**
   * The same service acting with this token: a seat's (from createGame, joinGame, a match), or
   * a player's (issuePlayerToken), which plays every seat of its player and acts for it in
   * matchmaking, challenges and rematches without a `playerId`.
   */
  withToken(token: string): Rules {
    return this.with({ token });
  }

  private language(as: As): { language?: string } {
    const language = as.language ?? this.client.options.language;
    return language === undefined ? {} : { language };
  }

  async catalog(): Promise<GameInfo[]> {
    return (await this.client.request(ops.CatalogDocument, {})).catalog;
  }

  /** Not retried after a network error: a second create would be a second game. */
  async createGame(input: ops.CreateGameInput): Promise<CreatedGame> {
    return (await this.client.request(ops.CreateGameDocument, { input })).createGame;
  }

  /** The game as the caller's seat sees it (a spectator's view without a token); null: none. */
  async game(id: string, as: As = {}): Promise<Game | null> {
    const variables = { id, asSeat: as.asSeat, ...this.language(as) };
    return (await this.client.request(ops.GameDocument, variables, { token: as.token })).game;
  }

  /** The view as of an earlier version (0 up to the game's), for the same viewer; null: no game. */
  async viewAt(id: string, version: number, as: As = {}): Promise<GameView | null> {
    const variables = { id, version, asSeat: as.asSeat };
    const { game } = await this.client.request(ops.ViewAtDocument, variables, { token: as.token });
    return game === null ? null : game.viewAt;
  }

  async legalMoves(id: string, as: As = {}): Promise<LegalMoves | null> {
    const variables = { id, asSeat: as.asSeat, ...this.language(as) };
    return (await this.client.request(ops.LegalMovesDocument, variables, { token: as.token })).game;
  }

  /** A dry run of applyMove: would it be accepted now, and if not, the exact code. */
  async validateMove(gameId: string, move: MoveToSend, as: As = {}): Promise<MoveValidation> {
    const variables = { gameId, typedMove: typed(move), asSeat: as.asSeat, ...this.language(as) };
    return (await this.client.request(ops.ValidateMoveDocument, variables, { token: as.token }))
      .validateMove;
  }

  /** A hint for the caller's seat; HINTS_BUSY and HINT_TIMEOUT are retried. */
  async suggestMove(
    gameId: string,
    strategy: ops.Strategy,
    options: As & { budgetMs?: number; iterations?: number; seed?: number } = {},
  ): Promise<Suggestion> {
    const { token, asSeat, budgetMs, iterations, seed } = options;
    const variables = { gameId, strategy, asSeat, budgetMs, iterations, seed };
    return (await this.client.request(ops.SuggestMoveDocument, variables, { token }))
      .suggestMove;
  }

  /**
   * One decision. A refusal by the rules is a MoveRejected value; any other failure a
   * RulesError. Retried with the same idempotency key, so it is applied at most once.
   */
  async applyMove(gameId: string, move: MoveToSend, guard: Guarded = {}): Promise<MoveResult> {
    const input: ops.ApplyMoveInput = {
      gameId,
      typedMove: typed(move),
      expectedVersion: guard.expectedVersion,
      idempotencyKey: guard.idempotencyKey ?? newIdempotencyKey(),
      asSeat: guard.asSeat,
    };
    const variables = { input, ...this.language(guard) };
    const call = { token: guard.token, safe: true };
    return (await this.client.request(ops.ApplyMoveDocument, variables, call)).applyMove;
  }

  async resign(gameId: string, guard: Omit<Guarded, "idempotencyKey"> = {}): Promise<ResignResult> {
    const { token, asSeat, expectedVersion } = guard;
    const variables = { gameId, expectedVersion, asSeat };
    return (await this.client.request(ops.ResignDocument, variables, { token })).resign;
  }

  /** The game's tenant (API key) calls it off: ABANDONED, no winners. */
  async abandonGame(gameId: string): Promise<AbandonResult> {
    return (await this.client.request(ops.AbandonGameDocument, { gameId })).abandonGame;
  }

  async requestTakeback(gameId: string, guard: Guarded = {}): Promise<TakebackResult> {
    const { token, asSeat, expectedVersion } = guard;
    const idempotencyKey = guard.idempotencyKey ?? newIdempotencyKey();
    const variables = { gameId, expectedVersion, idempotencyKey, asSeat };
    const call = { token, safe: true };
    return (await this.client.request(ops.RequestTakebackDocument, variables, call))
      .requestTakeback;
  }

  async answerTakeback(
    gameId: string,
    accept: boolean,
    guard: Guarded = {},
  ): Promise<TakebackAnswer> {
    const { token, asSeat, expectedVersion } = guard;
    const idempotencyKey = guard.idempotencyKey ?? newIdempotencyKey();
    const variables = { gameId, accept, expectedVersion, idempotencyKey, asSeat };
    const call = { token, safe: true };
    return (await this.client.request(ops.AnswerTakebackDocument, variables, call))
      .answerTakeback;
  }

  /** The game's tenant gets a new token for a human seat; the old one stops working at once. */
  async reissueSeatToken(gameId: string, seat: number): Promise<SeatCredential> {
    const variables = { gameId, seat };
    return (await this.client.request(ops.ReissueSeatTokenDocument, variables)).reissueSeatToken;
  }

  async scores(id: string, as: As = {}): Promise<Scores | null> {
    const variables = { id, ...this.language(as) };
    return (await this.client.request(ops.ScoresDocument, variables, { token: as.token })).game;
  }

  /** Applied decisions after version `after` (all without it), oldest first. */
  async history(id: string, options: As & { after?: number } = {}): Promise<History | null> {
    const variables = { id, after: options.after, ...this.language(options) };
    return (await this.client.request(ops.HistoryDocument, variables, { token: options.token })).game;
  }

  /** Once the game is over: the seed, its salt and the options, hashing to the commitment. */
  async seedReveal(id: string): Promise<SeedReveal | null> {
    return (await this.client.request(ops.SeedRevealDocument, { id })).game;
  }

  /** A game that is over as one portable game record (GAME_NOT_OVER before). */
  async exportGame(gameId: string): Promise<unknown> {
    return (await this.client.request(ops.ExportGameDocument, { gameId })).exportGame;
  }

  async verifyGameRecord(record: unknown): Promise<RecordVerification> {
    return (await this.client.request(ops.VerifyGameRecordDocument, { record })).verifyGameRecord;
  }

  async recordSigningKeys(): Promise<SigningKey[]> {
    return (await this.client.request(ops.RecordSigningKeysDocument, {})).recordSigningKeys;
  }

  /** The tenant's games (API key), newest first: a page, and `pageInfo.endCursor` for the next. */
  async games(
    filter: ops.GameFilter = {},
    page: { first?: number; after?: string } = {},
  ): Promise<GamePage> {
    const variables = { filter, first: page.first ?? 20, after: page.after };
    return (await this.client.request(ops.GamesDocument, variables)).games;
  }

  async webhookEndpoints(): Promise<WebhookEndpoint[]> {
    return (await this.client.request(ops.WebhookEndpointsDocument, {})).webhookEndpoints;
  }

  /** An endpoint with its last `last` deliveries and given-up events; null: none. */
  async webhookEndpoint(id: string, last = 20): Promise<WebhookEndpointDetail | null> {
    return (await this.client.request(ops.WebhookEndpointDocument, { id, last })).webhookEndpoint;
  }

  async webhookEvents(
    page: { first?: number; after?: string; types?: ops.WebhookEventType[] } = {},
  ): Promise<WebhookEventPage> {
    const variables = { first: page.first ?? 20, after: page.after, types: page.types };
    return (await this.client.request(ops.WebhookEventsDocument, variables)).webhookEvents;
  }

  /** A new endpoint; its secret is in this answer only. */
  async createWebhookEndpoint(
    url: string,
    options: { events?: ops.WebhookEventType[]; description?: string } = {},
  ): Promise<WebhookEndpointWithSecret> {
    const variables = { url, ...options };
    return (await this.client.request(ops.CreateWebhookEndpointDocument, variables))
      .createWebhookEndpoint;
  }

  async updateWebhookEndpoint(
    id: string,
    changes: WebhookEndpointChanges,
  ): Promise<WebhookEndpoint> {
    const variables = { id, ...changes };
    return (await this.client.request(ops.UpdateWebhookEndpointDocument, variables))
      .updateWebhookEndpoint;
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    return (await this.client.request(ops.DeleteWebhookEndpointDocument, { id }))
      .deleteWebhookEndpoint;
  }

  /** A new secret (the old one signs 24 h more); retried with the same key, one new secret. */
  async rotateWebhookSecret(
    id: string,
    idempotencyKey: string = newIdempotencyKey(),
  ): Promise<WebhookEndpointWithSecret> {
    const variables = { id, idempotencyKey };
    return (await this.client.request(ops.RotateWebhookSecretDocument, variables, { safe: true }))
      .rotateWebhookSecret;
  }

  async redeliverWebhookEvent(endpointId: string, eventId: string): Promise<boolean> {
    const variables = { endpointId, eventId };
    return (await this.client.request(ops.RedeliverWebhookEventDocument, variables))
      .redeliverWebhookEvent;
  }

  async retryWebhookEvent(endpointId: string, eventId: string): Promise<boolean> {
    const variables = { endpointId, eventId };
    return (await this.client.request(ops.RetryWebhookEventDocument, variables))
      .retryWebhookEvent;
  }

  /** Sends a signed webhook.test; its event id. */
  async sendTestWebhookEvent(endpointId: string): Promise<string> {
    return (await this.client.request(ops.SendTestWebhookEventDocument, { endpointId }))
      .sendTestWebhookEvent;
  }

  /**
   * The game's events: every version once, in order, until the FINISHED or ABANDONED event.
   * A dropped socket is opened again after a backoff, resuming after the last version seen;
   * a refusal (NOT_FOUND, UNAUTHORIZED, BAD_USER_INPUT, ...) or retries running out end the
   * loop with a RulesError. Leaving the loop early closes the socket.
   */
  async *events(gameId: string, options: EventsOptions = {}): AsyncGenerator<GameEvent, void> {
    let afterVersion = options.afterVersion;
    let status: string | undefined;
    const open = (): AsyncGenerator<ops.GameEventsSubscription, void> =>
      this.client.subscribe(ops.GameEventsDocument, { gameId, afterVersion }, options.token);
    // the stream ends after the game does; one that ends before is a socket gone quiet
    const over = (): boolean => status !== "ACTIVE";
    for await (const { gameEvents } of this.resumed(open, over, options.signal)) {
      afterVersion = gameEvents.version;
      status = gameEvents.status;
      yield gameEvents;
    }
  }

  /**
   * A player's matchmaking now (`type` null), then each match made for it (`type` MATCHED, with
   * its seat token) and its news (CHALLENGE_RECEIVED, REMATCH_OFFERED, GAME_STARTED: the game
   * and the player's seat, no token), as the
   * tenant (API key, sent on the socket's upgrade: Node only, and `playerId`) or the player (its
   * token; `playerId` left out). Subscribed again after a dropped socket, as `events`; it goes
   * on until the loop is left.
   */
  async *playerEvents(
    playerId?: string,
    options: Omit<EventsOptions, "afterVersion"> = {},
  ): AsyncGenerator<MatchmakingStatus, void> {
    const open = (): AsyncGenerator<ops.PlayerEventsSubscription, void> =>
      this.client.subscribe(ops.PlayerEventsDocument, { playerId }, options.token);
    for await (const { playerEvents } of this.resumed(open, () => true, options.signal)) {
      yield playerEvents;
    }
  }

  /** A subscription opened again after each drop, with backoff, until `over` says it ended. */
  private async *resumed<T>(
    open: () => AsyncGenerator<T, void>,
    over: () => boolean,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<T, void> {
    let failures = 0;
    for (;;) {
      try {
        for await (const item of open()) {
          failures = 0;
          yield item;
          signal?.throwIfAborted();
        }
        if (over()) return;
        throw new RulesError("UNAVAILABLE", "the events ended before their end");
      } catch (thrown) {
        if (signal?.aborted) throw thrown;
        const error = asRulesError(thrown);
        failures += 1;
        const wait = RESUMABLE.has(error.code)
          ? delayMs(this.client.retry, failures, error)
          : undefined;
        if (wait === undefined) throw error;
        this.client.options.onRetry?.(error, failures, wait);
        await sleep(wait, signal);
      }
    }
  }

  /** How players find and fill a game's open seats: its join code, the seats still open. */
  async lobby(gameId: string): Promise<Lobby> {
    return (await this.client.request(ops.LobbyDocument, { gameId })).lobby;
  }

  /** The player (its token) takes an open seat, by join code or game id; again: the same seat. */
  async joinGame(game: { code: string } | { gameId: string }, as: As = {}): Promise<JoinedGame> {
    const call = { token: as.token, safe: true };
    return (await this.client.request(ops.JoinGameDocument, game, call)).joinGame;
  }

  async leaveGame(gameId: string, as: As = {}): Promise<LeftGame> {
    return (await this.client.request(ops.LeaveGameDocument, { gameId }, { token: as.token }))
      .leaveGame;
  }

  /** The player's (its token) games, newest first, a page at a time. */
  async myGames(
    filter: { status?: ops.GameStatus; kind?: ops.GameKind } = {},
    page: { first?: number; after?: string } & As = {},
  ): Promise<GamePage> {
    const variables = { ...filter, first: page.first ?? 20, after: page.after };
    return (await this.client.request(ops.MyGamesDocument, variables, { token: page.token }))
      .myGames;
  }

  /** The tenant (API key) gets a token for one of its players, valid `ttlSeconds`. */
  async issuePlayerToken(playerId: string, ttlSeconds: number): Promise<PlayerToken> {
    const variables = { playerId, ttlSeconds };
    return (await this.client.request(ops.IssuePlayerTokenDocument, variables)).issuePlayerToken;
  }

  /** Every token of the player issued until now is refused from now on. */
  async revokePlayerTokens(playerId: string): Promise<PlayerTokensRevoked> {
    const call = { safe: true };
    return (await this.client.request(ops.RevokePlayerTokensDocument, { playerId }, call))
      .revokePlayerTokens;
  }

  /**
   * A player's matchmaking now: `playerId` with the tenant's API key; a client made
   * `withToken(playerToken)` leaves it out (another player's id is FORBIDDEN).
   */
  async matchmaking(playerId?: string): Promise<MatchmakingStatus> {
    return (await this.client.request(ops.MatchmakingStatusDocument, { playerId })).matchmaking;
  }

  /**
   * The player waits for a match; entering the same pool again is the same seek. With a player
   * token `playerId` is left out (the token's player) and `rating` ignored (its own rating).
   */
  async enterMatchmaking(input: ops.MatchmakingInput): Promise<MatchmakingStatus> {
    const call = { safe: true };
    return (await this.client.request(ops.EnterMatchmakingDocument, { input }, call))
      .enterMatchmaking;
  }

  /** The player's seek withdrawn (NOT_QUEUED: none); `playerId` as for `matchmaking`. */
  async leaveMatchmaking(playerId?: string): Promise<MatchmakingStatus> {
    return (await this.client.request(ops.LeaveMatchmakingDocument, { playerId }))
      .leaveMatchmaking;
  }

  /**
   * A game of the challenger (seat 0: a player token's own player, or `challengerId` with the
   * API key) with a seat kept for each of `opponents`, who accept with `joinGame({ gameId })`
   * and decline with `declineChallenge`; it lapses (ABANDONED) after `expiresInSeconds`. The
   * answer holds seat 0's token. Not retried after a network error: it would be a second game.
   */
  async createChallenge(input: ops.ChallengeInput): Promise<Challenge> {
    return (await this.client.request(ops.CreateChallengeDocument, { input })).createChallenge;
  }

  /** One of the challenge's players (its player token) ends it for everyone: ABANDONED. */
  async declineChallenge(gameId: string): Promise<ChallengeDeclined> {
    return (await this.client.request(ops.DeclineChallengeDocument, { gameId })).declineChallenge;
  }

  /** The challenges waiting for this client's player (a player token), newest first. */
  async myChallenges(): Promise<PendingChallenge[]> {
    return (await this.client.request(ops.MyChallengesDocument, {})).myChallenges;
  }

  /**
   * A seat of a game that is over offers it again (GAME_NOT_OVER before the end): the first
   * offer creates the rematch, any later one answers the same game; the offerer's seat is taken.
   * With a seat token (or the API key and `asSeat`) the answer holds the new seat's token; with
   * a player token none (the player token plays).
   */
  async offerRematch(
    gameId: string,
    options: { expiresInSeconds?: number; asSeat?: number } = {},
  ): Promise<RematchSeat> {
    const variables = { gameId, ...options };
    return (await this.client.request(ops.OfferRematchDocument, variables, { safe: true }))
      .offerRematch;
  }

  /** A seat of the game that is over (`gameId`) takes its seat of the rematch; again: the same. */
  async acceptRematch(gameId: string, as: { asSeat?: number } = {}): Promise<RematchSeat> {
    const variables = { gameId, asSeat: as.asSeat };
    return (await this.client.request(ops.AcceptRematchDocument, variables, { safe: true }))
      .acceptRematch;
  }

  /** A seat of the game that is over ends its waiting rematch for everyone: ABANDONED. */
  async declineRematch(gameId: string, as: { asSeat?: number } = {}): Promise<RematchDeclined> {
    const variables = { gameId, asSeat: as.asSeat };
    return (await this.client.request(ops.DeclineRematchDocument, variables)).declineRematch;
  }

  /** The rematch of a game that is over once a seat offered it; null before. */
  async rematch(gameId: string, as: { asSeat?: number } = {}): Promise<Rematch | null> {
    const variables = { gameId, asSeat: as.asSeat };
    return (await this.client.request(ops.RematchDocument, variables)).rematch;
  }

  /** The tenant's players of one kind, best first (by ordinal, mu - 3 sigma). */
  async leaderboard(
    kind: ops.GameKind,
    page: { first?: number; after?: string } = {},
  ): Promise<RatingPage> {
    const variables = { kind, first: page.first ?? 20, after: page.after };
    return (await this.client.request(ops.LeaderboardDocument, variables)).leaderboard;
  }

  /** A player's rating in one kind; null until one of its games is rated. */
  async rating(playerId: string, kind: ops.GameKind): Promise<Rating | null> {
    return (await this.client.request(ops.RatingDocument, { playerId, kind })).rating;
  }

  async ratingPolicy(): Promise<RatingPolicy> {
    return (await this.client.request(ops.RatingPolicyDocument, {})).ratingPolicy;
  }

  async setRatingPolicy(maxTakebacks: number): Promise<RatingPolicy> {
    const call = { safe: true };
    return (await this.client.request(ops.SetRatingPolicyDocument, { maxTakebacks }, call))
      .setRatingPolicy;
  }

  /** The languages of the catalogs, with how much of each is translated. */
  async languages(): Promise<Language[]> {
    return (await this.client.request(ops.LanguagesDocument, {})).languages;
  }
}
