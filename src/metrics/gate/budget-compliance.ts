import type { Observation } from '../../documents/index.js';
import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** Budget lines an answer breaks (empty = within every budget that applied). */
export function budgetViolations(o: Observation): string[] {
  const b = o.budgets ?? {};
  const out: string[] = [];
  if (b.max_files !== undefined && o.usage.files > b.max_files)
    out.push(`files ${o.usage.files} > ${b.max_files}`);
  if (b.tokens !== undefined && o.usage.tokens > b.tokens) out.push(`tokens ${o.usage.tokens} > ${b.tokens}`);
  if (b.max_chars_per_file !== undefined) {
    for (const r of o.ranked) {
      if (r.chars !== undefined && r.chars > b.max_chars_per_file) {
        out.push(`${r.id}: chars ${r.chars} > ${b.max_chars_per_file}`);
      }
    }
  }
  return out;
}

export const budgetCompliance: GateMeasure = {
  id: 'budget_compliance',
  help:
    'numerator: requests answered successfully within every budget that applied to them (usage.files <= ' +
    'max_files, usage.tokens <= tokens, each emitted item chars <= max_chars_per_file); denominator: ' +
    'requests, all replays, errored ones included.',
  perQuery(ctx) {
    return [perRequestRate(this.id, ctx, (o) => o.ok && budgetViolations(o).length === 0)];
  },
};
