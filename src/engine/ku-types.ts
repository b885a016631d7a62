import type { ConversationUnit, Profile } from '../documents/index.js';

/** One intent for KU context matching (DS012 `ContextMatcher.resolve`, one decomposed intent at a time). */
export interface KuRequest {
  /** the intent text (the decomposed intent's task) */
  intent: string;
  /** DS012 intentRef: the caller's id for the intent (rgate passes the query id) */
  intentRef: string;
  retrieval_profile?: Profile;
  /** units of the current turn, filtered per intent (guidance units always survive) */
  current_turn?: readonly ConversationUnit[];
  /** units of earlier turns in the session */
  session?: readonly ConversationUnit[];
  /** most KB evidence units (default: the profile's max_files) */
  max_units?: number;
  /** per-unit size budget in characters; a larger relevant unit contributes children instead */
  unit_chars?: number;
  /** total token budget of the payload context (ceil(chars/4)); guidance is never dropped for it */
  tokens?: number;
}
