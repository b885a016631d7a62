import { Type, type Static } from '@sinclair/typebox';
import { KuLevelSchema } from './corpus-record.js';
import { Closed, StringEnum } from './keywords.js';
import { GuidanceRoleSchema, KU_LOADED_AS, KuPurposeSchema } from './resolved-intent.js';

const ORIGINS = ['kb', 'strategy', 'guidance', 'current_turn', 'session'] as const;

/** One unit a ResolvedIntent kept, as the KU measures read it. */
export const KuObservedUnitSchema = Closed({
  id: Type.String(),
  origin: StringEnum(ORIGINS),
  level: Type.Optional(KuLevelSchema),
  role: Type.Optional(GuidanceRoleSchema),
  loaded_as: Type.Optional(StringEnum(KU_LOADED_AS)),
  split_from: Type.Optional(Type.String()),
  chars: Type.Integer({ minimum: 0 }),
});
export type KuObservedUnit = Static<typeof KuObservedUnitSchema>;

/**
 * What a `resolved-intent` answer adds to its Observation: the trace, every unit kept (in response
 * order), the over-budget decisions, and the sha256 of the canonical ResolvedIntent, so replay
 * determinism covers the whole answer and not only the kbUnits ranking.
 */
export const KuObservationSchema = Closed({
  purpose: KuPurposeSchema,
  escalated: Type.Boolean(),
  strategies_run: Type.Array(Type.String()),
  levels_used: Type.Array(KuLevelSchema),
  total_considered: Type.Integer({ minimum: 0 }),
  target_level: Type.Optional(KuLevelSchema),
  units: Type.Array(KuObservedUnitSchema),
  over_budget: Type.Array(
    Closed({
      id: Type.String(),
      resolution: StringEnum(['children', 'whole', 'truncated']),
      children: Type.Array(Type.String()),
    }),
  ),
  response_sha256: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
});
export type KuObservation = Static<typeof KuObservationSchema>;
