import { describe, expect, it } from 'vitest';
import { RgateError } from '../core/errors.js';
import { parseScoreArgv, SCORE_OPTIONS } from './score-argv.js';
import { scoreArgv } from './score-route.cjs';

function refused(argv: string[]): RgateError {
  try {
    parseScoreArgv(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(RgateError);
    expect((e as RgateError).exitCode).toBe(2);
    return e as RgateError;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('rgate score arguments, read as trec_eval reads its own', () => {
  it('takes getopt forms: glued, grouped, a value starting with a dash, = and --', () => {
    const a = parseScoreArgv(['-qcJn', '-mmap', '-m', 'P.10', '-M100', '-l', '-1', '-N3204', 'q', '-']);
    expect(a).toMatchObject({
      files: ['q', '-'],
      measures: ['map', 'P.10'],
      perQuery: true,
      complete: true,
      judgedOnly: true,
      noSummary: true,
      maxDepth: 100,
      relevanceLevel: -1,
      docsInCollection: 3204,
      format: 'trec',
    });
    expect(parseScoreArgv(['--run', '-', '--qrels=q.txt'])).toMatchObject({
      run: '-',
      qrels: 'q.txt',
      files: [],
    });
    expect(parseScoreArgv(['--', '-odd-name', 'r']).files).toEqual(['-odd-name', 'r']);
    // getopt: the last of a repeated single-valued option counts
    expect(parseScoreArgv(['-l', '2', '-l3', 'q', 'r']).relevanceLevel).toBe(3);
  });

  it("accepts trec_eval's long option names", () => {
    const a = parseScoreArgv([
      '--query_eval_wanted',
      '--complete_rel_info_wanted',
      '--Judged_docs_only',
      '--nosummary',
      '--measure=map',
      '--level_for_rel',
      '2',
      '--Max_retrieved_per_topic=50',
      '--Number_docs_in_coll',
      '10',
      '--Rel_info_format=qrels',
      '--Results_format',
      'trec_results',
      'q',
      'r',
    ]);
    expect(a).toMatchObject({
      perQuery: true,
      complete: true,
      judgedOnly: true,
      noSummary: true,
      measures: ['map'],
      relevanceLevel: 2,
      maxDepth: 50,
      docsInCollection: 10,
    });
  });

  it('names every mistake, with a hint', () => {
    const typo = refused(['--mesure', 'map', 'q', 'r']);
    expect(typo.message).toBe('Unknown argument: --mesure');
    expect(typo.hint).toBe('did you mean --measure?');
    expect(refused(['--per-qery']).hint).toBe('did you mean --per-query?');
    expect(refused(['-x', 'q', 'r']).message).toBe('Unknown argument: -x');
    expect(refused(['-m']).message).toBe('-m needs a value');
    expect(refused(['--complete=yes']).message).toBe('--complete takes no value (given "yes")');
    expect(refused(['-l', 'x']).message).toBe('-l "x": not an integer');
    expect(refused(['-M', '1e3']).message).toBe('-M "1e3": not an integer');
    expect(refused(['-M', '-3']).message).toBe('-M -3: the depth must be a non-negative integer');
    expect(refused(['-N', '-1']).message).toContain('-N -1');
    expect(refused(['--format', 'xml']).hint).toBe('one of: trec, json');
    expect(refused(['--run', 'a', '--run', 'b']).message).toContain('--run is given 2 times');
    const prefs = refused(['-R', 'qrels_prefs', 'q', 'r']);
    expect(prefs.message).toBe('-R "qrels_prefs": not offered');
    expect(prefs.hint).toContain('preference measures');
    expect(refused(['-R', 'qrels_jg', 'q', 'r']).hint).toContain('judgment-group measures (qrels_jg)');
    expect(refused(['-Z', 'zfile']).message).toContain('z-scores (-Z) are not offered');
    expect(refused(['-D1']).message).toContain('debug output (-D) is not offered');
  });

  it('every option has one long name, and no two share a letter', () => {
    const names = SCORE_OPTIONS.flatMap((o) => [o.name, ...(o.trecEvalNames ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    const shorts = SCORE_OPTIONS.flatMap((o) => (o.short ? [o.short] : []));
    expect(new Set(shorts).size).toBe(shorts.length);
  });
});

describe('which command lines are `rgate score`', () => {
  it('score, after --debug too; not its help or version, not another command', () => {
    expect(scoreArgv(['score', '-q', 'a', 'b'])).toEqual(['-q', 'a', 'b']);
    expect(scoreArgv(['--debug', 'score', 'a', 'b'])).toEqual(['--debug', 'a', 'b']);
    expect(scoreArgv(['score', '--help'])).toBeUndefined();
    expect(scoreArgv(['score', '-h'])).toBeUndefined();
    expect(scoreArgv(['score', '--version'])).toBeUndefined();
    // after --, -h is a file name
    expect(scoreArgv(['score', '--', '-h', 'r'])).toEqual(['--', '-h', 'r']);
    expect(scoreArgv(['run', 'score'])).toBeUndefined();
    expect(scoreArgv([])).toBeUndefined();
  });
});
