import { cutText } from './cut-text.js';
import {
  FALLBACK_STAGES,
  type CorpusRecord,
  type FallbackStage,
  type RetrievalConfig,
} from '../documents/index.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import { sha256 } from '../core/hash.js';
import { bagOfWords, type QueryTerm, type ScoredDocs } from './bm25-index.js';
import { INDEX_READS, type IndexedCorpus } from './indexed-corpus.js';
import {
  estimateTokens,
  MIN_TRUNCATED_TOKENS,
  PROFILE_DEFAULTS,
  WEIGHT_PRESETS,
  type Weights,
} from './profiles.js';
import type {
  ContextLoadEntry,
  ContextLoadRequest,
  ContextLoadResult,
  DroppedCandidate,
  FallbackAttempt,
  TruncatedEntry,
  TruncationReason,
} from './types.js';

/**
 * Context-load contract v0 (seed 000).
 *
 * Fallback stages (each attempted only when the previous one has no candidate, and only when
 * fallback is enabled; otherwise just `restricted` runs):
 * - restricted: records containing every distinct query term (after analysis);
 * - relaxed: records containing at least one query term;
 * - unrestricted: every record, ranked by the non-lexical components (lexical_score is 0 for all,
 *   since no record matched any term).
 * Within a stage the candidate pool is the top-N by BM25 (score desc, id asc; unrestricted: by the
 * tie-break chain), N from the profile. lexical_score = BM25 / max BM25 in the pool.
 * Components: evidence/outcome from the record clamped to [0,1] (missing -> 0); freshness =
 * 2^(-age_days / half_life) with age measured from config.as_of (a future captured_at counts as age 0;
 * an unparseable one scores 0). combined = the preset's weighted sum.
 * Records carrying a sensitive tag (config.sensitive_tags, default secret/credential/pii) are never
 * candidates; `policy` states the tags and how many records the corpus withholds.
 * Ordering: combined desc, evidence desc, captured_at desc, source_path asc, record_id asc.
 * Budgets (request > config.budgets > profile) are applied in rank order: max_files, then
 * max_chars_per_file truncation, then the token budget (ceil(chars/4)); a candidate that does not fit
 * is truncated to the remaining budget when at least min(32, tokens) tokens remain, else dropped, and
 * later (shorter) candidates may still fit.
 */

const MS_PER_DAY = 86_400_000;

interface Candidate {
  doc: number;
  record: CorpusRecord;
  bm25: number;
  lexical: number;
  evidence: number;
  outcome: number;
  freshness: number;
  combined: number;
  capturedMs: number;
  missing: ('evidence' | 'outcome')[];
}

const STAGE_RULES: Record<FallbackStage, string> = {
  restricted: 'records containing every query term',
  relaxed: 'records containing at least one query term',
  unrestricted: 'all records, ranked by evidence, outcome and freshness',
};

function countWithheld(ic: IndexedCorpus): number {
  let n = 0;
  for (let d = 0; d < ic.withheld.length; d++) n += ic.withheld[d] as number;
  return n;
}

function clamp01(v: number | undefined): number {
  if (v === undefined || !Number.isFinite(v)) return 0;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** Total order of the seed's tie-break chain. */
export function compareCandidates(
  a: { combined: number; evidence: number; capturedMs: number; record: CorpusRecord },
  b: { combined: number; evidence: number; capturedMs: number; record: CorpusRecord },
): number {
  if (a.combined !== b.combined) return b.combined - a.combined;
  if (a.evidence !== b.evidence) return b.evidence - a.evidence;
  const ca = Number.isNaN(a.capturedMs) ? -Infinity : a.capturedMs;
  const cb = Number.isNaN(b.capturedMs) ? -Infinity : b.capturedMs;
  if (ca !== cb) return cb - ca > 0 ? 1 : -1;
  // same instant written differently (or both unparseable): the later string first keeps it total
  const cs = compareCodeUnits(b.record.captured_at, a.record.captured_at);
  if (cs !== 0) return cs;
  const ps = compareCodeUnits(a.record.source_path, b.record.source_path);
  if (ps !== 0) return ps;
  return compareCodeUnits(a.record.id, b.record.id);
}

function badInt(v: unknown): boolean {
  return v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0);
}

