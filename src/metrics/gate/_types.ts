import type { MetricEntry } from '../../documents/index.js';
import type { GateContext } from './_context.js';

/** A gate measure: one file, one object; `compute` returns its metric entries (most have one). */
export interface GateMeasure {
  id: string;
  /** what the numerator and denominator (or n) count; copied into every MetricEntry */
  help: string;
  compute(ctx: GateContext): MetricEntry[];
}
