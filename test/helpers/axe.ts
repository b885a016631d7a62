/**
 * axe-core's WCAG 2.x A/AA rules run inside a page in Chromium. The script is evaluated through the
 * DevTools protocol, so a page's Content-Security-Policy (one hashed inline script) does not block it
 * and the page itself is not changed. Returns one line per violation and node, empty when clean.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export async function axeViolations(page: Page): Promise<string[]> {
  const violations = await page.evaluate<AxeViolation[]>(
    `(() => { ${AXE_SOURCE}
      return window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String) })) })));
    })()`,
  );
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${n.target.join(' ')}`),
  );
}
