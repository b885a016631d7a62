/**
 * The conversation side of KU context matching: the current turn's units (guidance by role or cue,
 * the rest by shared terms) and earlier turns' units, each scored by how many intent terms it shares.
 */
import { KU_MATCHING_DEFAULTS as D } from '../core/defaults.js';
import type { ConversationUnit, ResolvedIntent, ResolvedUnit } from '../documents/index.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import { guidanceRole } from './ku-intent.js';
import type { KuRequest } from './ku-types.js';

/** How many of the intent's terms a conversation unit (title and text) shares. */
export function overlapWith(
  ic: IndexedCorpus,
  termSet: ReadonlySet<string>,
): (u: ConversationUnit) => number {
  return (u) => {
    const seen = new Set(ic.analyzer.analyze(u.title ? `${u.title}\n${u.text}` : u.text));
    let k = 0;
    for (const t of termSet) if (seen.has(t)) k++;
    return k;
  };
}

function convUnit(u: ConversationUnit, link: string, extra: Partial<ResolvedUnit> = {}): ResolvedUnit {
  return { kuId: u.id, title: u.title ?? u.id, sourceLink: `${link}:${u.id}`, text: u.text, ...extra };
}

/**
 * The current turn: guidance units always; the others when they share a term with the intent (all
 * of them when the intent has no searchable term).
 */
export function turnUnits(
  req: KuRequest,
  termSet: ReadonlySet<string>,
  overlap: (u: ConversationUnit) => number,
): { guidanceUnits: ResolvedIntent['guidanceUnits']; currentTurnContextUnits: ResolvedUnit[] } {
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
  return { guidanceUnits, currentTurnContextUnits };
}

/** Earlier turns' units sharing a term with the intent: most shared first, then in session order. */
export function sessionUnitsFor(req: KuRequest, overlap: (u: ConversationUnit) => number): ResolvedUnit[] {
  return (req.session ?? [])
    .map((u, i) => ({ u, i, k: overlap(u) }))
    .filter((s) => s.k > 0)
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .slice(0, D.session_units)
    .map((s) => convUnit(s.u, 'session', { score: s.k }));
}
