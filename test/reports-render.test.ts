import { describe, expect, it } from 'vitest';
import { PRETTY_MAX_QUERIES, renderJson, TOP_LEVEL_ORDER } from '../reports/run/json.js';
import { unpackedReport } from '../src/contracts/report.js';
import { ReportSchema } from '../src/documents/index.js';
import { renderJunit } from '../reports/run/junit.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { LIST_ALL_MAX_QUERIES, renderHtml } from '../reports/run/html.js';
import { separateTimingRules, TIMING_STUB_REASON } from '../gates/index.js';
import { jsonForScript, mdEscape, terminalSafe, xmlEscape } from '../reports/escape.js';
import type { Report } from '../src/documents/index.js';
import { sampleGateCReport, sampleReport, type Variant } from './fixtures/sample-report.js';

const VARIANTS: Variant[] = ['pass', 'watch', 'fail'];
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

describe('snapshots (terminal with colour off, Markdown, JUnit)', () => {
  for (const v of VARIANTS) {
    it(`${v}`, async () => {
      const r = sampleReport(v);
      await expect(renderTerminal(r, { color: false })).toMatchFileSnapshot(`__snapshots__/report-${v}.txt`);
      await expect(renderMarkdown(r)).toMatchFileSnapshot(`__snapshots__/report-${v}.md`);
      await expect(renderJunit(r)).toMatchFileSnapshot(`__snapshots__/report-${v}.xml`);
    });
  }
});

describe('Gate C: baseline rules and per-profile latency', () => {
  it('snapshot with a baseline (recall below baseline fails), and FAIL "no baseline" without one', async () => {
    const r = sampleGateCReport();
    await expect(renderTerminal(r, { color: false })).toMatchFileSnapshot('__snapshots__/report-gate-c.txt');
    expect(r.gate.verdict).toBe('FAIL');
    const out = renderTerminal(r, { color: false });
    expect(out).toMatch(/ndcg_cut\.5 vs baseline\s+n=58\s+\+12\.3%\s+>= \+10\.0%\s+PASS/);
    expect(out).toMatch(/recall\.10 vs baseline\s+n=58\s+-0\.0114\s+>= base\s+FAIL/);
    expect(out).toMatch(/latency_ms p95\/profile\s+n=580\s+1,720 ms\s+<= 2,000 ms\s+PASS/);
    const none = renderMarkdown(sampleGateCReport({ baseline: false }));
    expect(none).toContain('no baseline: ndcg\\_cut.5 0.6412 cannot be compared');
  });
});

describe('timing rules kept out of the deterministic sections', () => {
  it('two runs with different latencies give the same JSON outside environment and timing', () => {
    const strip = (r: Report) => {
      const { gate, timing_rules } = separateTimingRules(r.gate);
      r.gate = gate;
      r.timing.timing_rules = timing_rules;
      const o = JSON.parse(renderJson(r));
      delete o.environment;
      delete o.timing;
      return JSON.stringify(o);
    };
    const a = sampleGateCReport();
    const b = sampleGateCReport();
    b.timing.latency_ms.large = { kind: 'quantiles', n: 580, p50: 401, p95: 1799, p99: 2950 };
    // re-evaluate b's latency rule through the same path the harness uses
    const rule = b.gate.rules.find((r) => r.metric === 'latency_ms')!;
    rule.observed = 1799;
    rule.reason = rule.reason.replace('1,720', '1,799');
    b.gate.reasons = [...b.gate.reasons];
    expect(JSON.stringify(a.gate)).not.toBe(JSON.stringify(b.gate));
    expect(strip(a)).toBe(strip(b));
  });
  it('renderers put the full timing result back in place', () => {
    const r = sampleGateCReport();
    const { gate, timing_rules } = separateTimingRules(r.gate);
    r.gate = gate;
    r.timing.timing_rules = timing_rules;
    expect(r.gate.rules.find((x) => x.metric === 'latency_ms')!.reason).toBe(TIMING_STUB_REASON);
    expect(renderTerminal(r, { color: false })).toBe(renderTerminal(sampleGateCReport(), { color: false }));
    expect(renderMarkdown(r)).toContain('1,720 ms');
  });
});

