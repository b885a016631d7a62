import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/resolve-config.js';
import { isRgateError } from '../core/errors.js';
import { checkArgvTemplate, expandArgv, placeholderValues } from './placeholders.js';

const config = resolveConfig({ k: 7, retrieval_profile: 'small', budgets: { max_files: 3 } });
const values = placeholderValues(
  { query_id: 'q 1', text: `it's "quoted" $(rm -rf /) {k}`, exact_key: 'key-1' },
  { replay: 2, config, fixtureDir: '/fx/set' },
);

describe('argv placeholders', () => {
  it('expands every placeholder inside an argument, one argument each', () => {
    expect(
      expandArgv(
        [
          'ret',
          '--task={query}',
          '{query_id}',
          '-k',
          '{k}',
          '{corpus_dir}',
          '{profile}',
          'r{replay}',
          '{exact_key}',
        ],
        values,
      ),
    ).toEqual([
      'ret',
      `--task=it's "quoted" $(rm -rf /) {k}`,
      'q 1',
      '-k',
      '7',
      '/fx/set',
      'small',
      'r2',
      'key-1',
    ]);
  });

  it('renders config values by dotted key, objects as JSON', () => {
    expect(
      expandArgv(['{config.budgets.max_files}', '{config.bm25}', '{config.weighting_mode}'], values),
    ).toEqual(['3', '{"b":0.4,"k1":0.9}', 'uniform']);
  });

  it('leaves JSON braces alone and turns {{name}} into a literal {name}', () => {
    expect(expandArgv(['{"ranked":[{"id":"{query_id}","score":1}]}', '{{query}}'], values)).toEqual([
      '{"ranked":[{"id":"q 1","score":1}]}',
      '{query}',
    ]);
  });

  it('refuses unknown placeholders and config keys up front, naming the argument', () => {
    const msg = (argv: string[], worker = false): string => {
      try {
        checkArgvTemplate(argv, config, 'system', worker);
        return 'accepted';
      } catch (e) {
        expect(isRgateError(e)).toBe(true);
        return (e as Error).message;
      }
    };
    expect(msg(['x', '{querry}'])).toBe('system/argv/1: unknown placeholder {querry}');
    expect(msg(['x', '{config.nope.deeper}'])).toBe(
      'system/argv/1: unknown placeholder {config.nope.deeper}',
    );
    expect(msg(['x', '{config.bm25.k1}', '{{literal}}'])).toBe('accepted');
    expect(msg([])).toBe('system/argv: must name a program');
    expect(msg(['w', '{query}'], true)).toBe('system/argv/1: {query} has no value when a worker starts');
  });
});
