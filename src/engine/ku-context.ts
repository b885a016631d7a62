import { cutText } from './cut-text.js';
import { KU_MATCHING_DEFAULTS as D } from '../core/defaults.js';
import {
  GUIDANCE_ROLES,
  KU_LEVELS,
  type CorpusRecord,
  type GuidanceRole,
  type KuLevel,
  type OverBudgetUnit,
  type Profile,
  type ResolvedIntent,
  type ResolvedUnit,
  type RetrievalConfig,
} from '../documents/index.js';
import { bagOfWords, type QueryTerm } from './bm25-index.js';
import { INDEX_READS, type IndexedCorpus } from './indexed-corpus.js';
import { intentLevel, intentPurpose, taggedRole } from './ku-intent.js';
import type { KuRequest } from './ku-types.js';
import { overlapWith, sessionUnitsFor, turnUnits } from './ku-conversation.js';
import { estimateTokens, PROFILE_DEFAULTS } from './profiles.js';

/**
 * KU context matching (DS012) over a hierarchical corpus (records with `level` and `parent_id`).
 *
 * Units: a record tagged `guidance:<role>` is a guidance unit, one tagged `strategy` a strategy unit;
 * every other record is an evidence unit at its `level` (none given: leaf). Records withheld by the
 * sensitive-tag policy are never considered.
 *
 * Terms: the intent's analysed words without question words and level cue words ("overview",
 * "exact"), which say how much detail is wanted, not what about.
 *
 * Scores: a unit's level score is half its own BM25 and half its subtree's (the unit and everything
 * under it), each against the best at the unit's level, so a summary is relevant when what it
 * summarises is. A unit passes with a level score >= relevance_min and at least coverage_min of the
 * intent's terms in it or below it.
 *
 * Strategies (the next runs only when fewer than min_candidates passed, and `escalated` says so):
 * `level:<target>` (units at the level the intent asks for), `adjacent-levels` (the neighbouring
 * levels), `any-term` (any evidence unit sharing a term, by own score).
 * Order: level score desc, distance from the target level asc, id asc.
 *
 * Size: a unit longer than unit_chars contributes its split_children most relevant children (subtree
 * BM25 desc, id asc; the first child when none shares a term), recursively; a unit without children is cut to
 * unit_chars. Both are listed in retrievalTrace.overBudget. Evidence fills the token budget left after
 * guidance, strategy and conversation units, which are never dropped for it.
 *
 * Guidance: current-turn units with a `guidance:<role>` tag or a role cue (ku-intent.ts) always go to
 * guidanceUnits, whatever their overlap; KB guidance units go there when they have no parent (they apply
 * to every intent), sit under an area the evidence came from, or score guidance_min on their own. Plain current-turn units are kept when they
 * share a term with the intent (all of them when the intent has no searchable term).
 */

type Kind = 'evidence' | 'guidance' | 'strategy';

interface KuCorpus {
  level: KuLevel[];
  kind: Kind[];
  role: (GuidanceRole | undefined)[];
  parent: Int32Array;
  children: number[][];
}

const LEVEL_RANK: Readonly<Record<KuLevel, number>> = { summary: 0, intermediate: 1, leaf: 2 };

const NEIGHBOURS: Readonly<Record<KuLevel, readonly KuLevel[]>> = {
  summary: ['intermediate'],
  intermediate: ['leaf', 'summary'],
  leaf: ['intermediate'],
};

const cache = new WeakMap<IndexedCorpus, KuCorpus>();

