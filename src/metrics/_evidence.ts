/**
 * The run's evidence, indexed once: every observation grouped by query and replay, and what was
 * attempted, answered, failed and never run. Every measure (through GateContext), the replay proof,
 * the error and warning sections and the peer figures read this one index, so no section can count
 * a replay that never ran or a request that was never made.
 */
import { compareCodeUnits } from '../core/canonical-json.js';
import type { Observation, QueryRecord, RunEvidence, RunState } from '../documents/index.js';

export class EvidenceIndex {
  /** the pinned query set, in its file order */
  readonly queries: readonly QueryRecord[];
  /** replays planned */
  readonly replays: number;
  /** observations of the set's queries in (replay, query id) order: the report order */
  readonly observations: readonly Observation[];
  /** replays in which every query was observed */
  readonly completedReplays: number;
  /** replays in which at least one query was observed */
  readonly startedReplays: number;
  private readonly byQuery = new Map<string, Observation[]>();

  constructor(queries: readonly QueryRecord[], observations: readonly Observation[], replays: number) {
    this.queries = queries;
    this.replays = replays;
    for (const q of queries) this.byQuery.set(q.query_id, []);
    const known: Observation[] = [];
    for (const o of observations) {
      const list = this.byQuery.get(o.query_id);
      if (!list) continue; // an observation of a query the set does not have is no evidence about it
      list.push(o);
      known.push(o);
    }
    for (const list of this.byQuery.values()) list.sort((a, b) => a.replay - b.replay);
    this.observations = known.sort((a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id));
    const perReplay = new Map<number, number>();
    for (const o of known) perReplay.set(o.replay, (perReplay.get(o.replay) ?? 0) + 1);
    let completed = 0;
    for (let r = 1; r <= replays; r++) if ((perReplay.get(r) ?? 0) >= queries.length) completed++;
    this.completedReplays = queries.length === 0 ? 0 : completed;
    this.startedReplays = perReplay.size;
  }

  /** a query's observations, by replay */
  all(queryId: string): readonly Observation[] {
    return this.byQuery.get(queryId) ?? [];
  }

  at(queryId: string, replay: number): Observation | undefined {
    return this.all(queryId).find((o) => o.replay === replay);
  }

  /** replay 1's observation of a query (the answer a report shows), else its earliest */
  first(queryId: string): Observation | undefined {
    const list = this.all(queryId);
    return list.find((o) => o.replay === 1) ?? list[0];
  }

  /** was any request of this query made */
  attempted(queryId: string): boolean {
    return this.all(queryId).length > 0;
  }

  /** every planned replay of this query was observed */
  complete(queryId: string): boolean {
    return this.all(queryId).length >= this.replays;
  }

  /**
   * Is this query's `key` the same in every replay? true: every planned replay was observed and
   * agrees; false: two observed replays differ (a divergence needs no more evidence than that);
   * null: they agree as far as they ran, but not every replay ran, so nothing is shown either way.
   */
  sameInEveryReplay(queryId: string, key: (o: Observation) => string): boolean | null {
    const list = this.all(queryId);
    if (list.length === 0) return null;
    const first = key(list[0]!);
    if (list.some((o) => key(o) !== first)) return false;
    return this.complete(queryId) ? true : null;
  }

  /** What ran, as the report states it. */
  summary(state: RunState): RunEvidence {
    const planned = this.queries.length * this.replays;
    const answered = this.observations.filter((o) => o.ok).length;
    const made = this.observations.length;
    return {
      state,
      replays: { planned: this.replays, completed: this.completedReplays, started: this.startedReplays },
      requests: {
        planned,
        made,
        answered,
        failed: made - answered,
        not_run: Math.max(0, planned - made),
      },
    };
  }
}
