/**
 * What a query record states for knowledge-unit context matching (DS012): the conversation units the
 * matcher is given with the intent, and the judgments its answer is held to.
 */
import { Type, type Static } from '@sinclair/typebox';
import { KuLevelSchema } from './corpus-record.js';
import { Closed } from './keywords.js';
import { GuidanceRoleSchema } from './resolved-intent.js';

const nonEmpty = Type.String({ minLength: 1 });

/** A unit of the current turn or the session: not in the KB, handed to the matcher with the intent. */
export const ConversationUnitSchema = Closed({
  id: nonEmpty,
  title: Type.Optional(Type.String()),
  text: Type.String(),
  /** `guidance:<role>` marks a guidance unit explicitly; untagged units are classified by the matcher */
  tags: Type.Optional(Type.Array(nonEmpty)),
});
export type ConversationUnit = Static<typeof ConversationUnitSchema>;

/** A guidance unit the answer must keep (in `guidanceUnits`), and the role it serves. */
export const RequiredGuidanceSchema = Closed({ id: nonEmpty, role: GuidanceRoleSchema });
export type RequiredGuidance = Static<typeof RequiredGuidanceSchema>;

export const KuQuerySchema = Closed({
  current_turn: Type.Optional(Type.Array(ConversationUnitSchema)),
  session: Type.Optional(Type.Array(ConversationUnitSchema)),
  /** judgment: the abstraction level the intent needs (summary / intermediate / leaf) */
  expected_level: Type.Optional(KuLevelSchema),
  /** judgment: guidance units (current-turn or KB) that must survive into `guidanceUnits` */
  required_guidance: Type.Optional(Type.Array(RequiredGuidanceSchema)),
});
export type KuQuery = Static<typeof KuQuerySchema>;