/** The config keys contextLoad reads, its index's included (see engine-reads.ts). */
export const CONTEXT_LOAD_READS: readonly string[] = [
  ...INDEX_READS,
  'retrieval_profile',
  'weighting_mode',
  'budgets',
  'fallback.enabled',
  'as_of',
  'freshness_half_life_days',
];

export function contextLoad(
  ic: IndexedCorpus,
  config: RetrievalConfig,
  req: ContextLoadRequest,
): ContextLoadResult {
  const profile = req.retrieval_profile ?? config.retrieval_profile;
  const weightingMode = req.weighting_mode ?? config.weighting_mode;
  const pd = PROFILE_DEFAULTS[profile] ?? PROFILE_DEFAULTS.medium;
  const result = emptyResult(ic, config, req, pd);
  const noMatch = (reason: string, detail: string): ContextLoadResult => {
    result.reason = reason;
    result.reason_detail = detail;
    return result;
  };
  const problem = requestProblem(ic, req, profile, weightingMode);
  if (problem) return noMatch(...problem);

  const query = bagOfWords(ic.analyzer.analyze(req.task as string));
  const fallbackEnabled = req.fallback_enabled ?? config.fallback.enabled;
  const pool = candidatePool(ic, config, query, fallbackEnabled, pd.candidate_pool, result);
  if (result.fallback_level === null) {
    const detail =
      query.length === 0
        ? 'the task has no searchable terms after analysis (only stopwords or punctuation)'
        : 'no record contains every query term';
    return fallbackEnabled
      ? noMatch('no_candidate', detail)
      : noMatch('no_candidate_fallback_disabled', `${detail}; fallback is disabled`);
  }

  applyBudgets(pool, result.budgets, result.weights, result);
  if (result.entries.length === 0) {
    return noMatch('budget_excludes_all', 'every candidate was dropped by the budgets (see dropped[])');
  }
  result.no_match = false;
  return result;
}

/** The answer before any record is looked at: the settings in force (request > config > profile), no match. */
function emptyResult(
  ic: IndexedCorpus,
  config: RetrievalConfig,
  req: ContextLoadRequest,
  pd: (typeof PROFILE_DEFAULTS)[keyof typeof PROFILE_DEFAULTS],
): ContextLoadResult {
  const profile = req.retrieval_profile ?? config.retrieval_profile;
  const weightingMode = req.weighting_mode ?? config.weighting_mode;
  const weights: Weights = { ...(WEIGHT_PRESETS[weightingMode] ?? WEIGHT_PRESETS.uniform) };
  return {
    ranking_contract_version: 'v0',
    retrieval_profile: profile,
    weighting_mode: weightingMode,
    weights,
    task: typeof req.task === 'string' ? req.task : '',
    selected_count: 0,
    fallback_level: null,
    fallback_attempts: [],
    budgets: {
      max_files: req.max_files ?? config.budgets.max_files ?? pd.max_files,
      max_chars_per_file:
        req.max_chars_per_file ?? config.budgets.max_chars_per_file ?? pd.max_chars_per_file,
      tokens: req.tokens ?? config.budgets.tokens ?? pd.tokens,
    },
    pool: { size_limit: pd.candidate_pool, stage_candidates: 0, pooled: 0, beyond_pool: 0 },
    usage: { files: 0, chars: 0, tokens: 0, token_estimate: 'ceil(chars/4)' },
    entries: [],
    dropped: [],
    truncated: [],
    no_match: true,
    reason: null,
    reason_detail: null,
    authority: 'non_authoritative',
    policy: { sensitive_tags: ic.sensitiveTags.slice(), withheld_records: countWithheld(ic) },
  };
}

