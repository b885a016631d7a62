import { describe, expect, it } from 'vitest';
import { top1Split } from './top1-split.js';

const q = (kind: 'benchmark' | 'probe', top1: string, mode?: string, judged?: boolean) => ({
  kind,
  top1: top1 as 'useful',
  ...(judged !== undefined ? { judged } : {}),
  actual: { ok: true, ...(mode ? { selection_mode: mode } : {}) } as never,
});

describe('top1Split', () => {
  const queries = [
    q('benchmark', 'useful', 'semantic'),
    q('benchmark', 'useful', 'hybrid_rrf'),
    q('benchmark', 'useful', 'fallback_exact_key'),
    q('benchmark', 'not_useful', 'semantic'),
    q('benchmark', 'unjudged', 'semantic'),
    q('benchmark', 'unjudged', 'fallback_path_priority'),
    q('benchmark', 'error'),
    q('benchmark', 'no_answer', 'no_match'),
    q('benchmark', 'useful', 'semantic', false), // no judgment: not counted
    q('probe', 'useful', 'fallback_exact_key'), // a probe: not counted
  ];

  it('splits the top-1 rate denominator into buckets that sum to it', () => {
    const s = top1Split(queries, true, ['semantic', 'hybrid_rrf']);
    expect(s).toEqual({
      counted: 8,
      useful: 2,
      useful_by_fallback: 1,
      judged_not_useful: 1,
      unjudged: 2,
      no_answer: 2,
    });
    expect(s.useful + s.useful_by_fallback + s.judged_not_useful + s.unjudged + s.no_answer).toBe(s.counted);
  });

  it('without a selection step every useful top-1 is useful, none by fallback', () => {
    const s = top1Split(queries, false, ['semantic']);
    expect(s.useful).toBe(3);
    expect(s.useful_by_fallback).toBe(0);
  });

  it('a useful answer without a selection mode is never by fallback, though the run has a selection step', () => {
    const s = top1Split([...queries, q('benchmark', 'useful'), q('benchmark', 'useful')], true, ['semantic']);
    expect(s.useful_without_mode).toBe(2);
    expect(s.useful_by_fallback).toBe(2);
    expect(s.useful).toBe(1);
    // absent when there is none, so the reports of selection systems keep their bytes
    expect(top1Split(queries, true, ['semantic'])).not.toHaveProperty('useful_without_mode');
    expect(top1Split([q('benchmark', 'useful')], false, ['semantic'])).toMatchObject({ useful: 1 });
  });

  it('the semantic-win modes are the contract setting', () => {
    expect(top1Split(queries, true, ['semantic']).useful_by_fallback).toBe(2);
  });
});