function kuCorpus(ic: IndexedCorpus): KuCorpus {
  const hit = cache.get(ic);
  if (hit) return hit;
  const n = ic.records.length;
  const byId = new Map<string, number>();
  for (let d = 0; d < n; d++) byId.set((ic.records[d] as CorpusRecord).id, d);
  const kc: KuCorpus = {
    level: [],
    kind: [],
    role: [],
    parent: new Int32Array(n).fill(-1),
    children: Array.from({ length: n }, () => []),
  };
  for (let d = 0; d < n; d++) {
    const r = ic.records[d] as CorpusRecord;
    const role = taggedRole(r.tags);
    kc.level.push(r.level ?? 'leaf');
    kc.role.push(role);
    kc.kind.push(role ? 'guidance' : r.tags?.includes('strategy') ? 'strategy' : 'evidence');
    const p = r.parent_id !== undefined ? byId.get(r.parent_id) : undefined;
    if (p !== undefined && p !== d) kc.parent[d] = p;
  }
  // doc order is id order, so every child list is id-sorted
  for (let d = 0; d < n; d++) {
    const p = kc.parent[d] as number;
    if (p >= 0 && ic.withheld[d] === 0 && kc.kind[d] === 'evidence') (kc.children[p] as number[]).push(d);
  }
  cache.set(ic, kc);
  return kc;
}

// the form of a question (interrogatives, auxiliaries, pronouns) and the words that ask for a level
const META_WORDS =
  'how what which when who whom whose where why do does did done have has had can could should would ' +
  'must may might i me my we us our you your give tell show please ' +
  'overview summary summarize summarise big picture high level nutshell general walk through explain ' +
  'exact exactly specific new onboarding onboard area areas cover covers';
const metaCache = new WeakMap<IndexedCorpus, Set<string>>();

/** The analysed forms of words that say which level an intent wants, not what it is about. */
function metaTerms(ic: IndexedCorpus): Set<string> {
  let set = metaCache.get(ic);
  if (!set) {
    set = new Set(ic.analyzer.analyze(META_WORDS));
    metaCache.set(ic, set);
  }
  return set;
}

function popcount(v: number): number {
  let c = 0;
  for (let x = v >>> 0; x !== 0; x &= x - 1) c++;
  return c;
}

/** The config keys resolveIntent reads, its index's included (see engine-reads.ts). */
export const KU_READS: readonly string[] = [...INDEX_READS, 'retrieval_profile', 'budgets'];

export function resolveIntent(ic: IndexedCorpus, config: RetrievalConfig, req: KuRequest): ResolvedIntent {
  const kc = kuCorpus(ic);
  const budgets = budgetsOf(config, req);
  const intent = typeof req.intent === 'string' ? req.intent : '';
  const terms = intentTerms(ic, intent);
  const termSet = new Set(terms.map((t) => t.term));
  const target = intentLevel(intent);
  const m: Match = {
    ic,
    kc,
    scores: unitScores(ic, kc, terms),
    considered: new Set<number>(),
    byScore: rankBy(kc, target),
  };
  const { candidates, strategiesRun } = findCandidates(m, target);
  const { evidence, overBudget } = selectEvidence(m, candidates, budgets);
  const overlap = overlapWith(ic, termSet);
  const { guidanceUnits, currentTurnContextUnits } = turnUnits(req, termSet, overlap);
  const areas = evidenceAreas(kc, evidence);
  for (const role of GUIDANCE_ROLES)
    for (const d of pickKb(m, areas, 'guidance', D.guidance_per_role, role))
      guidanceUnits[role].push(kbUnit(m, d, (ic.records[d] as CorpusRecord).text, { role }));
  const strategyUnits = pickKb(m, areas, 'strategy', D.strategy_units).map((d) =>
    kbUnit(m, d, (ic.records[d] as CorpusRecord).text),
  );
  const sessionUnits = sessionUnitsFor(req, overlap);

  // evidence fills what the token budget leaves; guidance and conversation units are never dropped for it
  const fixed = [
    ...GUIDANCE_ROLES.flatMap((r) => guidanceUnits[r]),
    ...strategyUnits,
    ...currentTurnContextUnits,
    ...sessionUnits,
  ];
  const { kbUnits, budgetDropped } = fitTokenBudget(m, evidence, fixed, budgets.tokenBudget);
  const all = [...fixed, ...kbUnits];
  return {
    intentRef: req.intentRef,
    retrievalProfile: budgets.profile,
    intentGroup: intentGroup(ic, kc, evidence, kbUnits),
    decomposed: { text: intent, terms: terms.map((t) => t.term) },
    strategyUnits,
    guidanceUnits,
    currentTurnContextUnits,
    sessionUnits,
    kbUnits,
    retrievalTrace: {
      purpose: intentPurpose(intent),
      strategiesRun,
      escalated: strategiesRun.length > 1,
      kuLevelsUsed: levelsUsed([
        ...kbUnits,
        ...strategyUnits,
        ...GUIDANCE_ROLES.flatMap((r) => guidanceUnits[r]),
      ]),
      totalKUsConsidered: m.considered.size + (req.current_turn?.length ?? 0) + (req.session?.length ?? 0),
      targetLevel: target,
      overBudget,
      ...(budgetDropped.length > 0 ? { budgetDropped } : {}),
    },
    resolvedPayload: {
      prompt: intent,
      context: all.map((u) => ({ title: u.title ?? u.kuId, sourceLink: u.sourceLink, text: u.text })),
    },
  };
}

