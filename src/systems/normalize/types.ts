import type { formatAjvErrors } from '../../contracts/ajv.js';
import type { RawObservation } from '../types.js';

/** The part of an Observation a response decides (the adapter adds query_id, latency, budgets, profile). */
export type NormalizedResponse = Pick<
  RawObservation,
  | 'ok'
  | 'error'
  | 'selection_mode'
  | 'selected_id'
  | 'source_path'
  | 'no_match_reason'
  | 'ranked'
  | 'unranked'
  | 'fallback'
  | 'usage'
  | 'contract'
  | 'ku'
>;

/** How the suite reads an answer (the system spec's settings that shape normalisation). */
export interface NormalizeOptions {
  /**
   * context-load: which entries are ranked. `auto` (default): the `task:`-selected entries when the
   * answer has any, else all (what seed 000's Phase 2 harness evaluates); `all`; `rank`: the entries
   * with an integer `rank`, in rank order; `selected_by:<prefix>`: the entries whose `selected_by`
   * starts with the prefix, in answer order. The others are listed as `unranked`.
   */
  rankedEntries?: string;
}

/** A compiled validator (ajv's ValidateFunction, typed structurally: src/systems may not import ajv itself). */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: Parameters<typeof formatAjvErrors>[0];
}

/**
 * One response contract: its ajv validator (the letter of the contract), checks JSON Schema cannot
 * express, and the mapping to an Observation. `measurable` is the looser shape a measurement needs
 * (`M`, which every valid `T` also is); a payload that breaks the letter but is measurable is still
 * mapped, its violations listed. A contract without `measurable` is measurable only when valid.
 */
export interface ResponseNormalizer<T extends M, M = T> {
  readonly validate: Validator<T>;
  readonly measurable?: Validator<M>;
  /** cross-field rules (`/selected_count: must equal ...`), as ajv-style `/path: message` lines; run on valid payloads */
  crossCheck?(payload: T): string[];
  /** the payload is measurable here (valid, or valid against `measurable`) */
  toObservation(payload: M, options: NormalizeOptions): Omit<NormalizedResponse, 'ok' | 'error' | 'contract'>;
  /** the JSON path, in the payload, of the id of the i-th item of toObservation's `ranked` (a repeat's violation names it) */
  rankedIdPath(payload: M, i: number, options: NormalizeOptions): string;
}

/** Token estimate used wherever a contract does not state tokens: ceil(chars / 4). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
