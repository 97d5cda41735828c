/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Who made a decision for its seat other than the seat itself: TENANT, the game's tenant with its API key (`asSeat`). */
export type ActedBy =
  | 'TENANT';

export type ApplyMoveInput = {
  /** Act as this seat: with the game's tenant's API key (X-API-Key), for a human seat of its own game; with a seat token, only its own seat (FORBIDDEN otherwise). Another tenant's key is answered as for a game that does not exist. */
  asSeat?: number | null | undefined;
  expectedVersion?: number | null | undefined;
  gameId: string | number;
  idempotencyKey?: string | null | undefined;
  /** The move as JSON; give exactly one of move and typedMove. */
  move?: unknown;
  /** The move as typed fields; give exactly one of the two. */
  typedMove?: TypedMoveInput | null | undefined;
};

export type AvenueAnimal =
  | 'DEER'
  | 'DUCK'
  | 'FOX'
  | 'SQUIRREL';

export type AvenueCarryTileInput = {
  animal: AvenueAnimal;
};

export type AvenueChooseCardInput = {
  slot: number;
};

export type AvenueExtraTileInput = {
  animal: AvenueAnimal;
  cell: number;
};

export type AvenueExtraTileToInput = {
  cell: number;
};

export type AvenueOptionsInput = {
  randomOrder?: boolean;
  startSeat?: number;
};

export type AvenuePhase =
  | 'ACTION'
  | 'CARD'
  | 'CARRY'
  | 'CELL'
  | 'EXTRA_TO'
  | 'GARDENER'
  | 'OVER'
  | 'RELOCATE_TO'
  | 'TILES';

export type AvenuePlaceCardInput = {
  cell: number;
};

export type AvenuePlaceGardenerInput = {
  cell: number;
};

export type AvenueRedrawInput = {
  slots: Array<number>;
};

export type AvenueRelocateGardenerInput = {
  cell: number;
};

export type AvenueRelocateToInput = {
  cell: number;
};

export type AvenueTakeTileInput = {
  animal: AvenueAnimal;
  cell: number;
};

export type BotSeatInput = {
  seat: number;
  strategy: Strategy;
};

/** A challenge: createGame's options for a game of the challenger (seat 0) and the challenged players (seats 1, 2, ... in this order). */
export type ChallengeInput = {
  /** With the tenant's X-API-Key: the challenger's player id (a player token challenges as its own player). */
  challengerId?: string | null | undefined;
  clock?: ClockInput | null | undefined;
  /** Not accepted by all this long after create, it lapses: ABANDONED. */
  expiresInSeconds?: number;
  kind: GameKind;
  /** The challenged player ids, 1 to 4, distinct, not the challenger's. */
  opponents: Array<string>;
  options?: unknown;
  /** Spectators (no seat token, not the game's tenant) see the game this many versions behind while it is ACTIVE: 0 (live, the default) to 100, BAD_USER_INPUT beyond. Seats and the game's tenant (X-API-Key) see it live; once the game is over everyone sees how it ended. */
  spectatorDelay?: number;
  takebacks?: TakebackPolicy;
};

/** A turn clock: exactly one of the two limits. */
export type ClockInput = {
  incrementSeconds?: number;
  onTimeout?: TimeoutAction;
  /** Each decision's time; at least 1 s. */
  perDecisionSeconds?: number | null | undefined;
  /** Each seat's bank for the whole game; at least 10 s. */
  perSeatTotalSeconds?: number | null | undefined;
};

export type CreateGameInput = {
  /** Seats the server plays itself, as soon as they are to act. They get no token; at least one seat stays human. */
  bots?: Array<BotSeatInput> | null | undefined;
  /** A turn clock, enforced by the server even when no client comes back. */
  clock?: ClockInput | null | undefined;
  /** With openSeats: seats still open this long after create are the bots' (fillWithBotsStrategy) and the game starts. */
  fillWithBotsAfterSeconds?: number | null | undefined;
  fillWithBotsStrategy?: Strategy;
  kind: GameKind;
  /** Seats left for players to join (joinGame, docs/api.md "Players"): the game starts once every seat is filled; moves before are GAME_NOT_STARTED. */
  openSeats?: Array<OpenSeatInput> | null | undefined;
  options?: unknown;
  /** The app's own user id per seat (by seat; null or missing: none), at most 128 characters each. Lists games by player (`games(filter:)`); shown only to the game's tenant. */
  playerIds?: Array<string | null | undefined> | null | undefined;
  players: number;
  /** For tests and replays: whoever chooses the seed knows every hidden card. Left out, the server draws one. In production it needs a tenant's API key (BAD_USER_INPUT otherwise). */
  seed?: string | null | undefined;
  /** Spectators (no seat token, not the game's tenant) see the game this many versions behind while it is ACTIVE: 0 (live, the default) to 100, BAD_USER_INPUT beyond. Seats and the game's tenant (X-API-Key) see it live; once the game is over everyone sees how it ended. */
  spectatorDelay?: number;
  /** Whether and how seats may take back decisions (requestTakeback). */
  takebacks?: TakebackPolicy;
  /** `options` as typed fields; give one of the two, or neither. */
  typedOptions?: TypedOptionsInput | null | undefined;
};

export type EndReason =
  | 'ABANDONED'
  | 'RESIGNED'
  | 'TIMEOUT';

export type GameFilter = {
  createdAfter?: string | null | undefined;
  kind?: GameKind | null | undefined;
  /** Games this player id sits in. */
  playerId?: string | null | undefined;
  status?: GameStatus | null | undefined;
  /** Games where this player id must decide now. */
  toActPlayerId?: string | null | undefined;
};

export type GameKind =
  | 'TREELINE'
  | 'TREELINGS'
  | 'TREETOPIA'
  | 'TREE_LINED_AVENUE';

export type GameStatus =
  | 'ABANDONED'
  | 'ACTIVE'
  | 'FINISHED';

export type MatchmakingInput = {
  kind: GameKind;
  /** The game's create options; the same options, one pool. */
  options?: unknown;
  /** The tenant's own player id, with its X-API-Key; with a player token, its own player (left out, or the same id: another is FORBIDDEN). */
  playerId?: string | null | undefined;
  /** The seats of the game to be matched into. */
  players: number;
  /** The player's rating for the window, given by the tenant (X-API-Key); left out, or sent with a player token (ignored), the player's mu for the kind from the ratings, else 25 (neutral). */
  rating?: number | null | undefined;
};

/** Where a player is in matchmaking. */
export type MatchmakingState =
  | 'MATCHED'
  | 'MATCHING'
  | 'NONE'
  | 'WAITING';

/** What a parameter holds: INT a whole number, TEXT a word or phrase of the game's vocabulary kept as it is (a colour, a card, a cell), LIST such words joined by ', '. */
export type MessageParamType =
  | 'INT'
  | 'LIST'
  | 'TEXT';

/** A seat createGame leaves open for a player to join. */
export type OpenSeatInput = {
  /** Only this player id may take it (until bots fill it). */
  reservedFor?: string | null | undefined;
  seat: number;
};

/** What a playerEvents frame tells: a match made for the player (MATCHED, with its seat token), a challenge waiting for it (CHALLENGE_RECEIVED), a rematch offered to it (REMATCH_OFFERED) or the start of a game it waited in (GAME_STARTED); these three carry the game and the player's seat, no token (the player plays with its player token). */
export type PlayerEventType =
  | 'CHALLENGE_RECEIVED'
  | 'GAME_STARTED'
  | 'MATCHED'
  | 'REMATCH_OFFERED';

/** Why a game record does not verify (docs/api.md). */
export type RecordProblem =
  | 'BAD_SETUP'
  | 'BAD_TAKEBACK'
  | 'FORCED_MISMATCH'
  | 'ILLEGAL_MOVE'
  | 'INCOMPLETE'
  | 'MALFORMED'
  | 'NOT_CANONICAL'
  | 'OUTCOME_MISMATCH'
  | 'SCORES_MISMATCH'
  | 'SEED_MISMATCH'
  | 'STATE_MISMATCH'
  | 'TAKEBACK_NOT_ALLOWED'
  | 'TIMEOUT_MISMATCH'
  | 'TOO_LONG'
  | 'UNKNOWN_KIND'
  | 'UNKNOWN_RULES_VERSION'
  | 'UNSUPPORTED_FORMAT'
  | 'VERSION_MISMATCH';