interface KuBudgets {
  profile: Profile;
  maxUnits: number;
  unitChars: number;
  tokenBudget: number;
}

/** The request's budgets, else the config's, else the profile's defaults. */
function budgetsOf(config: RetrievalConfig, req: KuRequest): KuBudgets {
  const profile = req.retrieval_profile ?? config.retrieval_profile;
  const pd = PROFILE_DEFAULTS[profile] ?? PROFILE_DEFAULTS.medium;
  return {
    profile,
    maxUnits: req.max_units ?? config.budgets.max_files ?? pd.max_files,
    unitChars: req.unit_chars ?? config.budgets.max_chars_per_file ?? pd.max_chars_per_file,
    tokenBudget: req.tokens ?? config.budgets.tokens ?? pd.tokens,
  };
}

/** The intent's search terms: its analysed words without those that only ask for a level. */
function intentTerms(ic: IndexedCorpus, intent: string): QueryTerm[] {
  // words that say which level the intent wants ("overview", "exact") are not what it is about
  const analyzed = ic.analyzer.analyze(intent);
  const meta = metaTerms(ic);
  const topical = analyzed.filter((t) => !meta.has(t));
  return bagOfWords(topical.length > 0 ? topical : analyzed);
}

/** How relevant each unit is to the intent; subtree, coverage and hier are memoised lazily. */
interface Scores {
  /** own BM25 against the best over every unit the matcher may hand out */
  own: Float64Array;
  /** BM25 mass of the unit and everything under it */
  subtree: (d: number) => number;
  /** the share of the intent's terms (the first 30) in the unit or below it */
  coverage: (d: number) => number;
  /** the level score: half own, half subtree, each against the best at the unit's level */
  hier: (d: number) => number;
}

/** A matching in progress: the corpus, the scores, and every unit looked at so far. */
interface Match {
  ic: IndexedCorpus;
  kc: KuCorpus;
  scores: Scores;
  considered: Set<number>;
  byScore: (score: (d: number) => number) => (a: number, b: number) => number;
}

function unitScores(ic: IndexedCorpus, kc: KuCorpus, terms: readonly QueryTerm[]): Scores {
  const n = ic.records.length;
  const { bm25, mask } = lexicalScores(ic, terms);
  const own = ownScores(ic, bm25);
  // subtree mass (BM25 of the unit and everything under it) and subtree term mask, memoised
  const mass = new Float64Array(n).fill(-1);
  const subMask = new Int32Array(n);
  const subtree = (d: number, depth = 0): number => {
    if ((mass[d] as number) >= 0) return mass[d] as number;
    let m = ic.withheld[d] === 0 ? (bm25[d] as number) : 0;
    let k = ic.withheld[d] === 0 ? (mask[d] as number) : 0;
    if (depth < 32)
      for (const c of kc.children[d] as number[]) {
        m += subtree(c, depth + 1);
        k |= subMask[c] as number;
      }
    mass[d] = m;
    subMask[d] = k;
    return m;
  };
  const termCount = Math.min(terms.length, 30);
  const coverage = (d: number): number => {
    subtree(d);
    return termCount === 0 ? 0 : popcount(subMask[d] as number) / termCount;
  };
  return { own, subtree, coverage, hier: levelScore(ic, kc, own, subtree) };
}