/** Why the request cannot be answered at all (reason, detail), or undefined when it can. */
function requestProblem(
  ic: IndexedCorpus,
  req: ContextLoadRequest,
  profile: string,
  weightingMode: string,
): [string, string] | undefined {
  if (!(profile in PROFILE_DEFAULTS)) return ['invalid_request', `unknown retrieval_profile "${profile}"`];
  if (!(weightingMode in WEIGHT_PRESETS))
    return ['invalid_request', `unknown weighting_mode "${weightingMode}"`];
  for (const [name, v] of Object.entries({
    max_files: req.max_files,
    max_chars_per_file: req.max_chars_per_file,
    tokens: req.tokens,
  })) {
    if (badInt(v)) return ['invalid_request', `${name} must be a non-negative integer`];
  }
  if (typeof req.task !== 'string' || req.task.trim() === '')
    return ['empty_task', 'task must be a non-empty string'];
  if (ic.records.length === 0) return ['empty_corpus', 'the corpus snapshot has no records'];
  return undefined;
}

/**
 * The candidates of the first fallback stage that has any, ranked; each stage tried is recorded in
 * result.fallback_attempts, the stage used in result.fallback_level and result.pool (which stays
 * null and empty when no stage has a candidate).
 */
function candidatePool(
  ic: IndexedCorpus,
  config: RetrievalConfig,
  query: readonly QueryTerm[],
  fallbackEnabled: boolean,
  poolSize: number,
  result: ContextLoadResult,
): Candidate[] {
  const scored = ic.index.scoreAll(query);
  const make = candidateScorer(ic, config, result.weights);
  for (const stage of FALLBACK_STAGES as readonly FallbackStage[]) {
    if (stage !== 'restricted' && !fallbackEnabled) {
      result.fallback_attempts.push({
        stage,
        rule: STAGE_RULES[stage],
        candidates: 0,
        outcome: 'skipped_disabled',
      });
      continue;
    }
    let members = stageMembers(ic, stage, query, scored);
    const attempt: FallbackAttempt = {
      stage,
      rule: STAGE_RULES[stage],
      candidates: members.length,
      outcome: members.length > 0 ? 'selected' : 'empty',
    };
    result.fallback_attempts.push(attempt);
    if (members.length === 0) continue;

    let pool: Candidate[];
    if (stage === 'unrestricted') {
      const all = members.map((m) => make(m, 0));
      all.sort(compareCandidates);
      pool = all.slice(0, poolSize);
    } else {
      members.sort((a, b) => b.bm25 - a.bm25 || a.doc - b.doc);
      members = members.slice(0, poolSize);
      const maxBm25 = members[0]?.bm25 ?? 0;
      pool = members.map((m) => make(m, maxBm25));
      pool.sort(compareCandidates);
    }
    result.fallback_level = stage;
    result.pool = {
      size_limit: poolSize,
      stage_candidates: attempt.candidates,
      pooled: pool.length,
      beyond_pool: attempt.candidates - pool.length,
    };
    return pool;
  }
  return [];
}

interface Member {
  doc: number;
  bm25: number;
}

/** A stage's records (never a withheld one) with their BM25; unrestricted: every record, at 0. */
function stageMembers(
  ic: IndexedCorpus,
  stage: FallbackStage,
  query: readonly QueryTerm[],
  scored: ScoredDocs,
): Member[] {
  const members: Member[] = [];
  if (stage === 'unrestricted') {
    for (let d = 0; d < ic.records.length; d++) if (ic.withheld[d] === 0) members.push({ doc: d, bm25: 0 });
  } else {
    const need = stage === 'restricted' ? query.length : 1;
    for (let i = 0; i < scored.docs.length; i++) {
      const d = scored.docs[i] as number;
      if (query.length > 0 && (scored.coverage[i] as number) >= need && ic.withheld[d] === 0)
        members.push({ doc: d, bm25: scored.scores[i] as number });
    }
  }
  return members;
}