export type RejectCode =
  | 'GAME_OVER'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'ILLEGAL_MOVE'
  | 'MALFORMED_MOVE'
  | 'NOT_FOUND'
  | 'NOT_YOUR_TURN'
  | 'STALE_VERSION'
  | 'TAKEBACK_NOT_ALLOWED'
  | 'UNAUTHORIZED';

export type Strategy =
  | 'GREEDY'
  | 'RANDOM'
  | 'SEARCH';

/** Who may take back a decision (requestTakeback): NONE nobody; OWN_DECISIONS a seat its own last decision while nothing hidden was revealed, nothing random happened and no other seat decided since; WITH_CONSENT that too, and beyond it once every other human seat accepts (answerTakeback; bots accept). */
export type TakebackPolicy =
  | 'NONE'
  | 'OWN_DECISIONS'
  | 'WITH_CONSENT';

export type TimeoutAction =
  | 'AUTO_GREEDY'
  | 'AUTO_RANDOM'
  | 'FORFEIT';

/** Choose the card flipped this turn to deploy to (TL-4, TL-5). */
export type TreelineDeployCardInput = {
  col: number;
  row: number;
};

/** Fill the next empty space with one of your tokens moved from another Forest card. */
export type TreelineDeployFromCardInput = {
  col: number;
  energized: boolean;
  row: number;
};

export type TreelineEndReason =
  | 'FOUR_OR_FEWER_TOWN_CARDS'
  | 'NO_LEGAL_REFOREST';

/** Flip one of your Normal tokens in the claimed line to Energized (TL-9). */
export type TreelineEnergizeInput = {
  col: number;
  row: number;
};

export type TreelineOptionsInput = {
  fullGame?: boolean;
  gladeCells?: Array<Array<number>> | null | undefined;
  startSeat?: number;
  strategicStart?: boolean;
};

export type TreelinePhase =
  | 'DEPLOY_CARD'
  | 'DEPLOY_SOURCE'
  | 'ENERGIZE'
  | 'OVER'
  | 'REFOREST'
  | 'STATION'
  | 'STRATEGIC_START';

/** Flip the Town card at (row, col) and its neighbour to the right or below (TL-3). */
export type TreelineReforestInput = {
  col: number;
  row: number;
  toward: TreelineToward;
};

/** Station one of your tokens on the castle being claimed (TL-8). */
export type TreelineStationTokenInput = {
  col: number;
  energized: boolean;
  row: number;
};

/** Strategic Start (TL-12): flip this Town card and fill it from supply. */
export type TreelineStrategicFlipInput = {
  col: number;
  row: number;
};

export type TreelineToward =
  | 'DOWN'
  | 'RIGHT';

export type TreelingsColour =
  | 'BLUE'
  | 'BROWN'
  | 'GREEN'
  | 'PURPLE'
  | 'RED'
  | 'YELLOW';

export type TreelingsOptionsInput = {
  startSeat?: number;
};

export type TreelingsPhase =
  | 'OVER'
  | 'PLACE'
  | 'TAKE';

/** Start the tree of a taken new colour at one end of the district (TG-5). */
export type TreelingsPlaceInput = {
  colour: TreelingsColour;
  side: TreelingsSide;
};

export type TreelingsSide =
  | 'LEFT'
  | 'RIGHT';

/** Take every card of one colour from the market (TG-4). */
export type TreelingsTakeColourInput = {
  colour: TreelingsColour;
};

/** A reward when another seat completes a group of four (TT-6). */
export type TreetopiaActivateTokenInput = {
  token: TreetopiaToken;
};

export type TreetopiaKeepEyeCardInput = {
  card: number;
};

export type TreetopiaOptionsInput = {
  startSeat?: number;
};

export type TreetopiaPhase =
  | 'CELL'
  | 'DRAW'
  | 'END'
  | 'EYE'
  | 'KEEP'
  | 'OVER'
  | 'REWARD'
  | 'START';

export type TreetopiaPlantAtInput = {
  col: number;
  row: number;
};

export type TreetopiaPlantInput = {
  card: number;
};

export type TreetopiaPutInPoolInput = {
  card: number;
};

/** B: skip the turn to turn this inactive token active (TT-3). */
export type TreetopiaSkipTurnInput = {
  token: TreetopiaToken;
};

export type TreetopiaTakeFromPoolInput = {
  card: number;
};

export type TreetopiaToken =
  | 'EXTRA_TURN'
  | 'EYE'
  | 'WHIRLWIND';

/** At the start of an A turn: these hand cards go to the discard pile, as many are drawn. */
export type TreetopiaUseWhirlwindInput = {
  cards: Array<number>;
};

/** A move as typed fields: exactly one field, named for the game and the move type. A move type without fields takes `true`. */
export type TypedMoveInput =
  {   avenueCarryTile: AvenueCarryTileInput; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never;   avenueChooseCard: AvenueChooseCardInput; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never;   avenueDrawProject: boolean; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never;   avenueExtraTile: AvenueExtraTileInput; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never;   avenueExtraTileTo: AvenueExtraTileToInput; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never;   avenuePlaceCard: AvenuePlaceCardInput; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never;   avenuePlaceGardener: AvenuePlaceGardenerInput; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never;   avenueRedraw: AvenueRedrawInput; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never;   avenueRelocateGardener: AvenueRelocateGardenerInput; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never;   avenueRelocateTo: AvenueRelocateToInput; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never;   avenueSkipAction: boolean; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never;   avenueSkipGardener: boolean; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never;   avenueStopCarrying: boolean; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never;   avenueStopTaking: boolean; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never;   avenueTakeTile: AvenueTakeTileInput; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never;   treelineDeployCard: TreelineDeployCardInput; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never;   treelineDeployFromCard: TreelineDeployFromCardInput; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never;   treelineDeployFromSupply: boolean; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never;   treelineEnergize: TreelineEnergizeInput; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never;   treelineReforest: TreelineReforestInput; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never;   treelineStationFromSupply: boolean; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never;   treelineStationToken: TreelineStationTokenInput; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never;   treelineStrategicFlip: TreelineStrategicFlipInput; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never;   treelingsPlace: TreelingsPlaceInput; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never;   treelingsTakeColour: TreelingsTakeColourInput; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never;   treelingsTakeSingletons: boolean; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never;   treetopiaActivateToken: TreetopiaActivateTokenInput; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never;   treetopiaDeclineToken: boolean; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never;   treetopiaDrawFromPile: boolean; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never;   treetopiaEndTurn: boolean; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never;   treetopiaKeepEyeCard: TreetopiaKeepEyeCardInput; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never;   treetopiaPlant: TreetopiaPlantInput; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never;   treetopiaPlantAt: TreetopiaPlantAtInput; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never;   treetopiaPutInPool: TreetopiaPutInPoolInput; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never;   treetopiaSkipTurn: TreetopiaSkipTurnInput; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never;   treetopiaTakeFromPool: TreetopiaTakeFromPoolInput; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never;   treetopiaUseExtraTurn: boolean; treetopiaUseEye?: never; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never;   treetopiaUseEye: boolean; treetopiaUseWhirlwind?: never; }
  |  { avenueCarryTile?: never; avenueChooseCard?: never; avenueDrawProject?: never; avenueExtraTile?: never; avenueExtraTileTo?: never; avenuePlaceCard?: never; avenuePlaceGardener?: never; avenueRedraw?: never; avenueRelocateGardener?: never; avenueRelocateTo?: never; avenueSkipAction?: never; avenueSkipGardener?: never; avenueStopCarrying?: never; avenueStopTaking?: never; avenueTakeTile?: never; treelineDeployCard?: never; treelineDeployFromCard?: never; treelineDeployFromSupply?: never; treelineEnergize?: never; treelineReforest?: never; treelineStationFromSupply?: never; treelineStationToken?: never; treelineStrategicFlip?: never; treelingsPlace?: never; treelingsTakeColour?: never; treelingsTakeSingletons?: never; treetopiaActivateToken?: never; treetopiaDeclineToken?: never; treetopiaDrawFromPile?: never; treetopiaEndTurn?: never; treetopiaKeepEyeCard?: never; treetopiaPlant?: never; treetopiaPlantAt?: never; treetopiaPutInPool?: never; treetopiaSkipTurn?: never; treetopiaTakeFromPool?: never; treetopiaUseExtraTurn?: never; treetopiaUseEye?: never;   treetopiaUseWhirlwind: TreetopiaUseWhirlwindInput; };

