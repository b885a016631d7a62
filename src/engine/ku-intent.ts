import type { GuidanceRole, KuLevel, KuPurpose } from '../documents/index.js';

/**
 * Deterministic reading of an intent and of conversation units for KU context matching (DS012): what
 * the intent is for (purpose), which abstraction level it needs, and which guidance role a unit
 * serves. Cue lists, not a model: an auditor can read why an intent was put at a level, and the same
 * text always lands in the same place.
 */

interface Cue {
  re: RegExp;
  weight: number;
}

// broad orientation: the reader wants the map, not the street
const SUMMARY_CUES: readonly Cue[] = [
  {
    re: /\b(overview|big picture|high[- ]level|landscape|at a glance|in a nutshell|bird'?s[- ]eye)\b/i,
    weight: 2,
  },
  { re: /\b(summari[sz]e|summary of|orient|orientation|introduc\w*|new to|onboard\w*)\b/i, weight: 2 },
  {
    re: /\b(in general|overall|what (areas|parts|pieces)|which areas|what does .* cover|what is .* responsible for)\b/i,
    weight: 1.5,
  },
];

// moderate detail: a procedure or a mechanism, one area deep
const INTERMEDIATE_CUES: readonly Cue[] = [
  {
    re: /\b(walk me through|walk through|step[- ]by[- ]step|procedure|process for|workflow)\b/i,
    weight: 1.5,
  },
  {
    re: /\b(how (do|does|should|would) (we|i|you|one|it|the)|what happens (when|if|after|during))\b/i,
    weight: 1,
  },
  { re: /\b(steps (to|for)|what are the steps|explain how|how is .* handled)\b/i, weight: 1 },
];

// specific evidence: a number, a name, a command, a setting
const LEAF_CUES: readonly Cue[] = [
  { re: /\b(exact|exactly|specific|precise)\w*\b/i, weight: 2 },
  {
    re: /\b(which|what) (command|flag|value|setting|threshold|limit|port|timeout|metric|alert|channel|file|key|variable|version|number|date|owner)\b/i,
    weight: 2,
  },
  {
    re: /\b(how (many|much|long|often)|what time|when (is|was|does|did)|who (owns|is on|approves))\b/i,
    weight: 2,
  },
  { re: /(--?[a-z][a-z0-9-]+|\b[a-z0-9]+[_.][a-z0-9_.]+\b|\d)/i, weight: 1 },
  // "what is the <attribute>" asks for one fact, unless the attribute is a process or a mechanism
  {
    re: /^\s*(what|which)( is| are|'s)? (the |a |an )?(?!process|procedure|steps|way|approach|areas?|parts?)\w+( \w+)? (of|for|do|does|must|is|are|goes|go)\b/i,
    weight: 1.5,
  },
  {
    re: /\b(rate|target|objective|deadline|duration|budget|share|multiplier|percentage|retention|cadence|interval)\b/i,
    weight: 1,
  },
];

function cueScore(text: string, cues: readonly Cue[]): number {
  let s = 0;
  for (const c of cues) if (c.re.test(text)) s += c.weight;
  return s;
}

/**
 * The level an intent asks for: the cue family with the highest weight wins; no cue, or a tie
 * between families, gives `intermediate` (moderate detail is the safe middle for a planner).
 */
export function intentLevel(intent: string): KuLevel {
  const s = cueScore(intent, SUMMARY_CUES);
  const m = cueScore(intent, INTERMEDIATE_CUES);
  const l = cueScore(intent, LEAF_CUES);
  if (s > m && s > l) return 'summary';
  if (l > m && l > s) return 'leaf';
  return 'intermediate';
}

const STRATEGY_CUES =
  /\b(how should|approach|plan|strategy|best way|what order|checklist|prioriti[sz]\w*|decide|trade-?offs?|steps)\b/i;
const EVIDENCE_CUES =
  /\b(what is|what are|which|how many|how much|how long|when|who|where|value|limit|threshold|exact\w*)\b/i;

/** DS012 retrievalTrace.purpose: strategy guidance, task evidence, or both. */
export function intentPurpose(intent: string): KuPurpose {
  const strategy = STRATEGY_CUES.test(intent);
  const evidence = EVIDENCE_CUES.test(intent);
  if (strategy && !evidence) return 'strategy-guidance';
  if (evidence && !strategy) return 'task-evidence';
  return 'mixed';
}

const TAG_ROLES: Readonly<Record<string, GuidanceRole>> = {
  'guidance:planner': 'planner',
  'guidance:goal-solver': 'goalSolver',
  'guidance:goalsolver': 'goalSolver',
  'guidance:output': 'goalSolver',
  'guidance:decomposition': 'decomposition',
  'guidance:validation': 'validation',
};

/** The guidance role a `guidance:<role>` tag states, if any (first such tag in tag order). */
export function taggedRole(tags: readonly string[] | undefined): GuidanceRole | undefined {
  for (const t of tags ?? []) {
    const role = TAG_ROLES[t.toLowerCase()];
    if (role) return role;
  }
  return undefined;
}

// checked in this order: a unit that says "split the work and verify each part" decomposes first
const ROLE_CUES: readonly (readonly [GuidanceRole, RegExp])[] = [
  [
    'decomposition',
    /\b(break (it|this|the \w+|that)? ?(down|up)|split (it|this|the work|into)|sub-?tasks?|decompos\w*|one (step|task|item) (per|for each)|per-service)\b/i,
  ],
  [
    'validation',
    /\b(validat\w*|verif\w*|double-check\w*|check that|confirm (that|the)|make sure|ensure that|sanity[- ]check\w*|must not|never (claim|say|report))\b/i,
  ],
  [
    'planner',
    /\b(plan (the|this|it|for)|prioriti[sz]\w*|before (anything|you|dispatch\w*|starting)|do .* first|start (with|by)|sequence|order (the|of) (work|steps))\b/i,
  ],
  [
    'goalSolver',
    /\b(format|respond (as|in|with)|answer (as|in|with)|reply (as|in|with)|output (as|in)|as a (table|list|checklist)|bullet\w*|markdown|json|cite|under \d+ words|no more than \d+|keep (it|the answer) (short|brief)|tone)\b/i,
  ],
];

/**
 * The guidance role of a conversation or KB unit: its `guidance:<role>` tag, else the first role whose
 * cue its text carries; undefined for plain context. Output-shaping instructions are goal-solver guidance.
 */
export function guidanceRole(unit: {
  text: string;
  title?: string;
  tags?: readonly string[];
}): GuidanceRole | undefined {
  const tagged = taggedRole(unit.tags);
  if (tagged) return tagged;
  const text = unit.title ? `${unit.title}\n${unit.text}` : unit.text;
  for (const [role, re] of ROLE_CUES) if (re.test(text)) return role;
  return undefined;
}
