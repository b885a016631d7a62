import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../documents/index.js';
import { createEngine } from './engine.js';
import { cfg, rec } from './test-helpers.js';

const long = (words: string, n: number) => Array.from({ length: n }, () => words).join(' ');

/** Two areas, summary -> intermediate -> leaf, one over-budget intermediate, guidance and a strategy. */
const corpus: CorpusRecord[] = [
  rec('deploy', 'Deployments: how releases reach production, canary checks and rollback.', {
    level: 'summary',
  }),
  rec(
    'deploy-canary',
    `Canary promotion sends a share of traffic to the new build. ${long('canary traffic analysis compares latency and errors.', 30)}`,
    {
      level: 'intermediate',
      parent_id: 'deploy',
    },
  ),
  rec('deploy-canary-share', 'The canary receives 5% of traffic for a bake time of 2 hours.', {
    level: 'leaf',
    parent_id: 'deploy-canary',
  }),
  rec('deploy-canary-threshold', 'Canary analysis fails when p99 latency rises more than 15%.', {
    level: 'leaf',
    parent_id: 'deploy-canary',
  }),
  rec('deploy-canary-owner', 'The release captain approves canary promotion.', {
    level: 'leaf',
    parent_id: 'deploy-canary',
  }),
  rec(
    'deploy-rollback',
    'Rollback returns production to the previous tag; migrations stay backward compatible.',
    {
      level: 'intermediate',
      parent_id: 'deploy',
    },
  ),
  rec('deploy-rollback-cmd', 'Roll back with orbitctl release rollback --to previous-tag.', {
    level: 'leaf',
    parent_id: 'deploy-rollback',
  }),
  rec('db', 'Databases: the ledger runs on PostgreSQL with replicas, backups and failover.', {
    level: 'summary',
  }),
  rec('db-backups', 'Backups run nightly; point-in-time recovery replays write-ahead logs.', {
    level: 'intermediate',
    parent_id: 'db',
  }),
  rec('db-backups-retention', 'Base backups are kept for 35 days.', {
    level: 'leaf',
    parent_id: 'db-backups',
  }),
  rec('guide-deploy', 'State whether a migration is backward compatible before any recommendation.', {
    level: 'leaf',
    parent_id: 'deploy',
    tags: ['guidance:validation'],
  }),
  rec('guide-global', 'Name the knowledge unit behind every claim.', {
    level: 'summary',
    tags: ['guidance:validation'],
  }),
  rec(
    'strategy-deploy',
    'Approach for release problems: find the stage, compare with its gate, then decide.',
    {
      level: 'intermediate',
      parent_id: 'deploy',
      tags: ['strategy'],
    },
  ),
  rec('deploy-secret', 'The canary signing key is FAKE-KEY.', {
    level: 'leaf',
    parent_id: 'deploy-canary',
    tags: ['secret'],
  }),
];
const config = cfg({ mode: 'ku', budgets: { max_files: 4, max_chars_per_file: 600, tokens: 4000 } });
const turn = [
  { id: 't-context', text: 'We are half way through the canary right now.' },
  { id: 't-chatter', text: 'Lunch orders close at 11:30.' },
  { id: 't-format', text: 'Format the answer as a table with one row per step.' },
  { id: 't-plan', text: 'Anything needing sign-off comes before the rest.', tags: ['guidance:planner'] },
];