/** Create options as typed fields: exactly one field, the one of the game's kind. */
export type TypedOptionsInput =
  {   avenue: AvenueOptionsInput; treeline?: never; treelings?: never; treetopia?: never; }
  |  { avenue?: never;   treeline: TreelineOptionsInput; treelings?: never; treetopia?: never; }
  |  { avenue?: never; treeline?: never;   treelings: TreelingsOptionsInput; treetopia?: never; }
  |  { avenue?: never; treeline?: never; treelings?: never;   treetopia: TreetopiaOptionsInput; };

/** DELIVERED: answered 2xx; RETRYING: tried again later; FAILED: retries used up, kept for redeliverWebhookEvent; DROPPED: the event expired (3 days) before it could be sent. */
export type WebhookDeliveryOutcome =
  | 'DELIVERED'
  | 'DROPPED'
  | 'FAILED'
  | 'RETRYING';

/** DISABLED: switched off by the tenant; FAILING: an attempt failed and an event is still retrying, or one was given up after a day of retries (see failedEvents), and no delivery succeeded since; HEALTHY otherwise. */
export type WebhookEndpointStatus =
  | 'DISABLED'
  | 'FAILING'
  | 'HEALTHY';

/** What an endpoint is told about, as the event's `type` names it: TURN_STARTED `turn.started`, GAME_FINISHED `game.finished`, GAME_TIMEOUT `game.timeout`, GAME_RESIGNED `game.resigned`, GAME_ABANDONED `game.abandoned`, GAME_TAKEBACK `game.takeback`, MATCH_FOUND `match.found`, CHALLENGE_RECEIVED `challenge.received` (docs/webhooks.md); WEBHOOK_TEST `webhook.test` is sent by sendTestWebhookEvent only and cannot be subscribed to. */
export type WebhookEventType =
  | 'CHALLENGE_RECEIVED'
  | 'GAME_ABANDONED'
  | 'GAME_FINISHED'
  | 'GAME_RESIGNED'
  | 'GAME_TAKEBACK'
  | 'GAME_TIMEOUT'
  | 'MATCH_FOUND'
  | 'TURN_STARTED'
  | 'WEBHOOK_TEST';

export type TextFragment = { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> };

export type CatalogQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogQuery = { catalog: Array<{ kind: GameKind, title: string, players: { min: number, max: number }, typedOptions:
      | { __typename: 'AvenueOptions', startSeat: number, randomOrder: boolean }
      | { __typename: 'TreelineOptions', startSeat: number, fullGame: boolean, strategicStart: boolean, gladeCells: Array<Array<number>> | null }
      | { __typename: 'TreelingsOptions', startSeat: number }
      | { __typename: 'TreetopiaOptions', startSeat: number }
     }> };

export type CreateGameMutationVariables = Exact<{
  input: CreateGameInput;
}>;


export type CreateGameMutation = { createGame: { game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number>, seedCommitment: string, seats: Array<{ seat: number, bot: Strategy | null }> }, seats: Array<{ seat: number, token: string }> } };

type View_AvenueView_Fragment = { __typename: 'AvenueView', avenuePhase: AvenuePhase, round: number, rounds: number, turn: number, avenueSeats: Array<{ seat: number, projects: Array<number> | null }> };

type View_TreelineView_Fragment = { __typename: 'TreelineView', treelinePhase: TreelinePhase, turn: number, activeSeat: number, endReason: TreelineEndReason | null, treelineSeats: Array<{ seat: number, supply: number }> };

type View_TreelingsView_Fragment = { __typename: 'TreelingsView', treelingsPhase: TreelingsPhase, turnSeat: number, finalRound: boolean, turnsLeft: number | null, market: Array<{ colour: TreelingsColour, count: number }> };

type View_TreetopiaView_Fragment = { __typename: 'TreetopiaView', treetopiaPhase: TreetopiaPhase, activeSeat: number, drawPile: number, pool: Array<number>, treetopiaSeats: Array<{ seat: number, hand: Array<number> }> };

export type ViewFragment =
  | View_AvenueView_Fragment
  | View_TreelineView_Fragment
  | View_TreelingsView_Fragment
  | View_TreetopiaView_Fragment
;

export type GameQueryVariables = Exact<{
  id: string | number;
  asSeat?: number | null | undefined;
  language?: string | null | undefined;
}>;


export type GameQuery = { game: { id: string, kind: GameKind, version: number, status: GameStatus, toAct: Array<number>, viewer: number | null, view:
      | { __typename: 'AvenueView', avenuePhase: AvenuePhase, round: number, rounds: number, turn: number, avenueSeats: Array<{ seat: number, projects: Array<number> | null }> }
      | { __typename: 'TreelineView', treelinePhase: TreelinePhase, turn: number, activeSeat: number, endReason: TreelineEndReason | null, treelineSeats: Array<{ seat: number, supply: number }> }
      | { __typename: 'TreelingsView', treelingsPhase: TreelingsPhase, turnSeat: number, finalRound: boolean, turnsLeft: number | null, market: Array<{ colour: TreelingsColour, count: number }> }
      | { __typename: 'TreetopiaView', treetopiaPhase: TreetopiaPhase, activeSeat: number, drawPile: number, pool: Array<number>, treetopiaSeats: Array<{ seat: number, hand: Array<number> }> }
    , legalMoves: Array<{ label: string, typedMoveInput: unknown, labelMessage: { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> }, typedMove:
        | { __typename: 'AvenueCarryTile' }
        | { __typename: 'AvenueChooseCard' }
        | { __typename: 'AvenueDrawProject' }
        | { __typename: 'AvenueExtraTile' }
        | { __typename: 'AvenueExtraTileTo' }
        | { __typename: 'AvenuePlaceCard' }
        | { __typename: 'AvenuePlaceGardener' }
        | { __typename: 'AvenueRedraw' }
        | { __typename: 'AvenueRelocateGardener' }
        | { __typename: 'AvenueRelocateTo' }
        | { __typename: 'AvenueSkipAction' }
        | { __typename: 'AvenueSkipGardener' }
        | { __typename: 'AvenueStopCarrying' }
        | { __typename: 'AvenueStopTaking' }
        | { __typename: 'AvenueTakeTile' }
        | { __typename: 'TreelineDeployCard' }
        | { __typename: 'TreelineDeployFromCard' }
        | { __typename: 'TreelineDeployFromSupply' }
        | { __typename: 'TreelineEnergize' }
        | { __typename: 'TreelineReforest' }
        | { __typename: 'TreelineStationFromSupply' }
        | { __typename: 'TreelineStationToken' }
        | { __typename: 'TreelineStrategicFlip' }
        | { __typename: 'TreelingsPlace' }
        | { __typename: 'TreelingsTakeColour' }
        | { __typename: 'TreelingsTakeSingletons' }
        | { __typename: 'TreetopiaActivateToken' }
        | { __typename: 'TreetopiaDeclineToken' }
        | { __typename: 'TreetopiaDrawFromPile' }
        | { __typename: 'TreetopiaEndTurn' }
        | { __typename: 'TreetopiaKeepEyeCard' }
        | { __typename: 'TreetopiaPlant' }
        | { __typename: 'TreetopiaPlantAt' }
        | { __typename: 'TreetopiaPutInPool' }
        | { __typename: 'TreetopiaSkipTurn' }
        | { __typename: 'TreetopiaTakeFromPool' }
        | { __typename: 'TreetopiaUseExtraTurn' }
        | { __typename: 'TreetopiaUseEye' }
        | { __typename: 'TreetopiaUseWhirlwind' }
       }> } | null };

