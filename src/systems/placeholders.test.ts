import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/resolve-config.js';
import { isRgateError } from '../core/errors.js';
import { retrievalQuery } from './http-adapter.js';
import {
  checkArgvTemplate,
  checkTemplates,
  expandArgv,
  expandMap,
  placeholderValues,
} from './placeholders.js';

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

  it('suggests the placeholder a typo was meant as, and none when nothing is near', () => {
    const hint = (arg: string): string | undefined => {
      try {
        checkArgvTemplate(['x', arg], config, 'system');
      } catch (e) {
        return (e as { hint?: string }).hint;
      }
      return 'accepted';
    };
    expect(hint('{qury}')).toMatch(/^did you mean \{query\}\? placeholders: \{query\}, \{query_id\}/);
    expect(hint('{corpusdir}')).toMatch(/^did you mean \{corpus_dir\}\?/);
    expect(hint('{conifg.k}')).toMatch(/^did you mean \{config\.k\}\?/);
    expect(hint('{evn.TOKEN}')).toMatch(/^did you mean \{env\.TOKEN\}\?/);
    expect(hint('{config.nope}')).toMatch(/^placeholders: /);
    expect(hint('{banana}')).toMatch(/^placeholders: /);
  });
});

describe('system params placeholders', () => {
  const withParams = resolveConfig({ system: { params: { mode: 'hybrid', rrf: { k: 60 } } } });
  const v = placeholderValues(
    { query_id: 'q1', text: 'x' },
    { replay: 1, config: withParams, fixtureDir: '/fx' },
  );

  it('{params.<key>} expands in argv, env and http maps; objects as JSON', () => {
    expect(expandArgv(['--mode', '{params.mode}', '{params.rrf}', '{params.rrf.k}'], v)).toEqual([
      '--mode',
      'hybrid',
      '{"k":60}',
      '60',
    ]);
    expect(expandMap({ SUT_MODE: '{params.mode}', Q: '{query_id}' }, v)).toEqual({
      Q: 'q1',
      SUT_MODE: 'hybrid',
    });
  });

  it('a parameter the config does not hold is refused up front, listing the ones it does', () => {
    const refusal = (texts: [string, string][], config = withParams) => {
      try {
        checkTemplates(texts, config);
        return 'accepted';
      } catch (e) {
        return `${(e as Error).message} | ${(e as { hint?: string }).hint ?? ''}`;
      }
    };
    expect(refusal([['system/env/SUT_MODE', '{params.mode}']])).toBe('accepted');
    expect(refusal([['system/env/SUT_MODE', '{params.mod}']])).toBe(
      "system/env/SUT_MODE: {params.mod} names no system parameter | the system's params: mode, rrf (suite system.params, or --set system.params.<key>=<value>)",
    );
    expect(refusal([['system/filters/mode', '{params.mode}']], config)).toMatch(/declare it in the suite/);
  });

  it('http filters and headers carry the expanded values; the body keeps its seed 004 shape', () => {
    const body = retrievalQuery(
      { type: 'http', url: 'http://127.0.0.1:1/r', filters: { mode: '{params.mode}', tenant: 'ci' } },
      { query_id: 'q1', text: 'find it' },
      { replay: 1, config: withParams, fixtureDir: '/fx' },
    );
    expect(body.filters).toEqual({ mode: 'hybrid', tenant: 'ci' });
    expect(Object.keys(body).sort()).toEqual([
      'budgets',
      'filters',
      'overlay_policy',
      'query',
      'top_k',
      'transport',
    ]);
  });
});

describe('{env.NAME} placeholders', () => {
  const env = { TOKEN: 's3cret', EMPTY: '' };
  const msg = (texts: [string, string][], rules: Parameters<typeof checkTemplates>[2]): string => {
    try {
      checkTemplates(texts, config, rules);
      return 'accepted';
    } catch (e) {
      expect(isRgateError(e)).toBe(true);
      return (e as Error).message;
    }
  };

  it('reads the variable at expansion, from the environment given', () => {
    expect(expandArgv(['--token={env.TOKEN}', '{{env.TOKEN}}'], { ...values, env })).toEqual([
      '--token=s3cret',
      '{env.TOKEN}',
    ]);
    expect(expandMap({ Authorization: 'Bearer {env.TOKEN}' }, { ...values, env })).toEqual({
      Authorization: 'Bearer s3cret',
    });
  });

  it('refuses a variable that is unset or empty, a bad name, and use outside argv, env and headers', () => {
    const rules = { env: true, environment: env };
    expect(msg([['system/headers/a', 'Bearer {env.TOKEN}']], rules)).toBe('accepted');
    expect(msg([['system/headers/a', '{env.NOPE}']], rules)).toBe(
      'system/headers/a: {env.NOPE} names an environment variable that is not set',
    );
    expect(msg([['system/env/K', '{env.EMPTY}']], rules)).toBe(
      'system/env/K: {env.EMPTY} names an environment variable that is empty',
    );
    expect(msg([['system/env/K', '{env.A.B}']], rules)).toBe(
      'system/env/K: {env.A.B} is not an environment variable name',
    );
    expect(msg([['system/filters/f', '{env.TOKEN}']], { environment: env })).toBe(
      'system/filters/f: {env.TOKEN} is only allowed in argv, env and headers',
    );
    // a worker starts with its secrets: {env.*} has a value when a worker starts
    expect(msg([['system/argv/1', '{env.TOKEN}']], { ...rules, worker: true })).toBe('accepted');
  });
});
