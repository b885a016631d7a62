/**
 * DS012 `ResolvedIntent`: what a context matcher over hierarchical knowledge units (DS030) hands the
 * planner and the goal solver for one intent. The field names are DS012's (camelCase). Objects are
 * open: a producer may add diagnostics, and rgate checks only what DS012 names plus the unit fields
 * its measures read (`kuId`, `sourceLink`, `text`; `level` when the unit is a KB unit).
 */
import { Type, type Static } from '@sinclair/typebox';
import { KuLevelSchema } from './corpus-record.js';
import { OrNull, StringEnum } from './keywords.js';

const nonEmpty = Type.String({ minLength: 1 });
const count = Type.Integer({ minimum: 0 });

export const KU_PURPOSES = ['strategy-guidance', 'task-evidence', 'mixed'] as const;
export const KuPurposeSchema = StringEnum(KU_PURPOSES);
export type KuPurpose = Static<typeof KuPurposeSchema>;

/** The four consumers of guidance (DS012 `guidanceUnits`); output-shaping instructions are the goal solver's. */
export const GUIDANCE_ROLES = ['planner', 'goalSolver', 'decomposition', 'validation'] as const;
export const GuidanceRoleSchema = StringEnum(GUIDANCE_ROLES);
export type GuidanceRole = Static<typeof GuidanceRoleSchema>;

/** How a unit's text got into the bundle: whole, cut to the size budget, or as a child of an over-budget unit. */
export const KU_LOADED_AS = ['whole', 'truncated', 'child'] as const;

/** One knowledge unit as a ResolvedIntent carries it. */
export const ResolvedUnitSchema = Type.Object({
  kuId: nonEmpty,
  /** KB units: the DS030 level; current-turn and session units have none */
  level: Type.Optional(KuLevelSchema),
  parentId: Type.Optional(OrNull(Type.String())),
  title: Type.Optional(Type.String()),
  /** where the unit came from: a KB unit's `source_path`, or `turn:` / `session:` for conversation units */
  sourceLink: nonEmpty,
  text: Type.String(),
  score: Type.Optional(Type.Number()),
  /** the guidance role, for units in `guidanceUnits` */
  role: Type.Optional(GuidanceRoleSchema),
  loadedAs: Type.Optional(StringEnum(KU_LOADED_AS)),
  /** for `loadedAs: child`: the over-budget unit this child stands in for */
  splitFrom: Type.Optional(nonEmpty),
});
export type ResolvedUnit = Static<typeof ResolvedUnitSchema>;

/** A relevant unit larger than the per-unit size budget, and what the matcher did with it. */
export const OverBudgetUnitSchema = Type.Object({
  kuId: nonEmpty,
  chars: count,
  budget: count,
  resolution: StringEnum(['children', 'whole', 'truncated']),
  children: Type.Array(nonEmpty),
});
export type OverBudgetUnit = Static<typeof OverBudgetUnitSchema>;

export const RetrievalTraceSchema = Type.Object({
  purpose: KuPurposeSchema,
  strategiesRun: Type.Array(nonEmpty),
  escalated: Type.Boolean(),
  kuLevelsUsed: Type.Array(KuLevelSchema, { uniqueItems: true }),
  totalKUsConsidered: count,
  /** extension: the level the matcher judged the intent to need */
  targetLevel: Type.Optional(KuLevelSchema),
  /** extension: relevant units over the size budget and how each was resolved */
  overBudget: Type.Optional(Type.Array(OverBudgetUnitSchema)),
  /** extension: evidence units left out because the token budget was spent */
  budgetDropped: Type.Optional(Type.Array(nonEmpty)),
});
export type RetrievalTrace = Static<typeof RetrievalTraceSchema>;

const units = Type.Array(ResolvedUnitSchema);

export const ResolvedIntentSchema = Type.Object(
  {
    intentRef: nonEmpty,
    retrievalProfile: Type.Optional(Type.String()),
    intentGroup: Type.Optional(OrNull(Type.String())),
    decomposed: Type.Optional(Type.Unknown()),
    strategyUnits: units,
    guidanceUnits: Type.Object({
      planner: units,
      goalSolver: units,
      decomposition: units,
      validation: units,
    }),
    currentTurnContextUnits: units,
    sessionUnits: units,
    /** the task evidence, most relevant first: rgate reads the ranking from this order */
    kbUnits: units,
    retrievalTrace: RetrievalTraceSchema,
    resolvedPayload: Type.Object({
      prompt: Type.String(),
      context: Type.Array(Type.Object({ title: Type.String(), sourceLink: nonEmpty, text: Type.String() })),
    }),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/resolved-intent.json',
    title: 'DS012 ResolvedIntent (one intent)',
  },
);
export type ResolvedIntent = Static<typeof ResolvedIntentSchema>;