/** Each unit's BM25 for the intent, and which of its terms (the first 30) the unit holds. */
function lexicalScores(
  ic: IndexedCorpus,
  terms: readonly QueryTerm[],
): { bm25: Float64Array; mask: Int32Array } {
  const n = ic.records.length;
  const bm25 = new Float64Array(n);
  const mask = new Int32Array(n);
  if (terms.length > 0) {
    const scored = ic.index.scoreAll(terms);
    for (let i = 0; i < scored.docs.length; i++) bm25[scored.docs[i] as number] = scored.scores[i] as number;
    // which query terms each unit holds (the first 30), so a parent's coverage is its subtree's
    for (let t = 0; t < Math.min(terms.length, 30); t++) {
      const one = ic.index.scoreAll([terms[t] as QueryTerm]);
      for (let i = 0; i < one.docs.length; i++) mask[one.docs[i] as number]! |= 1 << t;
    }
  }
  return { bm25, mask };
}

/** BM25 normalised by the best over every unit the matcher may hand out (withheld units score 0). */
function ownScores(ic: IndexedCorpus, bm25: Float64Array): Float64Array {
  const n = ic.records.length;
  let best = 0;
  for (let d = 0; d < n; d++)
    if (ic.withheld[d] === 0 && (bm25[d] as number) > best) best = bm25[d] as number;
  const own = new Float64Array(n);
  if (best > 0) for (let d = 0; d < n; d++) own[d] = ic.withheld[d] === 0 ? (bm25[d] as number) / best : 0;
  return own;
}

/** A unit's score at its level: half its own text, half its subtree, each against the best at that level. */
function levelScore(
  ic: IndexedCorpus,
  kc: KuCorpus,
  own: Float64Array,
  subtree: (d: number) => number,
): (d: number) => number {
  const n = ic.records.length;
  const levelMax = new Map<KuLevel, { own: number; mass: number }>();
  return (d: number): number => {
    const level = kc.level[d] as KuLevel;
    let mx = levelMax.get(level);
    if (!mx) {
      mx = { own: 0, mass: 0 };
      for (let e = 0; e < n; e++) {
        if (ic.withheld[e] !== 0 || kc.kind[e] !== 'evidence' || kc.level[e] !== level) continue;
        mx.own = Math.max(mx.own, own[e] as number);
        mx.mass = Math.max(mx.mass, subtree(e));
      }
      levelMax.set(level, mx);
    }
    const o = mx.own > 0 ? (own[d] as number) / mx.own : 0;
    const m = mx.mass > 0 ? subtree(d) / mx.mass : 0;
    return 0.5 * o + 0.5 * m;
  };
}

/** Order: score desc, distance from the target level asc, id asc. */
function rankBy(kc: KuCorpus, target: KuLevel): Match['byScore'] {
  return (score) => (a, b) =>
    score(b) - score(a) ||
    Math.abs(LEVEL_RANK[kc.level[a] as KuLevel] - LEVEL_RANK[target]) -
      Math.abs(LEVEL_RANK[kc.level[b] as KuLevel] - LEVEL_RANK[target]) ||
    a - b;
}

function evidenceAt(ic: IndexedCorpus, kc: KuCorpus, levels: readonly KuLevel[]): number[] {
  const out: number[] = [];
  for (let d = 0; d < ic.records.length; d++)
    if (ic.withheld[d] === 0 && kc.kind[d] === 'evidence' && levels.includes(kc.level[d] as KuLevel))
      out.push(d);
  return out;
}

