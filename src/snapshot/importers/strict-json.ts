/**
 * Where a JSON text first goes wrong, as a character offset and a reason. JSON.parse says where only
 * for some mistakes ("Unexpected token 's', ... is not valid JSON" has no position), and a user
 * fixing a hand-edited file needs the line and column every time. Only scans; JSON.parse still parses.
 */
export interface JsonProblem {
  offset: number;
  reason: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);

export function findJsonProblem(text: string): JsonProblem | undefined {
  let i = 0;
  const fail = (reason: string): never => {
    throw { offset: i, reason } satisfies JsonProblem;
  };
  const ws = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const describe = () => (i >= text.length ? 'end of file' : `character ${JSON.stringify(text[i])}`);
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('control character inside a string');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('bad escape in a string');
      }
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`unexpected ${describe()}`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a double-quoted key, found ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a key, found ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}", found ${describe()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]", found ${describe()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(`unexpected ${describe()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
    return undefined;
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'offset' in e) return e as JsonProblem;
    throw e;
  }
}
