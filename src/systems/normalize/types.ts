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
  | 'fallback'
  | 'usage'
  | 'contract'
  | 'ku'
>;

/** A compiled validator (ajv's ValidateFunction, typed structurally: src/systems may not import ajv itself). */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: Parameters<typeof formatAjvErrors>[0];
}

/** One response contract: its ajv validator, checks JSON Schema cannot express, and the mapping to an Observation. */
export interface ResponseNormalizer<T> {
  readonly validate: Validator<T>;
  /** cross-field rules (`/selected_count: must equal ...`), as ajv-style `/path: message` lines */
  crossCheck?(payload: T): string[];
  /** the payload is valid here */
  toObservation(payload: T): Omit<NormalizedResponse, 'ok' | 'error' | 'contract'>;
}

/** Token estimate used wherever a contract does not state tokens: ceil(chars / 4). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