/** The strategies in turn, each only when the ones before found fewer than min_candidates. */
function findCandidates(m: Match, target: KuLevel): { candidates: number[]; strategiesRun: string[] } {
  const { ic, kc, scores } = m;
  const strategiesRun: string[] = [];
  let candidates: number[] = [];
  const attempts: [string, () => number[]][] = [
    [`level:${target}`, () => evidenceAt(ic, kc, [target])],
    ['adjacent-levels', () => evidenceAt(ic, kc, NEIGHBOURS[target])],
  ];
  for (const [name, pool] of attempts) {
    strategiesRun.push(name);
    const members = pool();
    for (const d of members) m.considered.add(d);
    candidates = members
      .filter((d) => scores.coverage(d) >= D.coverage_min && scores.hier(d) >= D.relevance_min)
      .sort(m.byScore(scores.hier));
    if (candidates.length >= D.min_candidates) break;
  }
  if (candidates.length < D.min_candidates) {
    strategiesRun.push('any-term');
    const members = evidenceAt(ic, kc, KU_LEVELS);
    for (const d of members) m.considered.add(d);
    candidates = members
      .filter((d) => (scores.own[d] as number) > 0)
      .sort(m.byScore((d) => scores.own[d] as number));
  }
  return { candidates, strategiesRun };
}

interface EvidencePart {
  d: number;
  text: string;
  loadedAs: 'whole' | 'truncated' | 'child';
  splitFrom?: number;
}

/** Evidence, level-aware and size-aware: up to maxUnits parts of the candidates, each unit once. */
function selectEvidence(
  m: Match,
  candidates: readonly number[],
  budgets: KuBudgets,
): { evidence: EvidencePart[]; overBudget: OverBudgetUnit[] } {
  const overBudget: OverBudgetUnit[] = [];
  const evidence: EvidencePart[] = [];
  const emitted = new Set<number>();
  for (const d of candidates) {
    if (evidence.length >= budgets.maxUnits) break;
    if (emitted.has(d)) continue;
    const parts: EvidencePart[] = [];
    expandUnit(m, budgets.unitChars, overBudget, d, undefined, parts);
    for (const p of parts) {
      if (evidence.length >= budgets.maxUnits || emitted.has(p.d)) continue;
      emitted.add(p.d);
      evidence.push(p);
    }
  }
  return { evidence, overBudget };
}

/**
 * A unit within unitChars as it is; a longer one as its split_children most relevant children,
 * recursively, or cut to unitChars when it has none. Both are listed in overBudget.
 */
function expandUnit(
  m: Match,
  unitChars: number,
  overBudget: OverBudgetUnit[],
  d: number,
  splitFrom: number | undefined,
  out: EvidencePart[],
): void {
  const r = m.ic.records[d] as CorpusRecord;
  const split = splitFrom !== undefined ? { splitFrom } : {};
  if (r.text.length <= unitChars) {
    out.push({ d, text: r.text, loadedAs: splitFrom === undefined ? 'whole' : 'child', ...split });
    return;
  }
  const kids = (m.kc.children[d] as number[]).slice().sort(m.byScore(m.scores.subtree));
  if (kids.length === 0) {
    overBudget.push({
      kuId: r.id,
      chars: r.text.length,
      budget: unitChars,
      resolution: 'truncated',
      children: [],
    });
    out.push({ d, text: cutText(r.text, unitChars), loadedAs: 'truncated', ...split });
    return;
  }
  let chosen = kids.filter((c) => m.scores.subtree(c) > 0).slice(0, D.split_children);
  if (chosen.length === 0) chosen = kids.slice(0, 1);
  overBudget.push({
    kuId: r.id,
    chars: r.text.length,
    budget: unitChars,
    resolution: 'children',
    children: chosen.map((c) => (m.ic.records[c] as CorpusRecord).id),
  });
  for (const c of chosen) expandUnit(m, unitChars, overBudget, c, splitFrom ?? d, out);
}

