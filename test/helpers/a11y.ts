/**
 * The accessibility checks a page must pass in Chromium, besides axe-core's (test/helpers/axe.ts):
 * WCAG 2 contrast of every visible text against the background it is drawn on (4.5:1, 3:1 for large
 * text), a label for every form control, alt text for images and an accessible name and role for
 * every chart canvas, one <main> landmark, one <h1>, no skipped heading level, a page language and a
 * title. Runs in the page (a string: the project compiles without the DOM lib) and returns the problems.
 */
export const A11Y_CHECKS = `(() => {
  const problems = [];
  const rgba = (s) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(s);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(',').map((x) => parseFloat(x));
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const blend = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  // the background an element's text is drawn on: its own and its ancestors' colours, composed
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = blend(c, bg);
    return bg;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (!el || seen.has(el) || el.closest('script,style,[hidden]')) continue;
    seen.add(el);
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none' || el.getClientRects().length === 0) continue;
    const bg = background(el);
    const fg = blend(rgba(st.color), bg);
    const ratio = (Math.max(lum(fg), lum(bg)) + 0.05) / (Math.min(lum(fg), lum(bg)) + 0.05);
    const size = parseFloat(st.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(st.fontWeight, 10) >= 700);
    const need = large ? 3 : 4.5;
    if (ratio < need) problems.push('contrast ' + ratio.toFixed(2) + ' < ' + need + ': ' + name(el) + ' "' + n.textContent.trim().slice(0, 40) + '"');
  }
  for (const c of document.querySelectorAll('input,select,textarea')) {
    const labelled = (c.id && document.querySelector('label[for="' + c.id + '"]')) || c.closest('label') || c.getAttribute('aria-label') || c.getAttribute('aria-labelledby');
    if (!labelled) problems.push('no label: ' + name(c));
  }
  for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push('no alt: ' + name(img));
  for (const cv of document.querySelectorAll('canvas')) {
    if (cv.getAttribute('role') !== 'img' || !(cv.getAttribute('aria-label') || '').trim()) problems.push('chart without role=img and aria-label: ' + name(cv));
  }
  if (document.querySelectorAll('main').length !== 1) problems.push('landmarks: ' + document.querySelectorAll('main').length + ' <main> elements');
  const headings = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map((h) => parseInt(h.tagName[1], 10));
  if (headings.filter((l) => l === 1).length !== 1) problems.push('headings: ' + headings.filter((l) => l === 1).length + ' <h1>');
  if (headings[0] !== 1) problems.push('headings: the first heading is h' + headings[0]);
  for (let i = 1; i < headings.length; i++) if (headings[i] > headings[i - 1] + 1) problems.push('headings: h' + headings[i - 1] + ' followed by h' + headings[i]);
  if (!document.documentElement.lang) problems.push('no lang on <html>');
  if (!document.title.trim()) problems.push('no <title>');
  return problems;
})()`;