describe('KU context matching (DS012)', () => {
  const engine = createEngine(corpus, config);

  it('loads the level the intent asks for: a fact from a leaf, an orientation from a summary', () => {
    const leaf = engine.resolveIntent({
      intent: 'What exact bake time does the canary get?',
      intentRef: 'q1',
    });
    expect(leaf.retrievalTrace.targetLevel).toBe('leaf');
    expect(leaf.kbUnits[0]?.kuId).toBe('deploy-canary-share');
    expect(leaf.kbUnits.every((u) => u.level === 'leaf')).toBe(true);
    const summary = engine.resolveIntent({
      intent: 'Give me an overview of deployments and releases',
      intentRef: 'q2',
    });
    expect(summary.retrievalTrace.targetLevel).toBe('summary');
    expect(summary.kbUnits[0]?.kuId).toBe('deploy');
    expect(summary.retrievalTrace.kuLevelsUsed).toContain('summary');
  });

  it('puts the most relevant children of an over-budget unit in its place, and says so in the trace', () => {
    const r = engine.resolveIntent({ intent: 'How does canary promotion work?', intentRef: 'q3' });
    const over = r.retrievalTrace.overBudget ?? [];
    expect(over.map((o) => [o.kuId, o.resolution])).toEqual([['deploy-canary', 'children']]);
    expect(over[0]?.children).toHaveLength(2);
    const children = r.kbUnits.filter((u) => u.splitFrom === 'deploy-canary');
    expect(children.map((u) => u.kuId)).toEqual(over[0]?.children);
    expect(children.every((u) => u.loadedAs === 'child' && u.level === 'leaf')).toBe(true);
    expect(r.kbUnits.some((u) => u.kuId === 'deploy-canary')).toBe(false);
    expect(r.kbUnits.every((u) => u.text.length <= 600)).toBe(true);
  });

  it('cuts an over-budget unit without children to the budget', () => {
    const small = createEngine(corpus, cfg({ mode: 'ku', budgets: { max_chars_per_file: 20 } }));
    const r = small.resolveIntent({ intent: 'How long are base backups kept?', intentRef: 'q4' });
    const top = r.kbUnits[0];
    expect(top?.kuId).toBe('db-backups-retention');
    expect(top?.loadedAs).toBe('truncated');
    expect(top?.text).toBe('Base backups are kep');
    expect(r.retrievalTrace.overBudget).toEqual([
      { kuId: 'db-backups-retention', chars: 34, budget: 20, resolution: 'truncated', children: [] },
    ]);
  });

  it('never drops current-turn guidance for lack of overlap, and filters plain turn units per intent', () => {
    const r = engine.resolveIntent({
      intent: 'How long are base backups kept?',
      intentRef: 'q5',
      current_turn: turn,
    });
    expect(r.guidanceUnits.goalSolver.map((u) => u.kuId)).toEqual(['t-format']); // untagged: recognised by its cue
    expect(r.guidanceUnits.planner.map((u) => u.kuId)).toEqual(['t-plan']); // tagged
    expect(r.currentTurnContextUnits).toEqual([]); // neither the canary note nor the chatter is about backups
    const canary = engine.resolveIntent({
      intent: 'Which canary bake time applies?',
      intentRef: 'q6',
      current_turn: turn,
    });
    expect(canary.currentTurnContextUnits.map((u) => u.kuId)).toEqual(['t-context']);
    expect(canary.guidanceUnits.goalSolver.map((u) => u.kuId)).toEqual(['t-format']);
  });

  it('keeps KB guidance of the area the evidence came from and guidance that applies everywhere', () => {
    const deploy = engine.resolveIntent({ intent: 'Which command rolls back a release?', intentRef: 'q7' });
    expect(deploy.guidanceUnits.validation.map((u) => u.kuId).sort()).toEqual([
      'guide-deploy',
      'guide-global',
    ]);
    expect(deploy.strategyUnits.map((u) => u.kuId)).toEqual(['strategy-deploy']);
    const db = engine.resolveIntent({ intent: 'How long are base backups kept?', intentRef: 'q8' });
    expect(db.guidanceUnits.validation.map((u) => u.kuId)).toEqual(['guide-global']);
  });

  it('escalates to secondary strategies when nothing passes at the intent level, and records it', () => {
    // asked as a fact, but only the databases summary speaks of PostgreSQL replicas
    const r = engine.resolveIntent({
      intent: 'What exact value do PostgreSQL replicas use?',
      intentRef: 'q9',
    });
    expect(r.retrievalTrace).toMatchObject({
      targetLevel: 'leaf',
      escalated: true,
      strategiesRun: ['level:leaf', 'adjacent-levels', 'any-term'],
    });
    expect(r.kbUnits[0]?.kuId).toBe('db');
    const direct = engine.resolveIntent({ intent: 'Which command rolls back a release?', intentRef: 'q10' });
    expect(direct.retrievalTrace).toMatchObject({ escalated: false, strategiesRun: ['level:leaf'] });
    expect(direct.kbUnits[0]?.kuId).toBe('deploy-rollback-cmd');
  });

  it('never hands out a record withheld by the sensitive-tag policy', () => {
    const r = engine.resolveIntent({ intent: 'canary signing key', intentRef: 'q11' });
    const ids = [...r.kbUnits, ...r.strategyUnits].map((u) => u.kuId);
    expect(ids).not.toContain('deploy-secret');
  });

  it('is deterministic: the same inputs give a byte-identical ResolvedIntent, whatever the record order', () => {
    const shuffled = createEngine(corpus.slice().reverse(), config);
    for (const intent of ['How does canary promotion work?', 'overview of databases', 'rollback command']) {
      const req = { intent, intentRef: 'q', current_turn: turn };
      const a = JSON.stringify(engine.resolveIntent(req));
      expect(JSON.stringify(engine.resolveIntent(req))).toBe(a);
      expect(JSON.stringify(shuffled.resolveIntent(req))).toBe(a);
    }
  });
});
