// The short names of the SDK's types: the answers of src/generated/graphql.ts's documents as an
// app reads them, and the schema's inputs and enums it sends.
import type * as ops from "./generated/graphql.js";

export type {
  ChallengeInput,
  CreateGameInput,
  GameFilter,
  GameKind,
  GameStatus,
  MatchmakingInput,
  MatchmakingState,
  OpenSeatInput,
  PlayerEventType,
  RejectCode,
  Strategy,
  TakebackPolicy,
  TypedMoveInput,
  TypedOptionsInput,
  WebhookEventType,
} from "./generated/graphql.js";

export type GameInfo = ops.CatalogQuery["catalog"][number];
export type CreatedGame = ops.CreateGameMutation["createGame"];
export type Game = NonNullable<ops.GameQuery["game"]>;
export type GameView = Game["view"];
export type LegalMove = Game["legalMoves"][number];
export type LegalMoves = NonNullable<ops.LegalMovesQuery["game"]>;
/** A text as a catalog's message: id, typed parameters, and the words in the language asked. */
export type Text = ops.TextFragment;
export type MoveValidation = ops.ValidateMoveQuery["validateMove"];
export type Suggestion = ops.SuggestMoveQuery["suggestMove"];
export type MoveResult = ops.ApplyMoveMutation["applyMove"];
export type MoveApplied = Extract<MoveResult, { __typename: "MoveApplied" }>;
export type MoveRejected = Extract<MoveResult, { __typename: "MoveRejected" }>;
export type ResignResult = ops.ResignMutation["resign"];
export type AbandonResult = ops.AbandonGameMutation["abandonGame"];
export type TakebackResult = ops.RequestTakebackMutation["requestTakeback"];
export type TakebackAnswer = ops.AnswerTakebackMutation["answerTakeback"];
export type SeatCredential = ops.ReissueSeatTokenMutation["reissueSeatToken"];
export type Scores = NonNullable<ops.ScoresQuery["game"]>;
export type History = NonNullable<ops.HistoryQuery["game"]>;
export type HistoryEntry = History["history"][number];
export type SeedReveal = NonNullable<ops.SeedRevealQuery["game"]>;
export type RecordVerification = ops.VerifyGameRecordQuery["verifyGameRecord"];
export type SigningKey = ops.RecordSigningKeysQuery["recordSigningKeys"][number];
export type GamePage = ops.GamesQuery["games"];
export type GameSummary = GamePage["edges"][number]["node"];
export type GameEvent = ops.GameEventsSubscription["gameEvents"];
export type WebhookEndpoint = ops.EndpointFragment;
export type WebhookEndpointDetail = NonNullable<ops.WebhookEndpointQuery["webhookEndpoint"]>;
export type WebhookEndpointWithSecret =
  ops.CreateWebhookEndpointMutation["createWebhookEndpoint"];
export type WebhookEventPage = ops.WebhookEventsQuery["webhookEvents"];
export type WebhookEndpointChanges = Omit<ops.UpdateWebhookEndpointMutationVariables, "id">;
export type Lobby = ops.LobbyQuery["lobby"];
export type JoinedGame = ops.JoinGameMutation["joinGame"];
export type LeftGame = ops.LeaveGameMutation["leaveGame"];
export type PlayerToken = ops.IssuePlayerTokenMutation["issuePlayerToken"];
export type PlayerTokensRevoked = ops.RevokePlayerTokensMutation["revokePlayerTokens"];
export type MatchmakingStatus = ops.MatchmakingFragment;
export type Rating = ops.RatingFieldsFragment;
export type RatingPage = ops.LeaderboardQuery["leaderboard"];
export type RatingPolicy = ops.RatingPolicyQuery["ratingPolicy"];
export type Language = ops.LanguagesQuery["languages"][number];
export type Challenge = ops.CreateChallengeMutation["createChallenge"];
export type ChallengeDeclined = ops.DeclineChallengeMutation["declineChallenge"];
export type PendingChallenge = ops.MyChallengesQuery["myChallenges"][number];
export type RematchSeat = ops.OfferRematchMutation["offerRematch"];
export type RematchDeclined = ops.DeclineRematchMutation["declineRematch"];
export type Rematch = NonNullable<ops.RematchQuery["rematch"]>;
