import { describe, expect, it } from 'vitest';
import { guidanceRole, intentLevel, intentPurpose } from './ku-intent.js';

describe('reading an intent (KU context matching)', () => {
  it('puts orientation at summary, procedures at intermediate, single facts at leaf', () => {
    expect(intentLevel('Give me an overview of how releases work')).toBe('summary');
    expect(intentLevel("I'm new to the team; what does on-call cover in general?")).toBe('summary');
    expect(intentLevel('Walk me through the rollback procedure')).toBe('intermediate');
    expect(intentLevel('How do we run a schema migration safely?')).toBe('intermediate');
    expect(intentLevel('What exact command rolls back a release?')).toBe('leaf');
    expect(intentLevel('How many minutes do I have to acknowledge a page?')).toBe('leaf');
    expect(intentLevel('What is the trace sampling rate?')).toBe('leaf');
    // no cue at all: the safe middle
    expect(intentLevel('ledger replicas')).toBe('intermediate');
  });

  it('tells strategy guidance from task evidence', () => {
    expect(intentPurpose('How should we approach a stuck rollout?')).toBe('strategy-guidance');
    expect(intentPurpose('What is the backup retention?')).toBe('task-evidence');
    expect(intentPurpose('Which steps decide between rollback and fix-forward?')).toBe('mixed');
  });

  it('reads a guidance role from a tag first, else from the text; plain context has none', () => {
    expect(guidanceRole({ text: 'anything', tags: ['guidance:goal-solver'] })).toBe('goalSolver');
    expect(guidanceRole({ text: 'Break this down into small steps for different people.' })).toBe(
      'decomposition',
    );
    expect(guidanceRole({ text: 'Double-check anything you present against the source.' })).toBe(
      'validation',
    );
    expect(guidanceRole({ text: 'Prioritise the steps that need no one else.' })).toBe('planner');
    expect(guidanceRole({ text: 'Format the answer as a table.' })).toBe('goalSolver');
    expect(guidanceRole({ text: 'The canary is at 10% in eu-west.' })).toBeUndefined();
    expect(guidanceRole({ text: 'Lunch orders close at 11:30.' })).toBeUndefined();
  });
});
