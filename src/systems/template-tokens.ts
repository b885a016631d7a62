// `{name}` with an identifier-like name is a placeholder; `{{name}}` is the literal text `{name}`. Other
// braces (JSON in an argument: `{"a":{"b":1}}`) are left alone, so no escaping is needed for them.
export const TOKEN = /\{\{([A-Za-z_][\w.]*)\}\}|\{([A-Za-z_][\w.]*)\}/g;

/** The placeholders a text holds, as written (`{query}`, `{env.TOKEN}`); a literal `{{name}}` is none. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(TOKEN)].flatMap((m) => (m[2] === undefined ? [] : [m[0]]));
}