export type ViewAtQueryVariables = Exact<{
  id: string | number;
  version: number;
  asSeat?: number | null | undefined;
}>;


export type ViewAtQuery = { game: { viewAt:
      | { __typename: 'AvenueView', avenuePhase: AvenuePhase, round: number, rounds: number, turn: number, avenueSeats: Array<{ seat: number, projects: Array<number> | null }> }
      | { __typename: 'TreelineView', treelinePhase: TreelinePhase, turn: number, activeSeat: number, endReason: TreelineEndReason | null, treelineSeats: Array<{ seat: number, supply: number }> }
      | { __typename: 'TreelingsView', treelingsPhase: TreelingsPhase, turnSeat: number, finalRound: boolean, turnsLeft: number | null, market: Array<{ colour: TreelingsColour, count: number }> }
      | { __typename: 'TreetopiaView', treetopiaPhase: TreetopiaPhase, activeSeat: number, drawPile: number, pool: Array<number>, treetopiaSeats: Array<{ seat: number, hand: Array<number> }> }
     } | null };

export type LegalMovesQueryVariables = Exact<{
  id: string | number;
  asSeat?: number | null | undefined;
  language?: string | null | undefined;
}>;


export type LegalMovesQuery = { game: { version: number, status: GameStatus, toAct: Array<number>, viewer: number | null, legalMoves: Array<{ label: string, typedMoveInput: unknown, labelMessage: { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> } }> } | null };

export type ValidateMoveQueryVariables = Exact<{
  gameId: string | number;
  move?: unknown;
  typedMove?: TypedMoveInput | null | undefined;
  asSeat?: number | null | undefined;
  language?: string | null | undefined;
}>;


export type ValidateMoveQuery = { validateMove: { valid: boolean, code: RejectCode | null, message: string, currentVersion: number | null, reason: string | null, rule: string | null, localizedMessage: { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> } | null } };

export type SuggestMoveQueryVariables = Exact<{
  gameId: string | number;
  strategy: Strategy;
  budgetMs?: number | null | undefined;
  iterations?: number | null | undefined;
  seed?: number | null | undefined;
  asSeat?: number | null | undefined;
}>;


export type SuggestMoveQuery = { suggestMove: { seat: number, strategy: Strategy, label: string, typedMoveInput: unknown, typedMove:
      | { __typename: 'AvenueCarryTile' }
      | { __typename: 'AvenueChooseCard' }
      | { __typename: 'AvenueDrawProject' }
      | { __typename: 'AvenueExtraTile' }
      | { __typename: 'AvenueExtraTileTo' }
      | { __typename: 'AvenuePlaceCard' }
      | { __typename: 'AvenuePlaceGardener' }
      | { __typename: 'AvenueRedraw' }
      | { __typename: 'AvenueRelocateGardener' }
      | { __typename: 'AvenueRelocateTo' }
      | { __typename: 'AvenueSkipAction' }
      | { __typename: 'AvenueSkipGardener' }
      | { __typename: 'AvenueStopCarrying' }
      | { __typename: 'AvenueStopTaking' }
      | { __typename: 'AvenueTakeTile' }
      | { __typename: 'TreelineDeployCard' }
      | { __typename: 'TreelineDeployFromCard' }
      | { __typename: 'TreelineDeployFromSupply' }
      | { __typename: 'TreelineEnergize' }
      | { __typename: 'TreelineReforest' }
      | { __typename: 'TreelineStationFromSupply' }
      | { __typename: 'TreelineStationToken' }
      | { __typename: 'TreelineStrategicFlip' }
      | { __typename: 'TreelingsPlace' }
      | { __typename: 'TreelingsTakeColour' }
      | { __typename: 'TreelingsTakeSingletons' }
      | { __typename: 'TreetopiaActivateToken' }
      | { __typename: 'TreetopiaDeclineToken' }
      | { __typename: 'TreetopiaDrawFromPile' }
      | { __typename: 'TreetopiaEndTurn' }
      | { __typename: 'TreetopiaKeepEyeCard' }
      | { __typename: 'TreetopiaPlant' }
      | { __typename: 'TreetopiaPlantAt' }
      | { __typename: 'TreetopiaPutInPool' }
      | { __typename: 'TreetopiaSkipTurn' }
      | { __typename: 'TreetopiaTakeFromPool' }
      | { __typename: 'TreetopiaUseExtraTurn' }
      | { __typename: 'TreetopiaUseEye' }
      | { __typename: 'TreetopiaUseWhirlwind' }
     } };

