import { describe, expect, it } from 'vitest';
import { HttpAdapter } from './http-adapter.js';

describe('http url placeholders', () => {
  it('refuses a placeholder in the url, naming system/url, before any request', () => {
    const make = (): HttpAdapter =>
      new HttpAdapter({ type: 'http', url: 'http://127.0.0.1:1/retrieve?key={env.RETRIEVER_TOKEN}&k={k}' });
    expect(make).toThrow(/system\/url: \{env\.RETRIEVER_TOKEN\} is not filled in here/);
  });
});
