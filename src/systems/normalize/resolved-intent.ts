import { canonicalJson } from '../../core/canonical-json.js';
import { sha256 } from '../../core/hash.js';
import { validateResolvedIntent } from '../../contracts/responses/resolved-intent.js';
import {
  GUIDANCE_ROLES,
  type KuObservedUnit,
  type RankedItem,
  type ResolvedIntent,
  type ResolvedUnit,
} from '../../documents/index.js';
import { estimateTokens, type ResponseNormalizer } from './types.js';

function observed(u: ResolvedUnit, origin: KuObservedUnit['origin']): KuObservedUnit {
  return {
    id: u.kuId,
    origin,
    ...(u.level !== undefined ? { level: u.level } : {}),
    ...(u.role !== undefined ? { role: u.role } : {}),
    ...(u.loadedAs !== undefined ? { loaded_as: u.loadedAs } : {}),
    ...(u.splitFrom !== undefined ? { split_from: u.splitFrom } : {}),
    chars: u.text.length,
  };
}

/**
 * DS012 ResolvedIntent. Ranked = `kbUnits` in their order (the ranking is the order: score is
 * kbUnits.length - index, the unit's own score is kept as `score_breakdown.ku_score`), provenance =
 * `sourceLink`. Selected = the first KB unit; no KB unit is a no_match. Fallback = retrievalTrace:
 * triggered when `escalated`, attempts = `strategiesRun`. Usage: files = KB units, chars = the payload
 * context's text, tokens = ceil(chars / 4). Every unit kept, the trace and the sha256 of the canonical
 * answer go to `ku` for the KU measures and the replay fingerprint.
 */
export const resolvedIntentNormalizer: ResponseNormalizer<ResolvedIntent> = {
  validate: validateResolvedIntent,
  crossCheck(p) {
    // a kuId listed twice is every contract's rule (repeated-ids.ts, run on every answer)
    const out: string[] = [];
    p.kbUnits.forEach((u, i) => {
      if (u.level !== undefined && !p.retrievalTrace.kuLevelsUsed.includes(u.level))
        out.push(`/retrievalTrace/kuLevelsUsed: must list "${u.level}" (level of kbUnits/${i})`);
    });
    for (const role of GUIDANCE_ROLES) {
      p.guidanceUnits[role].forEach((u, i) => {
        if (u.role !== undefined && u.role !== role)
          out.push(`/guidanceUnits/${role}/${i}/role: must be "${role}" (the list it is in)`);
      });
    }
    if (p.retrievalTrace.escalated && p.retrievalTrace.strategiesRun.length < 2)
      out.push(
        '/retrievalTrace/strategiesRun: an escalated answer must list the strategies it ran (at least 2)',
      );
    return out;
  },
  toObservation(p) {
    const n = p.kbUnits.length;
    const ranked: RankedItem[] = p.kbUnits.map((u, i) => ({
      id: u.kuId,
      source_path: u.sourceLink,
      score: n - i,
      ...(u.score !== undefined ? { score_breakdown: { ku_score: u.score } } : {}),
      chars: u.text.length,
    }));
    const t = p.retrievalTrace;
    const chars = p.resolvedPayload.context.reduce((s, c) => s + c.text.length, 0);
    const top = p.kbUnits[0];
    const units: KuObservedUnit[] = [
      ...p.strategyUnits.map((u) => observed(u, 'strategy')),
      ...GUIDANCE_ROLES.flatMap((role) =>
        p.guidanceUnits[role].map((u) => observed({ ...u, role: u.role ?? role }, 'guidance')),
      ),
      ...p.currentTurnContextUnits.map((u) => observed(u, 'current_turn')),
      ...p.sessionUnits.map((u) => observed(u, 'session')),
      ...p.kbUnits.map((u) => observed(u, 'kb')),
    ];
    return {
      ...(top
        ? { selected_id: top.kuId, source_path: top.sourceLink }
        : {
            selection_mode: 'no_match' as const,
            no_match_reason: 'no knowledge unit selected (kbUnits empty)',
          }),
      ranked,
      fallback: {
        triggered: t.escalated,
        ...(t.escalated ? { stage: t.strategiesRun[t.strategiesRun.length - 1] as string } : {}),
        attempts: t.strategiesRun.slice(),
      },
      usage: { files: n, chars, tokens: estimateTokens(chars) },
      ku: {
        purpose: t.purpose,
        escalated: t.escalated,
        strategies_run: t.strategiesRun.slice(),
        levels_used: t.kuLevelsUsed.slice(),
        total_considered: t.totalKUsConsidered,
        ...(t.targetLevel !== undefined ? { target_level: t.targetLevel } : {}),
        units,
        over_budget: (t.overBudget ?? []).map((o) => ({
          id: o.kuId,
          resolution: o.resolution,
          children: o.children.slice(),
        })),
        response_sha256: sha256(canonicalJson(p)),
      },
    };
  },
  rankedIdPath(_p, i) {
    return `/kbUnits/${i}/kuId`;
  },
};