/** A member's components and combined score, its lexical score against the pool's best BM25. */
function candidateScorer(
  ic: IndexedCorpus,
  config: RetrievalConfig,
  weights: Weights,
): (m: Member, maxBm25: number) => Candidate {
  const asOf = Date.parse(config.as_of);
  const halfLifeMs = config.freshness_half_life_days * MS_PER_DAY;
  return (m, maxBm25) => {
    const record = ic.records[m.doc] as CorpusRecord;
    const capturedMs = ic.capturedMs[m.doc] as number;
    const lexical = maxBm25 > 0 ? Math.min(1, m.bm25 / maxBm25) : 0;
    const evidence = clamp01(record.evidence);
    const outcome = clamp01(record.outcome);
    let freshness = 0;
    if (!Number.isNaN(capturedMs) && !Number.isNaN(asOf)) {
      const age = Math.max(0, asOf - capturedMs);
      freshness = halfLifeMs > 0 ? Math.pow(2, -age / halfLifeMs) : age === 0 ? 1 : 0;
    }
    const combined =
      weights.lexical * lexical +
      weights.evidence * evidence +
      weights.outcome * outcome +
      weights.freshness * freshness;
    const missing: ('evidence' | 'outcome')[] = [];
    if (record.evidence === undefined) missing.push('evidence');
    if (record.outcome === undefined) missing.push('outcome');
    return {
      doc: m.doc,
      record,
      bm25: m.bm25,
      lexical,
      evidence,
      outcome,
      freshness,
      combined,
      capturedMs,
      missing,
    };
  };
}

function applyBudgets(
  pool: Candidate[],
  budgets: ContextLoadResult['budgets'],
  weights: Weights,
  result: ContextLoadResult,
): void {
  const entries: ContextLoadEntry[] = [];
  const dropped: DroppedCandidate[] = [];
  const truncated: TruncatedEntry[] = [];
  let chars = 0;
  let tokens = 0;
  const minTrunc = Math.min(MIN_TRUNCATED_TOKENS, budgets.tokens);
  for (const c of pool) {
    const r = c.record;
    if (entries.length >= budgets.max_files) {
      dropped.push({
        record_id: r.id,
        source_path: r.source_path,
        combined_score: c.combined,
        reason: 'budget_max_files',
      });
      continue;
    }
    let text = r.text;
    let reason: TruncationReason | null = null;
    if (text.length > budgets.max_chars_per_file) {
      text = cutText(text, budgets.max_chars_per_file);
      reason = 'truncated_max_chars';
    }
    const remaining = budgets.tokens - tokens;
    if (estimateTokens(text.length) > remaining) {
      if (remaining >= minTrunc && remaining > 0) {
        text = cutText(text, remaining * 4);
        reason = 'truncated_tokens';
      } else {
        dropped.push({
          record_id: r.id,
          source_path: r.source_path,
          combined_score: c.combined,
          reason: 'budget_tokens',
        });
        continue;
      }
    }
    if (reason !== null) {
      truncated.push({
        record_id: r.id,
        source_path: r.source_path,
        original_chars: r.text.length,
        emitted_chars: text.length,
        reason,
      });
    }
    chars += text.length;
    tokens += estimateTokens(text.length);
    const upper =
      c.combined +
      (c.missing.includes('evidence') ? weights.evidence : 0) +
      (c.missing.includes('outcome') ? weights.outcome : 0);
    const entry: ContextLoadEntry = {
      rank: entries.length + 1,
      record_id: r.id,
      source_path: r.source_path,
      kind: r.kind,
      text,
      chars: text.length,
      truncated: reason !== null,
      score_breakdown: {
        lexical_score: c.lexical,
        evidence_score: c.evidence,
        outcome_score: c.outcome,
        freshness_score: c.freshness,
        combined_score: c.combined,
      },
      provenance: {
        source_path: r.source_path,
        record_id: r.id,
        kind: r.kind,
        captured_at: r.captured_at,
        text_sha256: sha256(r.text),
      },
      confidence: {
        value: c.combined,
        lower: c.combined,
        upper: Math.min(1, upper),
        basis: 'missing_components',
        missing: c.missing,
      },
    };
    if (r.title !== undefined) entry.title = r.title;
    if (r.tags !== undefined) entry.tags = r.tags.slice();
    entries.push(entry);
  }
  result.entries = entries;
  result.dropped = dropped;
  result.truncated = truncated;
  result.selected_count = entries.length;
  result.usage = { files: entries.length, chars, tokens, token_estimate: 'ceil(chars/4)' };
}
