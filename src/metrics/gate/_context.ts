/**
 * What every gate measure reads: the queries, the pinned corpus, and the observations grouped by
 * query and replay; plus the two judgements several measures share — "is this a probe query" and
 * "is this top-1 useful".
 */
import { compareCodeUnits } from '../../core/canonical-json.js';
import { CONTRACT_DEFAULTS } from '../../core/defaults.js';
import { EvidenceIndex } from '../_evidence.js';
import { isSemanticWin } from './_query-values.js';
import {
  type CorpusRecord,
  type Observation,
  type QueryRecord,
  type RankedItem,
  type SelectionMode,
  type Top1Judgment,
} from '../../documents/index.js';

/** What the measures are computed from: the pinned query set and corpus, and the run's observations. */
export interface MeasureInput {
  queries: readonly QueryRecord[];
  corpus: readonly CorpusRecord[];
  observations: readonly Observation[];
  replays: number;
  relevanceLevel: number;
  seed: number;
  /** selection modes that count as a semantic win (the contract's setting); default CONTRACT_DEFAULTS */
  semanticWinModes?: readonly string[];
  /**
   * probes the system under test cannot take (query id -> why: it has no way to receive the probe's
   * input, e.g. no `{exact_key}`): no expectation of theirs is measured
   */
  notApplicable?: ReadonlyMap<string, string>;
  /** the run's evidence index, when the caller built it already (the harness shares one per run) */
  evidence?: EvidenceIndex;
}

export interface Top1Verdict {
  judgment: Top1Judgment;
  /** the id judged (selected_id, else the first ranked id) */
  id?: string;
  /** which judgment decided: qrels, useful_ids, useful_paths, rules, excluded_tag */
  by?: string;
}

/** The query names its useful answers itself (useful_ids or useful_paths): they override qrels grades. */
export function hasExplicitUseful(q: QueryRecord): boolean {
  return (q.useful_ids?.length ?? 0) > 0 || (q.useful_paths?.length ?? 0) > 0;
}

/**
 * The top-1 usefulness rule as applied to a query set, in words for the report: how many judged
 * queries each judgment source decides, at which relevance level.
 */
export function usefulnessRule(queries: readonly QueryRecord[], relevanceLevel: number): string {
  let explicit = 0;
  let qrels = 0;
  let rules = 0;
  for (const q of queries) {
    if (hasExplicitUseful(q)) explicit++;
    else if (Object.keys(q.qrels ?? {}).length > 0) qrels++;
    else if ((q.must_include_signals_any?.length ?? 0) + (q.must_include_tags_any?.length ?? 0) > 0) rules++;
  }
  const parts: string[] = [];
  if (qrels)
    parts.push(
      `${qrels} ${qrels === 1 ? 'query' : 'queries'} by qrels: grade >= ${relevanceLevel} (the relevance level) is useful, a top-1 without a qrels line is not`,
    );
  if (explicit) parts.push(`${explicit} by their explicit useful_ids / useful_paths (these override qrels)`);
  if (rules) parts.push(`${rules} by include rules (must_include signals or tags)`);
  const n = queries.length - explicit - qrels - rules;
  if (n) parts.push(`${n} without any judgment (not counted)`);
  return `top-1 useful: ${parts.join('; ')}; an excluded tag is never useful.`;
}

const FALLBACK_MODES: readonly SelectionMode[] = ['fallback_exact_key', 'fallback_path_priority'];

/** A request took a fallback: flagged by the system, or answered in a fallback mode. */
export function tookFallback(o: Observation): boolean {
  return (
    o.fallback.triggered || (o.selection_mode !== undefined && FALLBACK_MODES.includes(o.selection_mode))
  );
}

export class GateContext {
  readonly queries: readonly QueryRecord[];
  readonly corpusById = new Map<string, CorpusRecord>();
  readonly corpusPaths = new Set<string>();
  /** the run's observations, grouped by query and replay once */
  readonly evidence: EvidenceIndex;
  /** requests in a total order (query set order, then replay) so anything listed is deterministic */
  readonly observations: readonly Observation[];
  readonly semanticWinModes: readonly string[];

  constructor(readonly input: MeasureInput) {
    this.semanticWinModes = input.semanticWinModes ?? CONTRACT_DEFAULTS.semantic_win_modes;
    // query order is the query set's file order, made total by id for duplicate-free sets
    this.queries = input.queries;
    for (const r of input.corpus) {
      this.corpusById.set(r.id, r);
      this.corpusPaths.add(r.source_path);
    }
    this.evidence = input.evidence ?? new EvidenceIndex(input.queries, input.observations, input.replays);
    this.observations = input.queries.flatMap((q) => this.evidence.all(q.query_id));
  }

  /** Why the system cannot take this probe, or undefined when it can (or the query is no probe). */
  notApplicable(q: QueryRecord): string | undefined {
    return this.input.notApplicable?.get(q.query_id);
  }

  /** Replay 1's observation of a query (the answer the report shows), if it was observed. */
  first(q: QueryRecord): Observation | undefined {
    return this.evidence.first(q.query_id);
  }

  all(q: QueryRecord): readonly Observation[] {
    return this.evidence.all(q.query_id);
  }

  /** was any request of this query made: a query never asked is no evidence for any measure */
  attempted(q: QueryRecord): boolean {
    return this.evidence.attempted(q.query_id);
  }

  /**
   * Probe: the expectation is a fallback mode or no_match (DESIGN.md), i.e. not a semantic-win mode;
   * the rest are benchmark queries.
   */
  isProbe(q: QueryRecord): boolean {
    const m = q.expect?.selection_mode;
    return q.expect?.no_match === true || (m !== undefined && !this.isSemanticMode(m));
  }

