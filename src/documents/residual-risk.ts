import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

/** A risk the Gate C closeout leaves open, with who closes it by when. */
export const ResidualRiskSchema = Closed({
  id: Type.String(),
  risk: Type.String(),
  owner: Type.String(),
  /** YYYY-MM-DD */
  due: Type.String({ format: 'date' }),
  mitigation: Type.Optional(Type.String()),
  severity: Type.Optional(Type.String()),
});
export type ResidualRisk = Static<typeof ResidualRiskSchema>;
