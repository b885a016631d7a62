/** Renderers: each `(report, opts?) => string`; the CLI writes the files. */
import type { Report } from '../src/documents/index.js';
import { renderHtml } from './run/html.js';
import { renderJson } from './run/json.js';
import { renderJunit } from './run/junit.js';
import { renderMarkdown } from './run/markdown.js';
import { renderTerminal } from './run/terminal.js';

export { renderHtml } from './run/html.js';
export { chartJsPath } from './templates.js';
export { renderJson, assertValidReport } from './run/json.js';
export { renderJunit } from './run/junit.js';
export { renderMarkdown } from './run/markdown.js';
export { renderTerminal } from './run/terminal.js';

export const REPORT_FORMATS = ['terminal', 'json', 'html', 'md', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Render one format. Example: renderReport(report, 'md'); `width` is the terminal format's line. */
export function renderReport(
  report: Report,
  format: ReportFormat,
  opts: { color?: boolean; width?: number } = {},
): string {
  switch (format) {
    case 'terminal':
      return renderTerminal(report, {
        color: opts.color ?? false,
        ...(opts.width ? { width: opts.width } : {}),
      });
    case 'json':
      return renderJson(report);
    case 'html':
      return renderHtml(report);
    case 'md':
      return renderMarkdown(report);
    case 'junit':
      return renderJunit(report);
  }
}
