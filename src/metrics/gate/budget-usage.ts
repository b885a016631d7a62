import { perRequestMean } from './_values.js';
import type { GateMeasure } from './_types.js';

const FIELDS = ['files', 'chars', 'tokens'] as const;

export const budgetUsage: GateMeasure = {
  id: 'budget_usage',
  help:
    'mean usage (files, chars, tokens) per successful request, all replays, with a seeded bootstrap 95% ' +
    'interval; n = requests answered successfully (errored requests report no usage).',
  perQuery(ctx) {
    return FIELDS.map((f) =>
      perRequestMean(`budget_usage.${f}`, ctx, (o) => (o.ok ? o.usage[f] : undefined)),
    );
  },
};