/** The areas the evidence came from: every ancestor of a selected unit, and the unit itself. */
function evidenceAreas(kc: KuCorpus, evidence: readonly EvidencePart[]): Set<number> {
  const areas = new Set<number>();
  for (const e of evidence) {
    let a = e.d;
    for (let i = 0; a >= 0 && i < 32 && !areas.has(a); i++) {
      areas.add(a);
      a = kc.parent[a] as number;
    }
  }
  return areas;
}

/**
 * KB units of a kind (and role): guidance without a parent applies everywhere; with one, where the
 * evidence came from; else when it scores guidance_min on its own. Scoped first, then own score.
 */
function pickKb(
  m: Match,
  areas: ReadonlySet<number>,
  kind: Kind,
  cap: number,
  role?: GuidanceRole,
): number[] {
  const { ic, kc, scores } = m;
  const scoped = (d: number): boolean => (kc.parent[d] as number) < 0 || areas.has(kc.parent[d] as number);
  const out: number[] = [];
  for (let d = 0; d < ic.records.length; d++) {
    if (ic.withheld[d] !== 0 || kc.kind[d] !== kind || (role !== undefined && kc.role[d] !== role)) continue;
    m.considered.add(d);
    if (scoped(d) || (scores.own[d] as number) >= D.guidance_min) out.push(d);
  }
  return out
    .sort(
      (a, b) =>
        Number(scoped(b)) - Number(scoped(a)) ||
        (scores.own[b] as number) - (scores.own[a] as number) ||
        a - b,
    )
    .slice(0, cap);
}

function kbUnit(m: Match, d: number, text: string, extra: Partial<ResolvedUnit> = {}): ResolvedUnit {
  const r = m.ic.records[d] as CorpusRecord;
  return {
    kuId: r.id,
    level: m.kc.level[d] as KuLevel,
    parentId: r.parent_id ?? null,
    title: r.title ?? r.id,
    sourceLink: r.source_path,
    text,
    score: m.kc.kind[d] === 'evidence' ? m.scores.hier(d) : (m.scores.own[d] as number),
    ...extra,
  };
}

/** Evidence in order while the payload stays within the token budget; the rest is listed as dropped. */
function fitTokenBudget(
  m: Match,
  evidence: readonly EvidencePart[],
  fixed: readonly ResolvedUnit[],
  tokenBudget: number,
): { kbUnits: ResolvedUnit[]; budgetDropped: string[] } {
  let chars = fixed.reduce((s, u) => s + u.text.length, 0);
  const kbUnits: ResolvedUnit[] = [];
  const budgetDropped: string[] = [];
  for (const e of evidence) {
    const id = (m.ic.records[e.d] as CorpusRecord).id;
    if (estimateTokens(chars + e.text.length) > tokenBudget) {
      budgetDropped.push(id);
      continue;
    }
    chars += e.text.length;
    kbUnits.push(
      kbUnit(m, e.d, e.text, {
        loadedAs: e.loadedAs,
        ...(e.splitFrom !== undefined ? { splitFrom: (m.ic.records[e.splitFrom] as CorpusRecord).id } : {}),
      }),
    );
  }
  return { kbUnits, budgetDropped };
}

function levelsUsed(units: readonly ResolvedUnit[]): KuLevel[] {
  const levels = new Set<KuLevel>();
  for (const u of units) if (u.level) levels.add(u.level);
  return KU_LEVELS.filter((l) => levels.has(l));
}

/** The top of the tree the first loaded evidence unit sits in, or null when none was loaded. */
function intentGroup(
  ic: IndexedCorpus,
  kc: KuCorpus,
  evidence: readonly EvidencePart[],
  kbUnits: readonly ResolvedUnit[],
): string | null {
  const top = kbUnits[0];
  if (!top) return null;
  let a = evidence.find((e) => (ic.records[e.d] as CorpusRecord).id === top.kuId)?.d ?? -1;
  for (let i = 0; i < 32 && a >= 0 && (kc.parent[a] as number) >= 0; i++) a = kc.parent[a] as number;
  return a >= 0 ? (ic.records[a] as CorpusRecord).id : null;
}