describe('terminal', () => {
  it('fits 80 columns in every variant, with and without colour', () => {
    for (const v of VARIANTS) {
      for (const color of [false, true]) {
        const lines = renderTerminal(sampleReport(v), { color }).split('\n');
        const wide = lines.filter((l) => l.replace(ANSI, '').length > 80);
        expect(wide, `${v} color=${color}`).toEqual([]);
      }
    }
  });
  it('colour only when asked; the verdict banner is red for FAIL', () => {
    const r = sampleReport('fail');
    expect(renderTerminal(r, { color: false })).not.toContain('\u001b');
    expect(renderTerminal(r, { color: true })).toContain('\u001b[31m====');
    expect(renderTerminal(sampleReport('watch'), { color: true })).toContain('\u001b[33m====');
  });
  it('hostile control sequences in query texts never reach the terminal', () => {
    const out = renderTerminal(sampleReport('fail'), { color: true });
    expect(out).not.toContain('\u001b[2J');
    expect(out).toContain('\\u001b[2J');
    expect(out).not.toMatch(/[\u2028\u2029]/);
  });
  it('shows the numbers a reviewer needs: counts, Wilson interval, threshold, failing query expected vs actual', () => {
    const out = renderTerminal(sampleReport('fail'), { color: false });
    expect(out).toMatch(/top1_useful_rate\s+38\/50\s+76\.0%\s+62\.6%–85\.7%\s+>= 80\.0%\s+FAIL/);
    expect(out).toMatch(/q-044\s+semantic\s+rec-044\s+rec-144/);
    expect(out).toMatch(/q-050\s+error\s+rec-050\s+error: timeout/);
    expect(out).toContain('probe-002 first differs at /ranked/0/id');
    expect(out).toMatch(/corpus_id\s+memory-corpus@v1\+sha256:6f1c2a/);
  });
});

describe('markdown', () => {
  it('escapes hostile text: no HTML, no mentions, no extra table cells', () => {
    const md = renderMarkdown(sampleReport('fail'));
    // inside code spans HTML is literal text; everywhere else no tag may survive
    const outsideCode = md.replace(/`[^`\n]*`/g, '');
    expect(outsideCode).not.toMatch(/<script|<img|<\/script/i);
    expect(md).toContain('&lt;script&gt;alert(1); window.\\_\\_pwned = 1&lt;/script&gt;');
    expect(md).not.toContain('@everyone');
    // the failing-queries table (the errors section lists q-050 again, in a table of its own)
    const rows = md
      .split('### Errors')[0]!
      .split('\n')
      .filter((l) => l.startsWith('| `q-'));
    expect(rows.length).toBe(12);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length - 1, row).toBe(7);
  });
  it('mdEscape neutralises links, emphasis and HTML', () => {
    expect(mdEscape('[x](javascript:1) *b* <i>&')).toBe('\\[x\\](javascript:1) \\*b\\* &lt;i&gt;&amp;');
    expect(mdEscape('@team ping (@all) corpus@v1')).toBe('@\u200bteam ping (@\u200ball) corpus@v1');
  });
});

