import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenKind } from '../src/documents/index.js';

/** A token as the registry keeps it: never the token, only its sha256. */
export interface TokenRecord {
  id: string;
  project: string;
  kind: TokenKind;
  sha256: string;
  created_at: string;
  revoked_at: string | null;
}

/** A new secret token (32 random bytes) and its public id (what revoking names). */
export function newToken(kind: TokenKind): { id: string; token: string } {
  return {
    id: randomBytes(6).toString('hex'),
    token: `rgate_${kind === 'upload' ? 'up' : 'rd'}_${randomBytes(32).toString('base64url')}`,
  };
}

/** sha256 of a token, hex: what is stored and looked up. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Equal digests, compared in constant time (the lengths are fixed: both are sha256 hex). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return m?.[1];
}
