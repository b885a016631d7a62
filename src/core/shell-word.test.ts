import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellWord } from './shell-word.js';

describe('shellWord', () => {
  it('leaves plain words bare and quotes what a shell would split or expand', () => {
    expect(shellWord('fixtures/cortex-phase2')).toBe('fixtures/cortex-phase2');
    expect(shellWord('a@b%c+d=e:f,g.h-i_j')).toBe('a@b%c+d=e:f,g.h-i_j');
    expect(shellWord('my docs')).toBe("'my docs'");
    expect(shellWord('~/x')).toBe("'~/x'");
    expect(shellWord('')).toBe("''");
  });

  it('reads back as the same word in sh', () => {
    for (const w of ['my docs', "it's", '$HOME', '*.md', '~/x', 'a"b', 'back\\slash', 'new\nline', '']) {
      const r = spawnSync('sh', ['-c', `printf %s ${shellWord(w)}`], { encoding: 'utf8' });
      expect(r.stdout, JSON.stringify(w)).toBe(w);
    }
  });
});
