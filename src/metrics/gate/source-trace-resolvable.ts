import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const sourceTraceResolvable: GateMeasure = {
  id: 'source_trace_resolvable',
  help:
    'numerator: selections whose selected_id is a record of the pinned corpus and whose source_path is that ' +
    "record's source_path; denominator: requests that selected something (non-empty selected_id), plus " +
    'errored requests (which fail).',
  perQuery(ctx) {
    return [
      perRequestRate(
        this.id,
        ctx,
        (o) => {
          const rec = o.ok && o.selected_id ? ctx.corpusById.get(o.selected_id) : undefined;
          return rec !== undefined && o.source_path === rec.source_path;
        },
        // an errored request counts whatever it carried, and fails
        (o) => !o.ok || Boolean(o.selected_id),
      ),
    ];
  },
};
