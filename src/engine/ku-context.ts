import { cutText } from './cut-text.js';
import { KU_MATCHING_DEFAULTS as D } from '../core/defaults.js';
import {
  GUIDANCE_ROLES,
  KU_LEVELS,
  type ConversationUnit,
  type CorpusRecord,
  type GuidanceRole,
  type KuLevel,
  type OverBudgetUnit,
  type ResolvedIntent,
  type ResolvedUnit,
  type RetrievalConfig,
} from '../documents/index.js';
import { bagOfWords } from './bm25-index.js';
import { INDEX_READS, type IndexedCorpus } from './indexed-corpus.js';
import { guidanceRole, intentLevel, intentPurpose, taggedRole } from './ku-intent.js';
import type { KuRequest } from './ku-types.js';
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
  const n = ic.records.length;
  const profile = req.retrieval_profile ?? config.retrieval_profile;
  const pd = PROFILE_DEFAULTS[profile] ?? PROFILE_DEFAULTS.medium;
  const maxUnits = req.max_units ?? config.budgets.max_files ?? pd.max_files;
  const unitChars = req.unit_chars ?? config.budgets.max_chars_per_file ?? pd.max_chars_per_file;
  const tokenBudget = req.tokens ?? config.budgets.tokens ?? pd.tokens;
  const intent = typeof req.intent === 'string' ? req.intent : '';
  // words that say which level the intent wants ("overview", "exact") are not what it is about
  const analyzed = ic.analyzer.analyze(intent);
  const meta = metaTerms(ic);
  const topical = analyzed.filter((t) => !meta.has(t));
  const terms = bagOfWords(topical.length > 0 ? topical : analyzed);
  const termSet = new Set(terms.map((t) => t.term));

  // lexical scores, normalised by the best over every unit the matcher may hand out
  const bm25 = new Float64Array(n);
  const mask = new Int32Array(n);
  if (terms.length > 0) {
    const scored = ic.index.scoreAll(terms);
    for (let i = 0; i < scored.docs.length; i++) bm25[scored.docs[i] as number] = scored.scores[i] as number;
    // which query terms each unit holds (the first 30), so a parent's coverage is its subtree's
    for (let t = 0; t < Math.min(terms.length, 30); t++) {
      const one = ic.index.scoreAll([terms[t] as (typeof terms)[number]]);
      for (let i = 0; i < one.docs.length; i++) mask[one.docs[i] as number]! |= 1 << t;
    }
  }
  let best = 0;
  for (let d = 0; d < n; d++)
    if (ic.withheld[d] === 0 && (bm25[d] as number) > best) best = bm25[d] as number;
  const own = new Float64Array(n);
  if (best > 0) for (let d = 0; d < n; d++) own[d] = ic.withheld[d] === 0 ? (bm25[d] as number) / best : 0;
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
  // a unit's score at its level: half its own text, half its subtree, each against the best at that level
  const levelMax = new Map<KuLevel, { own: number; mass: number }>();
  const hier = (d: number): number => {
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

  const target = intentLevel(intent);
  const purpose = intentPurpose(intent);
  const evidenceAt = (levels: readonly KuLevel[]): number[] => {
    const out: number[] = [];
    for (let d = 0; d < n; d++)
      if (ic.withheld[d] === 0 && kc.kind[d] === 'evidence' && levels.includes(kc.level[d] as KuLevel))
        out.push(d);
    return out;
  };
  const byScore = (score: (d: number) => number) => (a: number, b: number) =>
    score(b) - score(a) ||
    Math.abs(LEVEL_RANK[kc.level[a] as KuLevel] - LEVEL_RANK[target]) -
      Math.abs(LEVEL_RANK[kc.level[b] as KuLevel] - LEVEL_RANK[target]) ||
    a - b;

  const strategiesRun: string[] = [];
  const considered = new Set<number>();
  let candidates: number[] = [];
  const attempts: [string, () => number[]][] = [
    [`level:${target}`, () => evidenceAt([target])],
    ['adjacent-levels', () => evidenceAt(NEIGHBOURS[target])],
  ];
  for (const [name, pool] of attempts) {
    strategiesRun.push(name);
    const members = pool();
    for (const d of members) considered.add(d);
    candidates = members
      .filter((d) => coverage(d) >= D.coverage_min && hier(d) >= D.relevance_min)
      .sort(byScore(hier));
    if (candidates.length >= D.min_candidates) break;
  }
  if (candidates.length < D.min_candidates) {
    strategiesRun.push('any-term');
    const members = evidenceAt(KU_LEVELS);
    for (const d of members) considered.add(d);
    candidates = members.filter((d) => (own[d] as number) > 0).sort(byScore((d) => own[d] as number));
  }

  // evidence, level-aware and size-aware
  const overBudget: OverBudgetUnit[] = [];
  const evidence: {
    d: number;
    text: string;
    loadedAs: 'whole' | 'truncated' | 'child';
    splitFrom?: number;
  }[] = [];
  const emitted = new Set<number>();
  const expand = (d: number, splitFrom: number | undefined, out: typeof evidence): void => {
    const r = ic.records[d] as CorpusRecord;
    if (r.text.length <= unitChars) {
      out.push({
        d,
        text: r.text,
        loadedAs: splitFrom === undefined ? 'whole' : 'child',
        ...(splitFrom !== undefined ? { splitFrom } : {}),
      });
      return;
    }
    const kids = (kc.children[d] as number[]).slice().sort(byScore(subtree));
    if (kids.length === 0) {
      overBudget.push({
        kuId: r.id,
        chars: r.text.length,
        budget: unitChars,
        resolution: 'truncated',
        children: [],
      });
      out.push({
        d,
        text: cutText(r.text, unitChars),
        loadedAs: 'truncated',
        ...(splitFrom !== undefined ? { splitFrom } : {}),
      });
      return;
    }
    let chosen = kids.filter((c) => subtree(c) > 0).slice(0, D.split_children);
    if (chosen.length === 0) chosen = kids.slice(0, 1);
    overBudget.push({
      kuId: r.id,
      chars: r.text.length,
      budget: unitChars,
      resolution: 'children',
      children: chosen.map((c) => (ic.records[c] as CorpusRecord).id),
    });
    for (const c of chosen) expand(c, splitFrom ?? d, out);
  };
  for (const d of candidates) {
    if (evidence.length >= maxUnits) break;
    if (emitted.has(d)) continue;
    const parts: typeof evidence = [];
    expand(d, undefined, parts);
    for (const p of parts) {
      if (evidence.length >= maxUnits || emitted.has(p.d)) continue;
      emitted.add(p.d);
      evidence.push(p);
    }
  }

  // the areas the evidence came from: every ancestor of a selected unit, and the unit itself
  const areas = new Set<number>();
  for (const e of evidence) {
    let a = e.d;
    for (let i = 0; a >= 0 && i < 32 && !areas.has(a); i++) {
      areas.add(a);
      a = kc.parent[a] as number;
    }
  }
  // guidance without a parent applies everywhere; with one, where the evidence came from
  const scoped = (d: number): boolean => (kc.parent[d] as number) < 0 || areas.has(kc.parent[d] as number);
  const pickKb = (kind: Kind, cap: number, role?: GuidanceRole): number[] => {
    const out: number[] = [];
    for (let d = 0; d < n; d++) {
      if (ic.withheld[d] !== 0 || kc.kind[d] !== kind || (role !== undefined && kc.role[d] !== role))
        continue;
      considered.add(d);
      if (scoped(d) || (own[d] as number) >= D.guidance_min) out.push(d);
    }
    return out
      .sort(
        (a, b) => Number(scoped(b)) - Number(scoped(a)) || (own[b] as number) - (own[a] as number) || a - b,
      )
      .slice(0, cap);
  };

  const kbUnit = (d: number, text: string, extra: Partial<ResolvedUnit> = {}): ResolvedUnit => {
    const r = ic.records[d] as CorpusRecord;
    return {
      kuId: r.id,
      level: kc.level[d] as KuLevel,
      parentId: r.parent_id ?? null,
      title: r.title ?? r.id,
      sourceLink: r.source_path,
      text,
      score: kc.kind[d] === 'evidence' ? hier(d) : (own[d] as number),
      ...extra,
    };
  };
  const overlap = (u: ConversationUnit): number => {
    const seen = new Set(ic.analyzer.analyze(u.title ? `${u.title}\n${u.text}` : u.text));
    let k = 0;
    for (const t of termSet) if (seen.has(t)) k++;
    return k;
  };
  const convUnit = (u: ConversationUnit, link: string, extra: Partial<ResolvedUnit> = {}): ResolvedUnit => ({
    kuId: u.id,
    title: u.title ?? u.id,
    sourceLink: `${link}:${u.id}`,
    text: u.text,
    ...extra,
  });

  const guidanceUnits: ResolvedIntent['guidanceUnits'] = {
    planner: [],
    goalSolver: [],
    decomposition: [],
    validation: [],
  };
  const currentTurnContextUnits: ResolvedUnit[] = [];
  for (const u of req.current_turn ?? []) {
    const role = guidanceRole(u);
    if (role) guidanceUnits[role].push(convUnit(u, 'turn', { role, score: overlap(u) }));
    else if (termSet.size === 0 || overlap(u) > 0)
      currentTurnContextUnits.push(convUnit(u, 'turn', { score: overlap(u) }));
  }
  for (const role of GUIDANCE_ROLES)
    for (const d of pickKb('guidance', D.guidance_per_role, role))
      guidanceUnits[role].push(kbUnit(d, (ic.records[d] as CorpusRecord).text, { role }));
  const strategyUnits = pickKb('strategy', D.strategy_units).map((d) =>
    kbUnit(d, (ic.records[d] as CorpusRecord).text),
  );
  const session = (req.session ?? [])
    .map((u, i) => ({ u, i, k: overlap(u) }))
    .filter((s) => s.k > 0)
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .slice(0, D.session_units);
  const sessionUnits = session.map((s) => convUnit(s.u, 'session', { score: s.k }));

  // evidence fills what the token budget leaves; guidance and conversation units are never dropped for it
  const fixed = [
    ...GUIDANCE_ROLES.flatMap((r) => guidanceUnits[r]),
    ...strategyUnits,
    ...currentTurnContextUnits,
    ...sessionUnits,
  ];
  let chars = fixed.reduce((s, u) => s + u.text.length, 0);
  const kbUnits: ResolvedUnit[] = [];
  const budgetDropped: string[] = [];
  for (const e of evidence) {
    const id = (ic.records[e.d] as CorpusRecord).id;
    if (estimateTokens(chars + e.text.length) > tokenBudget) {
      budgetDropped.push(id);
      continue;
    }
    chars += e.text.length;
    kbUnits.push(
      kbUnit(e.d, e.text, {
        loadedAs: e.loadedAs,
        ...(e.splitFrom !== undefined ? { splitFrom: (ic.records[e.splitFrom] as CorpusRecord).id } : {}),
      }),
    );
  }

  const levels = new Set<KuLevel>();
  for (const u of [...kbUnits, ...strategyUnits, ...GUIDANCE_ROLES.flatMap((r) => guidanceUnits[r])])
    if (u.level) levels.add(u.level);
  let group: string | null = null;
  const top = kbUnits[0];
  if (top) {
    let a = evidence.find((e) => (ic.records[e.d] as CorpusRecord).id === top.kuId)?.d ?? -1;
    for (let i = 0; i < 32 && a >= 0 && (kc.parent[a] as number) >= 0; i++) a = kc.parent[a] as number;
    if (a >= 0) group = (ic.records[a] as CorpusRecord).id;
  }
  const all = [...fixed, ...kbUnits];
  return {
    intentRef: req.intentRef,
    retrievalProfile: profile,
    intentGroup: group,
    decomposed: { text: intent, terms: terms.map((t) => t.term) },
    strategyUnits,
    guidanceUnits,
    currentTurnContextUnits,
    sessionUnits,
    kbUnits,
    retrievalTrace: {
      purpose,
      strategiesRun,
      escalated: strategiesRun.length > 1,
      kuLevelsUsed: KU_LEVELS.filter((l) => levels.has(l)),
      totalKUsConsidered: considered.size + (req.current_turn?.length ?? 0) + (req.session?.length ?? 0),
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