  /** Does this selection mode count as "selected semantically" under the contract's setting? */
  isSemanticMode(m: string | undefined): boolean {
    return m !== undefined && this.semanticWinModes.includes(m);
  }

  /** Seed 001's top-1 success for one answer: judged useful and selected in a semantic-win mode. */
  semanticWin(judgment: Top1Judgment, o: Observation | undefined): boolean {
    return isSemanticWin(judgment, o?.selection_mode, this.semanticWinModes);
  }

  /** At least one judgment that can say a top-1 is useful. */
  hasJudgment(q: QueryRecord): boolean {
    return (
      Object.keys(q.qrels ?? {}).length > 0 ||
      (q.useful_ids?.length ?? 0) > 0 ||
      (q.useful_paths?.length ?? 0) > 0 ||
      (q.must_include_signals_any?.length ?? 0) > 0 ||
      (q.must_include_tags_any?.length ?? 0) > 0
    );
  }

  /** Tags of a returned item: its own and its corpus record's. */
  itemTags(item: { id: string; tags?: string[] }): string[] {
    const rec = this.corpusById.get(item.id);
    return [...new Set([...(item.tags ?? []), ...(rec?.tags ?? [])])].sort(compareCodeUnits);
  }

  /** Excluded tags a returned item carries (empty when the query excludes none). */
  leakedTags(q: QueryRecord, item: { id: string; tags?: string[] }): string[] {
    const excluded = q.must_exclude_tags_all ?? [];
    if (excluded.length === 0) return [];
    const tags = this.itemTags(item);
    return excluded.filter((t) => tags.includes(t));
  }

  /** The id a request answered with: selected_id, else the first ranked item. */
  top1(o: Observation): { id: string; source_path?: string; tags?: string[] } | undefined {
    if (o.selected_id) {
      const item = o.ranked.find((r) => r.id === o.selected_id);
      return {
        id: o.selected_id,
        ...(o.source_path ? { source_path: o.source_path } : item ? { source_path: item.source_path } : {}),
        ...(item?.tags ? { tags: item.tags } : {}),
      };
    }
    const r = o.ranked[0];
    return r ? { id: r.id, source_path: r.source_path, ...(r.tags ? { tags: r.tags } : {}) } : undefined;
  }

  /**
   * Is a top-1 useful? In order: an excluded tag makes it not useful (a leak is never useful); a query
   * with explicit useful_ids / useful_paths is judged by them (listed: useful; else its include rules
   * decide, else not useful), so the author's answer list overrides graded qrels; otherwise a qrels
   * line decides by grade >= relevance level (what imported TREC / BEIR / SMART sets carry); then the
   * rules (a must_include signal in text/title/path, case-insensitive, or a must_include tag).
   * Nothing else covers it: unjudged (a judged query counts it as not useful, as trec_eval does).
   */
  judgeTop1(q: QueryRecord, o: Observation | undefined): Top1Verdict {
    if (!o || !o.ok) return { judgment: 'error' };
    const top = this.top1(o);
    if (!top) return { judgment: 'no_answer' };
    const rec = this.corpusById.get(top.id);
    const path = top.source_path ?? rec?.source_path;
    if (this.leakedTags(q, top).length > 0) return { judgment: 'not_useful', id: top.id, by: 'excluded_tag' };
    const explicit = hasExplicitUseful(q);
    if (q.useful_ids?.includes(top.id)) return { judgment: 'useful', id: top.id, by: 'useful_ids' };
    if (path !== undefined && q.useful_paths?.includes(path))
      return { judgment: 'useful', id: top.id, by: 'useful_paths' };
    const grade = q.qrels?.[top.id];
    if (!explicit && grade !== undefined) {
      return {
        judgment: grade >= this.input.relevanceLevel ? 'useful' : 'not_useful',
        id: top.id,
        by: 'qrels',
      };
    }
    const signals = q.must_include_signals_any ?? [];
    const includeTags = q.must_include_tags_any ?? [];
    if (signals.length > 0 || includeTags.length > 0) {
      const hay = [rec?.text ?? '', rec?.title ?? '', path ?? ''].join('\n').toLowerCase();
      const bySignal = signals.some((s) => s.length > 0 && hay.includes(s.toLowerCase()));
      const tags = this.itemTags(top);
      const byTag = includeTags.some((t) => tags.includes(t));
      return { judgment: bySignal || byTag ? 'useful' : 'not_useful', id: top.id, by: 'rules' };
    }
    if (explicit)
      return { judgment: 'not_useful', id: top.id, by: q.useful_ids?.length ? 'useful_ids' : 'useful_paths' };
    return { judgment: 'unjudged', id: top.id };
  }

  /** Does any judgment cover this item (for judged@k)? */
  covers(q: QueryRecord, item: RankedItem): boolean {
    if (q.qrels?.[item.id] !== undefined) return true;
    if (q.useful_ids?.includes(item.id)) return true;
    const path = item.source_path || this.corpusById.get(item.id)?.source_path;
    if (path && q.useful_paths?.includes(path)) return true;
    return (q.must_include_signals_any?.length ?? 0) > 0 || (q.must_include_tags_any?.length ?? 0) > 0;
  }

  isFallbackMode(m: SelectionMode | undefined): boolean {
    return m !== undefined && FALLBACK_MODES.includes(m);
  }

  /** A request took a fallback: flagged by the system, or answered in a fallback mode. */
  tookFallback(o: Observation): boolean {
    return tookFallback(o);
  }
}
