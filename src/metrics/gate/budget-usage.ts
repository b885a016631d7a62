import { deriveSeed } from '../../core/prng.js';
import { mean } from './_values.js';
import type { GateMeasure } from './_types.js';

const FIELDS = ['files', 'chars', 'tokens'] as const;

export const budgetUsage: GateMeasure = {
  id: 'budget_usage',
  help:
    'mean usage (files, chars, tokens) per successful request, all replays, with a seeded bootstrap 95% ' +
    'interval; n = requests answered successfully (errored requests report no usage).',
  compute(ctx) {
    const ok = ctx.observations.filter((o) => o.ok);
    return FIELDS.map((f) => ({
      id: `budget_usage.${f}`,
      value: mean(
        ok.map((o) => o.usage[f]),
        deriveSeed(ctx.input.seed, `budget_usage.${f}`),
      ),
      help: this.help,
    }));
  },
};
