import type { Page } from 'playwright-core';

/** What a page that shows hostile payloads carries, as probePayloads finds it. */
export interface PayloadProbe {
  /** elements with an on* or `x` attribute (what the payloads try to inject), as "TAG attribute" */
  injected: string[];
  /** every script but JSON data: its src, or "(inline)" */
  scripts: string[];
  /** where every link, form and stylesheet link points, resolved */
  hrefs: string[];
}

/**
 * Gives every element a payload could hang on the events a handler would wait for (dispatched in the
 * page: hovering each one through the mouse took 24 s for the same effect), then reads what
 * the page carries. Shared by the dashboard's browser tests (static pages and through the server).
 */
export async function probePayloads(page: Page): Promise<PayloadProbe> {
  // in-page code as a string: the project compiles without the DOM lib
  await page.evaluate(`(() => {
    for (const el of document.querySelectorAll('td, code, a, span, li, h1, h2, p'))
      for (const type of ['mouseover', 'mouseenter', 'focus'])
        el.dispatchEvent(new Event(type, { bubbles: true }));
  })()`);
  return page.evaluate<PayloadProbe>(`(() => {
    const injected = [];
    for (const el of document.querySelectorAll('*'))
      for (const a of el.attributes) if (/^on/i.test(a.name) || a.name === 'x') injected.push(el.tagName + ' ' + a.name);
    const scripts = Array.from(document.scripts).filter((s) => s.type !== 'application/json').map((s) => s.src || '(inline)');
    const hrefs = Array.from(document.querySelectorAll('a[href], form[action], link[href]'))
      .map((e) => (e.tagName === 'FORM' ? e.action : e.href));
    return { injected, scripts, hrefs };
  })()`);
}