describe('junit', () => {
  it('one testsuite per suite, one testcase per rule and checklist item, failures carry num/den', () => {
    const xml = renderJunit([sampleReport('fail'), sampleReport('watch')]);
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    // 2 x 10: query_count, 5 rules (judged_top1 since semantic-retrieval-v1 1.1.0), 4 checklist items
    expect(xml).toContain('<testsuites name="rgate" tests="20" failures="5" errors="0" skipped="0">');
    expect(xml).toContain(
      '<failure message="top1_useful_rate: 38/50 = 76.0% is below the minimum 80.0%" type="gate-rule">',
    );
    expect(xml).toContain('<system-out>WATCH: 41/50 = 82.0% meets the minimum 80.0%, inside the WATCH band');
  });
  it('test ids: suite and gate in the classname, the metric as the name; a threshold is a property, never the name', () => {
    const a = sampleReport('fail');
    const b = sampleReport('fail');
    b.suite = 'semantic-v2';
    const ids = (xml: string) =>
      [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((m) => `${m[1]}#${m[2]}`);
    const both = ids(renderJunit([a, b]));
    // two suites under one gate: no id repeats
    expect(new Set(both).size).toBe(both.length);
    expect(both).toContain('rgate.semantic-v1.semantic-retrieval-v1#top1_useful_rate');
    expect(both).toContain('rgate.semantic-v2.semantic-retrieval-v1#top1_useful_rate');
    expect(renderJunit([a, b])).toContain('<testsuite name="semantic-v2" ');
    // retuning a threshold keeps every id
    const retuned = sampleReport('fail');
    for (const r of retuned.gate.rules) r.threshold = r.threshold / 2;
    const xml = renderJunit(retuned);
    expect(ids(xml)).toEqual(ids(renderJunit(sampleReport('fail'))));
    expect(xml).toContain('<property name="threshold" value="&gt;= 40.0%"/>');
  });
  it('two rules on one metric: the op names them apart, then the policy order', () => {
    const r = sampleReport('pass');
    const top1 = r.gate.rules.find((x) => x.metric === 'top1_useful_rate')!;
    r.gate.rules.push({ ...top1, op: 'max', threshold: 0.99 }, { ...top1, threshold: 0.9 });
    const names = [...renderJunit(r).matchAll(/name="(top1_useful_rate[^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual(['top1_useful_rate min', 'top1_useful_rate max', 'top1_useful_rate min #2']);
  });
  it('a FAIL that no rule explains is an error, never 0 failures', () => {
    const r = sampleReport('pass');
    r.gate.verdict = 'FAIL';
    r.gate.reasons = ['every rule passed but something did not', ...r.gate.reasons];
    const xml = renderJunit(r);
    expect(xml).toMatch(/<testsuites name="rgate" tests="\d+" failures="0" errors="1" skipped="0">/);
    expect(xml).toContain(
      '<testcase classname="rgate.semantic-v1.semantic-retrieval-v1" name="run">\n      <error message="every rule passed but something did not" type="run">',
    );
    // a PASS or a FAIL its rules explain has no such case
    expect(renderJunit(sampleReport('pass'))).not.toContain('name="run"');
    expect(renderJunit(sampleReport('fail'))).not.toContain('name="run"');
  });
  for (const [overruled, why] of [
    [
      'down',
      'system under test down: the first 10 of 252 requests failed, none succeeded (first error: crash: process exited with code 3)',
    ],
    ['interrupted', 'run interrupted: 16 of 252 requests observed'],
    ['partial', 'partial run (abandoned): 16 of 252 requests observed; not a verdict on the system'],
  ] as const) {
    it(`a run ${overruled}: its cause is the first testcase, an error, even beside failed rules; every rule is skipped`, () => {
      // the rules failed (and judged_top1 passed) on what little the run observed
      const r = sampleReport('fail');
      r.gate.overruled = overruled;
      r.gate.reasons = [
        why,
        ...r.gate.reasons,
        'FAIL judged_top1: insufficient judgments: 11 of 86 top-1s unjudged; run `rgate label pool semantic-v1`',
      ];
      const xml = renderJunit(r);
      expect(xml).toContain('<testsuites name="rgate" tests="11" failures="0" errors="1" skipped="10">');
      const first = /<testcase [^>]*>\s*<(\w+) message="([^"]*)" type="([^"]*)"/.exec(xml)!;
      expect(first.slice(1)).toEqual(['error', xmlEscape(why), overruled]);
      expect(xml).not.toContain('<failure');
      expect(xml.match(/<skipped message="not judged: /g)).toHaveLength(10);
      expect(xml).not.toContain('rgate label pool');
      expect(xml).toContain(`<property name="overruled" value="${overruled}"/>`);
    });
  }
  it('xmlEscape keeps the document well-formed for any input', () => {
    expect(xmlEscape('a<b>&"\'\u0001\ud800')).toBe('a&lt;b&gt;&amp;&quot;&apos;\ufffd\ufffd');
  });
});

function shuffleKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shuffleKeys);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .reverse()
      .map((k) => [k, shuffleKeys(o[k])]),
  );
}

describe('json', () => {
  it('is deterministic: key insertion order does not change a byte, and it round-trips', () => {
    const r = sampleReport('fail');
    const a = renderJson(r);
    expect(renderJson(shuffleKeys(r) as Report)).toBe(a);
    expect(JSON.parse(a)).toEqual(JSON.parse(JSON.stringify(r)));
  });
  it('is indented up to PRETTY_MAX_QUERIES queries and one line (packed) above, the same document either way', () => {
    const r = sampleReport('fail');
    const many = (n: number): Report => {
      const queries = Array.from({ length: n }, (_, i) => ({ ...r.queries[0]!, query_id: `q${i}` }));
      return { ...r, queries, failing_queries: queries.slice(0, 3) };
    };
    const small = renderJson(many(PRETTY_MAX_QUERIES));
    expect(small).toContain('\n  "schema_version"');
    const big = renderJson(many(PRETTY_MAX_QUERIES + 1));
    expect(big.split('\n')).toHaveLength(2);
    expect(big.endsWith('}\n')).toBe(true);
    expect(JSON.parse(big).schema_version).toBe('rgate-report-packed/1');
    expect(unpackedReport(JSON.parse(big))).toEqual(JSON.parse(JSON.stringify(many(PRETTY_MAX_QUERIES + 1))));
  });
  it('keeps the top-level sections in reading order, environment and timing last', () => {
    const keys = Object.keys(JSON.parse(renderJson(sampleReport('watch'))));
    // the sample has no baseline, no probe it cannot take, no warning, no contract violation, no peer
    // figure, and no evidence or fallback-reason section (it is shaped like a report written before them)
    expect(keys).toEqual(
      TOP_LEVEL_ORDER.filter(
        (k) =>
          ![
            'baseline',
            'not_applicable',
            'warnings',
            'contract_violations',
            'peer_figures',
            'evidence',
            'fallback_reasons',
          ].includes(k),
      ),
    );
    expect(keys.slice(-2)).toEqual(['environment', 'timing']);
  });
  it('orders every section the report schema has (a section missing from the order would be dropped)', () => {
    const declared = Object.keys((ReportSchema as unknown as { properties: object }).properties);
    expect([...TOP_LEVEL_ORDER].sort()).toEqual(declared.sort());
  });
  it('two runs differing only in environment and timing differ only in those sections', () => {
    const a = sampleReport('pass');
    const b = sampleReport('pass');
    b.environment.run_id = 'another-run';
    b.timing.wall_ms = 1;
    const strip = (s: string) => {
      const o = JSON.parse(s);
      delete o.environment;
      delete o.timing;
      return JSON.stringify(o);
    };
    expect(strip(renderJson(a))).toBe(strip(renderJson(b)));
    expect(renderJson(a)).not.toBe(renderJson(b));
  });
  it('refuses a report that does not match the schema, naming the path', () => {
    const r = sampleReport('fail');
    (r.metrics[0]!.value as { rate: number }).rate = 1.5;
    expect(() => renderJson(r)).toThrow(/report does not match the report schema: .*\/metrics\/0\/value/);
    const s = sampleReport('fail') as unknown as Record<string, unknown>;
    s.extra = 1;
    expect(() => renderJson(s as unknown as Report)).toThrow('/extra: is not a known field');
  });
});

describe('html (string-level; the browser test checks behaviour)', () => {
  const html = renderHtml(sampleReport('fail'));
  it('is self-contained: no external src/href, chart.js inlined, CSP without network', () => {
    expect(html).not.toMatch(/\s(src|href)=["']?(https?:)?\/\//i);
    expect(html).toContain('Chart.js v4');
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;; script-src/,
    );
  });
  it('escapes hostile text in markup and in the JSON data block', () => {
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html).toContain('&lt;script&gt;alert(1); window.__pwned &#x3D; 1&lt;/script&gt;');
    const block = /<script type="application\/json" id="rgate-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    // the block holds chart data only (the query rows are the table's): no copy of the query list
    expect(Object.keys(JSON.parse(block)).sort()).toEqual(['latency', 'metrics', 'modes', 'trend']);
  });
  it('jsonForScript escapes exactly what could end or alter a script block', () => {
    expect(jsonForScript({ a: '</script><!--&\u2028' })).toBe(
      '{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028"}',
    );
    expect(terminalSafe('a\u001b[0m\u202eb')).toBe('a\\u001b[0m\\u202eb');
  });
});

describe('a large report renders in time linear in its queries', () => {
  it('reads each failing query a bounded number of times, not once per query of the page', () => {
    const base = sampleReport('fail');
    const n = 2000;
    const queries = Array.from({ length: n }, (_, i) => ({
      ...base.queries[i % base.queries.length]!,
      query_id: `q-${String(i).padStart(5, '0')}`,
    }));
    let reads = 0;
    // every element read of the failing list is counted: a scan of it per query is n^2 / 2 reads
    const failing = new Proxy(queries.slice(), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const r: Report = { ...base, queries, failing_queries: failing };
    for (const render of [
      () => renderHtml(r),
      () => renderMarkdown(r),
      () => renderTerminal(r, { color: false }),
      () => renderJunit(r),
    ]) {
      reads = 0;
      render();
      expect(reads).toBeLessThanOrEqual(10 * n);
    }
  });
});

describe('vs_base rules: not evaluated in a run, in every format', () => {
  it('each format names the rule NOT EVALUATED with its reason, and the verdict stays the gate’s', () => {
    const r = sampleReport('pass');
    const reason =
      "judged by the server against the base branch's run on upload, not in this run's verdict: a drop of more than 0.02 below the base run that the paired test calls significant at alpha 0.05 fails it";
    r.gate = {
      ...r.gate,
      vs_base_rules: [{ metric: 'ndcg_cut.10', max_drop: 0.02, significant: true, alpha: 0.05, reason }],
      reasons: [...r.gate.reasons, `NOT EVALUATED ndcg_cut.10 vs base: ${reason}`],
    };
    expect(r.gate.verdict).toBe('PASS');
    const md = renderMarkdown(r);
    expect(md).toContain(
      `| \`ndcg_cut.10 vs base\` |  | n/a |  | ${mdEscape('drop <= 0.02')} | **NOT EVALUATED** |`,
    );
    expect(md).toContain(mdEscape(`NOT EVALUATED ndcg_cut.10 vs base: ${reason}`));
    const term = renderTerminal(r, { color: false, width: 120 });
    expect(term).toMatch(/ndcg_cut\.10 vs base\s+n\/a\s+drop <= 0\.02\s+NOT EVALUATED/);
    expect(term.replace(/\s+/g, ' ')).toContain(`NOT EVALUATED ndcg_cut.10 vs base: ${reason}`);
    const xml = renderJunit(r);
    expect(xml).toContain(
      `<testcase classname="rgate.${r.suite}.${r.gate.gate_id}" name="ndcg_cut.10 vs base">`,
    );
    expect(xml).toContain(`<skipped message="${xmlEscape(`not evaluated: ${reason}`)}"/>`);
    expect(xml).not.toContain('failures="1"');
    const html = renderHtml(r);
    expect(html).toContain('\u25CB NOT EVALUATED');
    expect(html).toContain('not in this run&#x27;s verdict');
    expect(JSON.parse(renderJson(r)).gate.vs_base_rules[0].metric).toBe('ndcg_cut.10');
  });
});

describe('the HTML page of a run of more than LIST_ALL_MAX_QUERIES queries', () => {
  const base = sampleReport('fail');
  const many = (n: number): Report => {
    const queries = Array.from({ length: n }, (_, i) => ({
      ...base.queries[i % base.queries.length]!,
      query_id: `q-${String(i).padStart(5, '0')}`,
    }));
    return { ...base, queries };
  };
  const rowIds = (html: string) =>
    [
      ...html
        .slice(html.indexOf('<table id="queries"'))
        .split('</table>')[0]!
        .matchAll(/<tr><td><code>([^<]+)<\/code>/g),
    ].map((m) => m[1]);
  it('lists every query up to the limit', () => {
    const html = renderHtml(many(LIST_ALL_MAX_QUERIES));
    expect(rowIds(html)).toHaveLength(LIST_ALL_MAX_QUERIES);
    expect(html).not.toContain('id="q-unlisted"');
  });
  it('lists the queries that fail above it, and says how many are not listed and where they are', () => {
    const r = many(LIST_ALL_MAX_QUERIES + 1);
    const html = renderHtml(r);
    const listed = rowIds(html);
    const fails = (q: Report['queries'][number]) => q.failure_reasons!.length > 0 || !q.actual.ok;
    const failing = r.queries.filter(fails).map((q) => q.query_id);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.length).toBeLessThan(r.queries.length);
    for (const id of failing) expect(listed).toContain(id);
    const rest = r.queries.length - listed.length;
    expect(rest).toBeGreaterThan(0);
    expect(html).toMatch(
      new RegExp(
        `<p class="meta" id="q-unlisted">The other ${rest} of the run&#x27;s ${r.queries.length} queries \\([^)]*\\) are not listed: .*report\\.json`,
      ),
    );
  });
});
