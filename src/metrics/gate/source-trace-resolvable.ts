import { rate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const sourceTraceResolvable: GateMeasure = {
  id: 'source_trace_resolvable',
  help:
    'numerator: selections whose selected_id is a record of the pinned corpus and whose source_path is that ' +
    "record's source_path; denominator: requests that selected something (non-empty selected_id), plus " +
    'errored requests (which fail).',
  compute(ctx) {
    let num = 0;
    let den = 0;
    for (const o of ctx.observations) {
      if (!o.ok) {
        den++;
        continue;
      }
      if (!o.selected_id) continue;
      den++;
      const rec = ctx.corpusById.get(o.selected_id);
      if (rec && o.source_path === rec.source_path) num++;
    }
    return [{ id: this.id, value: rate(num, den), help: this.help }];
  },
};
