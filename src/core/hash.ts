import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export type Sha256 = `sha256:${string}`;

export function sha256(data: string | Uint8Array): Sha256 {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** A running sha256 fed piece by piece, so large content is hashed through one stream. */
export function sha256Stream(): { update(chunk: string | Uint8Array): void; digest(): Sha256 } {
  const h: Hash = createHash('sha256');
  return {
    update(chunk) {
      h.update(chunk);
    },
    digest() {
      return `sha256:${h.digest('hex')}`;
    },
  };
}

/** sha256 of a file's raw bytes, streamed. */
export async function sha256File(path: string): Promise<Sha256> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}