export type GameSummaryFragment = { edges: Array<{ cursor: string, node: { id: string, kind: GameKind, version: number, rulesVersion: number, status: GameStatus, players: number, toAct: Array<number>, spectatorDelay: number, seats: Array<{ seat: number, playerId: string | null, bot: Strategy | null }>, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } };

export type GamesQueryVariables = Exact<{
  filter?: GameFilter | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type GamesQuery = { games: { edges: Array<{ cursor: string, node: { id: string, kind: GameKind, version: number, rulesVersion: number, status: GameStatus, players: number, toAct: Array<number>, spectatorDelay: number, seats: Array<{ seat: number, playerId: string | null, bot: Strategy | null }>, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ApplyMoveMutationVariables = Exact<{
  input: ApplyMoveInput;
  language?: string | null | undefined;
}>;


export type ApplyMoveMutation = { applyMove:
    | { __typename: 'MoveApplied', replayed: boolean, game: { version: number, status: GameStatus, toAct: Array<number> } }
    | { __typename: 'MoveRejected', code: RejectCode, message: string, currentVersion: number | null, reason: string | null, rule: string | null, localizedMessage: { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> } }
   };

export type ResignMutationVariables = Exact<{
  gameId: string | number;
  expectedVersion?: number | null | undefined;
  asSeat?: number | null | undefined;
}>;


export type ResignMutation = { resign:
    | { __typename: 'MoveApplied', game: { version: number, status: GameStatus, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null } }
    | { __typename: 'MoveRejected', code: RejectCode, message: string, currentVersion: number | null }
   };

export type RequestTakebackMutationVariables = Exact<{
  gameId: string | number;
  expectedVersion?: number | null | undefined;
  idempotencyKey?: string | null | undefined;
  asSeat?: number | null | undefined;
}>;


export type RequestTakebackMutation = { requestTakeback:
    | { __typename: 'MoveApplied', replayed: boolean, game: { version: number, status: GameStatus, toAct: Array<number>, takebackRequest: { seat: number, toVersion: number, acceptedBy: Array<number>, waitingFor: Array<number>, expires: string } | null } }
    | { __typename: 'MoveRejected', code: RejectCode, message: string, currentVersion: number | null }
   };

export type AnswerTakebackMutationVariables = Exact<{
  gameId: string | number;
  accept: boolean;
  expectedVersion?: number | null | undefined;
  idempotencyKey?: string | null | undefined;
  asSeat?: number | null | undefined;
}>;


export type AnswerTakebackMutation = { answerTakeback:
    | { __typename: 'MoveApplied', replayed: boolean, game: { version: number, status: GameStatus, toAct: Array<number>, takebackRequest: { seat: number, waitingFor: Array<number> } | null } }
    | { __typename: 'MoveRejected', code: RejectCode, message: string, currentVersion: number | null }
   };

export type AbandonGameMutationVariables = Exact<{
  gameId: string | number;
}>;


export type AbandonGameMutation = { abandonGame:
    | { __typename: 'MoveApplied', game: { version: number, status: GameStatus, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null } }
    | { __typename: 'MoveRejected', code: RejectCode, message: string, currentVersion: number | null }
   };

export type ReissueSeatTokenMutationVariables = Exact<{
  gameId: string | number;
  seat: number;
}>;


export type ReissueSeatTokenMutation = { reissueSeatToken: { seat: number, token: string, playerId: string | null } };

export type ExportGameQueryVariables = Exact<{
  gameId: string | number;
}>;


export type ExportGameQuery = { exportGame: unknown };

export type VerifyGameRecordQueryVariables = Exact<{
  record: unknown;
}>;


export type VerifyGameRecordQuery = { verifyGameRecord: { valid: boolean, kind: string | null, version: number | null, scores: unknown, difference: { version: number, reason: RecordProblem, message: string } | null } };

export type RecordSigningKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type RecordSigningKeysQuery = { recordSigningKeys: Array<{ keyId: string, algorithm: string, publicKey: string }> };

export type ScoresQueryVariables = Exact<{
  id: string | number;
  language?: string | null | undefined;
}>;


export type ScoresQuery = { game: { status: GameStatus, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null, scores: { final: boolean, winners: Array<number>, entries: Array<{ seat: number, points: number, tiebreak: Array<number>, team: Array<number> | null, seatPoints: number | null, typedBreakdown: Array<{ source: string, points: number, detail: string }>, detailMessages: Array<{ id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> }> }> } } | null };

export type HistoryQueryVariables = Exact<{
  id: string | number;
  after?: number | null | undefined;
  language?: string | null | undefined;
}>;


export type HistoryQuery = { game: { version: number, history: Array<{ version: number, seat: number | null, label: string, forced: boolean, event: EndReason | null, actedBy: ActedBy | null, labelMessage: { id: string, text: string, params: Array<{ name: string, type: MessageParamType, value: string }> }, typedMove:
        | { __typename: 'AvenueCarryTile' }
        | { __typename: 'AvenueChooseCard' }
        | { __typename: 'AvenueDrawProject' }
        | { __typename: 'AvenueExtraTile' }
        | { __typename: 'AvenueExtraTileTo' }
        | { __typename: 'AvenuePlaceCard' }
        | { __typename: 'AvenuePlaceGardener' }
        | { __typename: 'AvenueRedraw' }
        | { __typename: 'AvenueRelocateGardener' }
        | { __typename: 'AvenueRelocateTo' }
        | { __typename: 'AvenueSkipAction' }
        | { __typename: 'AvenueSkipGardener' }
        | { __typename: 'AvenueStopCarrying' }
        | { __typename: 'AvenueStopTaking' }
        | { __typename: 'AvenueTakeTile' }
        | { __typename: 'TreelineDeployCard' }
        | { __typename: 'TreelineDeployFromCard' }
        | { __typename: 'TreelineDeployFromSupply' }
        | { __typename: 'TreelineEnergize' }
        | { __typename: 'TreelineReforest' }
        | { __typename: 'TreelineStationFromSupply' }
        | { __typename: 'TreelineStationToken' }
        | { __typename: 'TreelineStrategicFlip' }
        | { __typename: 'TreelingsPlace' }
        | { __typename: 'TreelingsTakeColour' }
        | { __typename: 'TreelingsTakeSingletons' }
        | { __typename: 'TreetopiaActivateToken' }
        | { __typename: 'TreetopiaDeclineToken' }
        | { __typename: 'TreetopiaDrawFromPile' }
        | { __typename: 'TreetopiaEndTurn' }
        | { __typename: 'TreetopiaKeepEyeCard' }
        | { __typename: 'TreetopiaPlant' }
        | { __typename: 'TreetopiaPlantAt' }
        | { __typename: 'TreetopiaPutInPool' }
        | { __typename: 'TreetopiaSkipTurn' }
        | { __typename: 'TreetopiaTakeFromPool' }
        | { __typename: 'TreetopiaUseExtraTurn' }
        | { __typename: 'TreetopiaUseEye' }
        | { __typename: 'TreetopiaUseWhirlwind' }
       | null }> } | null };

export type SeedRevealQueryVariables = Exact<{
  id: string | number;
}>;


export type SeedRevealQuery = { game: { status: GameStatus, seedCommitment: string, seedReveal: { seed: string, salt: string, options: unknown } | null } | null };

export type GameEventsSubscriptionVariables = Exact<{
  gameId: string | number;
  afterVersion?: number | null | undefined;
}>;


export type GameEventsSubscription = { gameEvents: { gameId: string, version: number, status: GameStatus, game: { toAct: Array<number> } } };

export type EndpointFragment = { id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string };

export type WebhookEndpointsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEndpointsQuery = { webhookEndpoints: Array<{ id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string }> };

export type WebhookEndpointQueryVariables = Exact<{
  id: string | number;
  last?: number;
}>;


export type WebhookEndpointQuery = { webhookEndpoint: { id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string, deliveries: Array<{ at: string, eventId: string, eventType: WebhookEventType, gameId: string, attempt: number, outcome: WebhookDeliveryOutcome, httpStatus: number | null, latencyMs: number, error: string | null }>, failedEvents: Array<{ eventId: string, eventType: WebhookEventType | null, gameId: string | null, failedAt: string }> } | null };

export type WebhookEventsQueryVariables = Exact<{
  after?: string | null | undefined;
  types?: Array<WebhookEventType> | WebhookEventType | null | undefined;
  first: number;
}>;


export type WebhookEventsQuery = { webhookEvents: { edges: Array<{ cursor: string, node: { id: string, type: WebhookEventType, gameId: string | null, createdAt: string, payload: unknown } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreateWebhookEndpointMutationVariables = Exact<{
  url: string;
  events?: Array<WebhookEventType> | WebhookEventType | null | undefined;
  description?: string | null | undefined;
}>;


export type CreateWebhookEndpointMutation = { createWebhookEndpoint: { secret: string, endpoint: { id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string } } };

export type UpdateWebhookEndpointMutationVariables = Exact<{
  id: string | number;
  url?: string | null | undefined;
  events?: Array<WebhookEventType> | WebhookEventType | null | undefined;
  description?: string | null | undefined;
  enabled?: boolean | null | undefined;
}>;


export type UpdateWebhookEndpointMutation = { updateWebhookEndpoint: { id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string } };

export type DeleteWebhookEndpointMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookEndpointMutation = { deleteWebhookEndpoint: boolean };

export type RotateWebhookSecretMutationVariables = Exact<{
  id: string | number;
  idempotencyKey?: string | null | undefined;
}>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string, endpoint: { id: string, url: string, description: string, events: Array<WebhookEventType>, enabled: boolean, status: WebhookEndpointStatus, failingSince: string | null, createdAt: string, updatedAt: string } } };

export type RedeliverWebhookEventMutationVariables = Exact<{
  endpointId: string | number;
  eventId: string | number;
}>;


export type RedeliverWebhookEventMutation = { redeliverWebhookEvent: boolean };

export type RetryWebhookEventMutationVariables = Exact<{
  endpointId: string | number;
  eventId: string | number;
}>;


export type RetryWebhookEventMutation = { retryWebhookEvent: boolean };

export type SendTestWebhookEventMutationVariables = Exact<{
  endpointId: string | number;
}>;


export type SendTestWebhookEventMutation = { sendTestWebhookEvent: string };

export type LobbyQueryVariables = Exact<{
  gameId: string | number;
}>;


export type LobbyQuery = { lobby: { gameId: string, joinCode: string | null, inviteUrl: string | null, started: boolean, openSeats: Array<{ seat: number, reserved: boolean }> } };

export type JoinGameMutationVariables = Exact<{
  code?: string | null | undefined;
  gameId?: string | number | null | undefined;
}>;


export type JoinGameMutation = { joinGame: { seat: number, game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } } };

export type LeaveGameMutationVariables = Exact<{
  gameId: string | number;
}>;


export type LeaveGameMutation = { leaveGame: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } };

export type MyGamesQueryVariables = Exact<{
  status?: GameStatus | null | undefined;
  kind?: GameKind | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type MyGamesQuery = { myGames: { edges: Array<{ cursor: string, node: { id: string, kind: GameKind, version: number, rulesVersion: number, status: GameStatus, players: number, toAct: Array<number>, spectatorDelay: number, seats: Array<{ seat: number, playerId: string | null, bot: Strategy | null }>, outcome: { reason: EndReason, seat: number | null, winners: Array<number> } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type IssuePlayerTokenMutationVariables = Exact<{
  playerId: string;
  ttlSeconds: number;
}>;


export type IssuePlayerTokenMutation = { issuePlayerToken: { token: string, playerId: string, expiresAt: string } };

export type RevokePlayerTokensMutationVariables = Exact<{
  playerId: string;
}>;


export type RevokePlayerTokensMutation = { revokePlayerTokens: { playerId: string, revokedBefore: string } };

export type MatchmakingFragment = { playerId: string, state: MatchmakingState, kind: GameKind | null, players: number | null, options: unknown, rating: number | null, waitingSince: string | null, window: number | null, gameId: string | null, seat: number | null, seatToken: string | null, type: PlayerEventType | null };

export type MatchmakingStatusQueryVariables = Exact<{
  playerId?: string | null | undefined;
}>;


export type MatchmakingStatusQuery = { matchmaking: { playerId: string, state: MatchmakingState, kind: GameKind | null, players: number | null, options: unknown, rating: number | null, waitingSince: string | null, window: number | null, gameId: string | null, seat: number | null, seatToken: string | null, type: PlayerEventType | null } };

export type EnterMatchmakingMutationVariables = Exact<{
  input: MatchmakingInput;
}>;


export type EnterMatchmakingMutation = { enterMatchmaking: { playerId: string, state: MatchmakingState, kind: GameKind | null, players: number | null, options: unknown, rating: number | null, waitingSince: string | null, window: number | null, gameId: string | null, seat: number | null, seatToken: string | null, type: PlayerEventType | null } };

export type LeaveMatchmakingMutationVariables = Exact<{
  playerId?: string | null | undefined;
}>;


export type LeaveMatchmakingMutation = { leaveMatchmaking: { playerId: string, state: MatchmakingState, kind: GameKind | null, players: number | null, options: unknown, rating: number | null, waitingSince: string | null, window: number | null, gameId: string | null, seat: number | null, seatToken: string | null, type: PlayerEventType | null } };

export type PlayerEventsSubscriptionVariables = Exact<{
  playerId?: string | null | undefined;
}>;


export type PlayerEventsSubscription = { playerEvents: { playerId: string, state: MatchmakingState, kind: GameKind | null, players: number | null, options: unknown, rating: number | null, waitingSince: string | null, window: number | null, gameId: string | null, seat: number | null, seatToken: string | null, type: PlayerEventType | null } };

export type CreateChallengeMutationVariables = Exact<{
  input: ChallengeInput;
}>;


export type CreateChallengeMutation = { createChallenge: { seatToken: string, expiresAt: string, game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } } };

export type DeclineChallengeMutationVariables = Exact<{
  gameId: string | number;
}>;


export type DeclineChallengeMutation = { declineChallenge: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } };

export type MyChallengesQueryVariables = Exact<{ [key: string]: never; }>;


export type MyChallengesQuery = { myChallenges: Array<{ seat: number, game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } }> };

export type OfferRematchMutationVariables = Exact<{
  gameId: string | number;
  expiresInSeconds?: number;
  asSeat?: number | null | undefined;
}>;


export type OfferRematchMutation = { offerRematch: { seat: number, seatToken: string | null, game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } } };

export type AcceptRematchMutationVariables = Exact<{
  gameId: string | number;
  asSeat?: number | null | undefined;
}>;


export type AcceptRematchMutation = { acceptRematch: { seat: number, seatToken: string | null, game: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } } };

export type DeclineRematchMutationVariables = Exact<{
  gameId: string | number;
  asSeat?: number | null | undefined;
}>;


export type DeclineRematchMutation = { declineRematch: { id: string, kind: GameKind, version: number, status: GameStatus, players: number, toAct: Array<number> } };

export type RematchQueryVariables = Exact<{
  gameId: string | number;
  asSeat?: number | null | undefined;
}>;


export type RematchQuery = { rematch: { gameId: string } | null };

export type RatingFieldsFragment = { playerId: string, kind: GameKind, mu: number, sigma: number, ordinal: number, games: number, updatedAt: string };

export type LeaderboardQueryVariables = Exact<{
  kind: GameKind;
  first: number;
  after?: string | null | undefined;
}>;


export type LeaderboardQuery = { leaderboard: { edges: Array<{ cursor: string, node: { playerId: string, kind: GameKind, mu: number, sigma: number, ordinal: number, games: number, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type RatingQueryVariables = Exact<{
  playerId: string;
  kind: GameKind;
}>;


export type RatingQuery = { rating: { playerId: string, kind: GameKind, mu: number, sigma: number, ordinal: number, games: number, updatedAt: string } | null };

export type RatingPolicyQueryVariables = Exact<{ [key: string]: never; }>;


export type RatingPolicyQuery = { ratingPolicy: { maxTakebacks: number } };

export type SetRatingPolicyMutationVariables = Exact<{
  maxTakebacks: number;
}>;


export type SetRatingPolicyMutation = { setRatingPolicy: { maxTakebacks: number } };

export type LanguagesQueryVariables = Exact<{ [key: string]: never; }>;


export type LanguagesQuery = { languages: Array<{ tag: string, name: string, nativeName: string, pseudo: boolean, translated: number, total: number, coverage: number, catalogs: Array<{ catalog: string, game: GameKind | null, translated: number, total: number, coverage: number }> }> };

export const TextFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<TextFragment, unknown>;
export const ViewFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"View"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelineView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelinePhase"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"endReason"}},{"kind":"Field","name":{"kind":"Name","value":"treelineSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"supply"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelingsView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelingsPhase"}},{"kind":"Field","name":{"kind":"Name","value":"turnSeat"}},{"kind":"Field","name":{"kind":"Name","value":"finalRound"}},{"kind":"Field","name":{"kind":"Name","value":"turnsLeft"}},{"kind":"Field","name":{"kind":"Name","value":"market"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"colour"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreetopiaView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treetopiaPhase"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"drawPile"}},{"kind":"Field","name":{"kind":"Name","value":"pool"}},{"kind":"Field","name":{"kind":"Name","value":"treetopiaSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"hand"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AvenueView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"avenuePhase"}},{"kind":"Field","name":{"kind":"Name","value":"round"}},{"kind":"Field","name":{"kind":"Name","value":"rounds"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"avenueSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"projects"}}]}}]}}]}}]} as unknown as DocumentNode<ViewFragment, unknown>;
export const GameSummaryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GameSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"rulesVersion"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"spectatorDelay"}},{"kind":"Field","name":{"kind":"Name","value":"seats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"bot"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]} as unknown as DocumentNode<GameSummaryFragment, unknown>;
export const EndpointFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<EndpointFragment, unknown>;
export const MatchmakingFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Matchmaking"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"options"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"waitingSince"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]} as unknown as DocumentNode<MatchmakingFragment, unknown>;
export const RatingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RatingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Rating"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"mu"}},{"kind":"Field","name":{"kind":"Name","value":"sigma"}},{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"games"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RatingFieldsFragment, unknown>;
export const CatalogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Catalog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"catalog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"players"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}}]}},{"kind":"Field","name":{"kind":"Name","value":"typedOptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelineOptions"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startSeat"}},{"kind":"Field","name":{"kind":"Name","value":"fullGame"}},{"kind":"Field","name":{"kind":"Name","value":"strategicStart"}},{"kind":"Field","name":{"kind":"Name","value":"gladeCells"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelingsOptions"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startSeat"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreetopiaOptions"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startSeat"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AvenueOptions"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startSeat"}},{"kind":"Field","name":{"kind":"Name","value":"randomOrder"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CatalogQuery, CatalogQueryVariables>;
export const CreateGameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateGame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateGameInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createGame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"seedCommitment"}},{"kind":"Field","name":{"kind":"Name","value":"seats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"bot"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"seats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]}}]} as unknown as DocumentNode<CreateGameMutation, CreateGameMutationVariables>;
export const GameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Game"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"viewer"}},{"kind":"Field","name":{"kind":"Name","value":"view"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"View"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legalMoves"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"labelMessage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"typedMove"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}},{"kind":"Field","name":{"kind":"Name","value":"typedMoveInput"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"View"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelineView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelinePhase"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"endReason"}},{"kind":"Field","name":{"kind":"Name","value":"treelineSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"supply"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelingsView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelingsPhase"}},{"kind":"Field","name":{"kind":"Name","value":"turnSeat"}},{"kind":"Field","name":{"kind":"Name","value":"finalRound"}},{"kind":"Field","name":{"kind":"Name","value":"turnsLeft"}},{"kind":"Field","name":{"kind":"Name","value":"market"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"colour"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreetopiaView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treetopiaPhase"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"drawPile"}},{"kind":"Field","name":{"kind":"Name","value":"pool"}},{"kind":"Field","name":{"kind":"Name","value":"treetopiaSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"hand"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AvenueView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"avenuePhase"}},{"kind":"Field","name":{"kind":"Name","value":"round"}},{"kind":"Field","name":{"kind":"Name","value":"rounds"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"avenueSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"projects"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<GameQuery, GameQueryVariables>;
export const ViewAtDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ViewAt"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"version"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewAt"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"version"},"value":{"kind":"Variable","name":{"kind":"Name","value":"version"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"View"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"View"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelineView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelinePhase"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"endReason"}},{"kind":"Field","name":{"kind":"Name","value":"treelineSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"supply"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreelingsView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treelingsPhase"}},{"kind":"Field","name":{"kind":"Name","value":"turnSeat"}},{"kind":"Field","name":{"kind":"Name","value":"finalRound"}},{"kind":"Field","name":{"kind":"Name","value":"turnsLeft"}},{"kind":"Field","name":{"kind":"Name","value":"market"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"colour"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TreetopiaView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"treetopiaPhase"}},{"kind":"Field","name":{"kind":"Name","value":"activeSeat"}},{"kind":"Field","name":{"kind":"Name","value":"drawPile"}},{"kind":"Field","name":{"kind":"Name","value":"pool"}},{"kind":"Field","name":{"kind":"Name","value":"treetopiaSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"hand"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AvenueView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"avenuePhase"}},{"kind":"Field","name":{"kind":"Name","value":"round"}},{"kind":"Field","name":{"kind":"Name","value":"rounds"}},{"kind":"Field","name":{"kind":"Name","value":"turn"}},{"kind":"Field","name":{"kind":"Name","value":"avenueSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"projects"}}]}}]}}]}}]} as unknown as DocumentNode<ViewAtQuery, ViewAtQueryVariables>;
export const LegalMovesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LegalMoves"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"viewer"}},{"kind":"Field","name":{"kind":"Name","value":"legalMoves"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"labelMessage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"typedMoveInput"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<LegalMovesQuery, LegalMovesQueryVariables>;
export const ValidateMoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ValidateMove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"move"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"typedMove"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TypedMoveInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"validateMove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"move"},"value":{"kind":"Variable","name":{"kind":"Name","value":"move"}}},{"kind":"Argument","name":{"kind":"Name","value":"typedMove"},"value":{"kind":"Variable","name":{"kind":"Name","value":"typedMove"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"valid"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"localizedMessage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<ValidateMoveQuery, ValidateMoveQueryVariables>;
export const SuggestMoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SuggestMove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"strategy"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Strategy"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"budgetMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"iterations"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"seed"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"suggestMove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"strategy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"strategy"}}},{"kind":"Argument","name":{"kind":"Name","value":"budgetMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"budgetMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"iterations"},"value":{"kind":"Variable","name":{"kind":"Name","value":"iterations"}}},{"kind":"Argument","name":{"kind":"Name","value":"seed"},"value":{"kind":"Variable","name":{"kind":"Name","value":"seed"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"strategy"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"typedMove"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}},{"kind":"Field","name":{"kind":"Name","value":"typedMoveInput"}}]}}]}}]} as unknown as DocumentNode<SuggestMoveQuery, SuggestMoveQueryVariables>;
export const GamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Games"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"GameFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"games"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GameSummary"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GameSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"rulesVersion"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"spectatorDelay"}},{"kind":"Field","name":{"kind":"Name","value":"seats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"bot"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]} as unknown as DocumentNode<GamesQuery, GamesQueryVariables>;
export const ApplyMoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ApplyMove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ApplyMoveInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"applyMove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveApplied"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"localizedMessage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<ApplyMoveMutation, ApplyMoveMutationVariables>;
export const ResignDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Resign"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resign"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveApplied"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}}]}}]}}]}}]} as unknown as DocumentNode<ResignMutation, ResignMutationVariables>;
export const RequestTakebackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RequestTakeback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestTakeback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveApplied"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"takebackRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"toVersion"}},{"kind":"Field","name":{"kind":"Name","value":"acceptedBy"}},{"kind":"Field","name":{"kind":"Name","value":"waitingFor"}},{"kind":"Field","name":{"kind":"Name","value":"expires"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}}]}}]}}]}}]} as unknown as DocumentNode<RequestTakebackMutation, RequestTakebackMutationVariables>;
export const AnswerTakebackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AnswerTakeback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accept"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"answerTakeback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"accept"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accept"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveApplied"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"takebackRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"waitingFor"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}}]}}]}}]}}]} as unknown as DocumentNode<AnswerTakebackMutation, AnswerTakebackMutationVariables>;
export const AbandonGameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AbandonGame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"abandonGame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveApplied"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MoveRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentVersion"}}]}}]}}]}}]} as unknown as DocumentNode<AbandonGameMutation, AbandonGameMutationVariables>;
export const ReissueSeatTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReissueSeatToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"seat"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reissueSeatToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"seat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"seat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"playerId"}}]}}]}}]} as unknown as DocumentNode<ReissueSeatTokenMutation, ReissueSeatTokenMutationVariables>;
export const ExportGameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExportGame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"exportGame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}]}]}}]} as unknown as DocumentNode<ExportGameQuery, ExportGameQueryVariables>;
export const VerifyGameRecordDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VerifyGameRecord"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"record"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verifyGameRecord"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"record"},"value":{"kind":"Variable","name":{"kind":"Name","value":"record"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"valid"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"scores"}},{"kind":"Field","name":{"kind":"Name","value":"difference"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<VerifyGameRecordQuery, VerifyGameRecordQueryVariables>;
export const RecordSigningKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecordSigningKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordSigningKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyId"}},{"kind":"Field","name":{"kind":"Name","value":"algorithm"}},{"kind":"Field","name":{"kind":"Name","value":"publicKey"}}]}}]}}]} as unknown as DocumentNode<RecordSigningKeysQuery, RecordSigningKeysQueryVariables>;
export const ScoresDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Scores"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}},{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"points"}},{"kind":"Field","name":{"kind":"Name","value":"tiebreak"}},{"kind":"Field","name":{"kind":"Name","value":"team"}},{"kind":"Field","name":{"kind":"Name","value":"seatPoints"}},{"kind":"Field","name":{"kind":"Name","value":"typedBreakdown"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"points"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"Field","name":{"kind":"Name","value":"detailMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<ScoresQuery, ScoresQueryVariables>;
export const HistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"History"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"language"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"labelMessage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"forced"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"actedBy"}},{"kind":"Field","name":{"kind":"Name","value":"typedMove"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Text"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Message"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"text"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"language"},"value":{"kind":"Variable","name":{"kind":"Name","value":"language"}}}]}]}}]} as unknown as DocumentNode<HistoryQuery, HistoryQueryVariables>;
export const SeedRevealDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SeedReveal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seedCommitment"}},{"kind":"Field","name":{"kind":"Name","value":"seedReveal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seed"}},{"kind":"Field","name":{"kind":"Name","value":"salt"}},{"kind":"Field","name":{"kind":"Name","value":"options"}}]}}]}}]}}]} as unknown as DocumentNode<SeedRevealQuery, SeedRevealQueryVariables>;
export const GameEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"GameEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gameEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]}}]} as unknown as DocumentNode<GameEventsSubscription, GameEventsSubscriptionVariables>;
export const WebhookEndpointsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Endpoint"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<WebhookEndpointsQuery, WebhookEndpointsQueryVariables>;
export const WebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Endpoint"}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failedEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"failedAt"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<WebhookEndpointQuery, WebhookEndpointQueryVariables>;
export const WebhookEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<WebhookEventsQuery, WebhookEventsQueryVariables>;
export const CreateWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"events"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"description"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}},{"kind":"Argument","name":{"kind":"Name","value":"events"},"value":{"kind":"Variable","name":{"kind":"Name","value":"events"}}},{"kind":"Argument","name":{"kind":"Name","value":"description"},"value":{"kind":"Variable","name":{"kind":"Name","value":"description"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Endpoint"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateWebhookEndpointMutation, CreateWebhookEndpointMutationVariables>;
export const UpdateWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"events"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEventType"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"description"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}},{"kind":"Argument","name":{"kind":"Name","value":"events"},"value":{"kind":"Variable","name":{"kind":"Name","value":"events"}}},{"kind":"Argument","name":{"kind":"Name","value":"description"},"value":{"kind":"Variable","name":{"kind":"Name","value":"description"}}},{"kind":"Argument","name":{"kind":"Name","value":"enabled"},"value":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Endpoint"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdateWebhookEndpointMutation, UpdateWebhookEndpointMutationVariables>;
export const DeleteWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<DeleteWebhookEndpointMutation, DeleteWebhookEndpointMutationVariables>;
export const RotateWebhookSecretDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateWebhookSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateWebhookSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Endpoint"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Endpoint"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const RedeliverWebhookEventDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverWebhookEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhookEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"Argument","name":{"kind":"Name","value":"eventId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}}}]}]}}]} as unknown as DocumentNode<RedeliverWebhookEventMutation, RedeliverWebhookEventMutationVariables>;
export const RetryWebhookEventDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryWebhookEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryWebhookEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"Argument","name":{"kind":"Name","value":"eventId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}}}]}]}}]} as unknown as DocumentNode<RetryWebhookEventMutation, RetryWebhookEventMutationVariables>;
export const SendTestWebhookEventDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendTestWebhookEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendTestWebhookEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}]}]}}]} as unknown as DocumentNode<SendTestWebhookEventMutation, SendTestWebhookEventMutationVariables>;
export const LobbyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Lobby"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lobby"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"joinCode"}},{"kind":"Field","name":{"kind":"Name","value":"inviteUrl"}},{"kind":"Field","name":{"kind":"Name","value":"openSeats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"reserved"}}]}},{"kind":"Field","name":{"kind":"Name","value":"started"}}]}}]}}]} as unknown as DocumentNode<LobbyQuery, LobbyQueryVariables>;
export const JoinGameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JoinGame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"joinGame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}},{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]}}]} as unknown as DocumentNode<JoinGameMutation, JoinGameMutationVariables>;
export const LeaveGameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveGame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveGame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]} as unknown as DocumentNode<LeaveGameMutation, LeaveGameMutationVariables>;
export const MyGamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyGames"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"GameStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"GameKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myGames"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"GameSummary"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"GameSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"GameConnection"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"rulesVersion"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}},{"kind":"Field","name":{"kind":"Name","value":"spectatorDelay"}},{"kind":"Field","name":{"kind":"Name","value":"seats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"bot"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outcome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]} as unknown as DocumentNode<MyGamesQuery, MyGamesQueryVariables>;
export const IssuePlayerTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"IssuePlayerToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ttlSeconds"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"issuePlayerToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"ttlSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ttlSeconds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<IssuePlayerTokenMutation, IssuePlayerTokenMutationVariables>;
export const RevokePlayerTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokePlayerTokens"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokePlayerTokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"revokedBefore"}}]}}]}}]} as unknown as DocumentNode<RevokePlayerTokensMutation, RevokePlayerTokensMutationVariables>;
export const MatchmakingStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MatchmakingStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"matchmaking"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Matchmaking"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Matchmaking"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"options"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"waitingSince"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]} as unknown as DocumentNode<MatchmakingStatusQuery, MatchmakingStatusQueryVariables>;
export const EnterMatchmakingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EnterMatchmaking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enterMatchmaking"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Matchmaking"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Matchmaking"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"options"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"waitingSince"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]} as unknown as DocumentNode<EnterMatchmakingMutation, EnterMatchmakingMutationVariables>;
export const LeaveMatchmakingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveMatchmaking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveMatchmaking"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Matchmaking"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Matchmaking"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"options"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"waitingSince"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]} as unknown as DocumentNode<LeaveMatchmakingMutation, LeaveMatchmakingMutationVariables>;
export const PlayerEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PlayerEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Matchmaking"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Matchmaking"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MatchmakingStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"options"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"waitingSince"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"gameId"}},{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]} as unknown as DocumentNode<PlayerEventsSubscription, PlayerEventsSubscriptionVariables>;
export const CreateChallengeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateChallenge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ChallengeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createChallenge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<CreateChallengeMutation, CreateChallengeMutationVariables>;
export const DeclineChallengeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeclineChallenge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"declineChallenge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]} as unknown as DocumentNode<DeclineChallengeMutation, DeclineChallengeMutationVariables>;
export const MyChallengesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyChallenges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myChallenges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]}}]} as unknown as DocumentNode<MyChallengesQuery, MyChallengesQueryVariables>;
export const OfferRematchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OfferRematch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expiresInSeconds"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"3600"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"offerRematch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expiresInSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expiresInSeconds"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]}}]} as unknown as DocumentNode<OfferRematchMutation, OfferRematchMutationVariables>;
export const AcceptRematchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcceptRematch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acceptRematch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seat"}},{"kind":"Field","name":{"kind":"Name","value":"seatToken"}},{"kind":"Field","name":{"kind":"Name","value":"game"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]}}]} as unknown as DocumentNode<AcceptRematchMutation, AcceptRematchMutationVariables>;
export const DeclineRematchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeclineRematch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"declineRematch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"players"}},{"kind":"Field","name":{"kind":"Name","value":"toAct"}}]}}]}}]} as unknown as DocumentNode<DeclineRematchMutation, DeclineRematchMutationVariables>;
export const RematchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Rematch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rematch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"gameId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gameId"}}},{"kind":"Argument","name":{"kind":"Name","value":"asSeat"},"value":{"kind":"Variable","name":{"kind":"Name","value":"asSeat"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gameId"}}]}}]}}]} as unknown as DocumentNode<RematchQuery, RematchQueryVariables>;
export const LeaderboardDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Leaderboard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GameKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaderboard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RatingFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RatingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Rating"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"mu"}},{"kind":"Field","name":{"kind":"Name","value":"sigma"}},{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"games"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<LeaderboardQuery, LeaderboardQueryVariables>;
export const RatingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Rating"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GameKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rating"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"playerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"playerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RatingFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RatingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Rating"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playerId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"mu"}},{"kind":"Field","name":{"kind":"Name","value":"sigma"}},{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"games"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RatingQuery, RatingQueryVariables>;
export const RatingPolicyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RatingPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ratingPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"maxTakebacks"}}]}}]}}]} as unknown as DocumentNode<RatingPolicyQuery, RatingPolicyQueryVariables>;
export const SetRatingPolicyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetRatingPolicy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maxTakebacks"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setRatingPolicy"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"maxTakebacks"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maxTakebacks"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"maxTakebacks"}}]}}]}}]} as unknown as DocumentNode<SetRatingPolicyMutation, SetRatingPolicyMutationVariables>;
export const LanguagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tag"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nativeName"}},{"kind":"Field","name":{"kind":"Name","value":"pseudo"}},{"kind":"Field","name":{"kind":"Name","value":"translated"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"coverage"}},{"kind":"Field","name":{"kind":"Name","value":"catalogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"catalog"}},{"kind":"Field","name":{"kind":"Name","value":"game"}},{"kind":"Field","name":{"kind":"Name","value":"translated"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"coverage"}}]}}]}}]}}]} as unknown as DocumentNode<LanguagesQuery, LanguagesQueryVariables>;