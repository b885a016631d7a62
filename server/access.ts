import type { ProjectInfo } from './registry.js';
import type { ServerStores } from './stores.js';
import { bearerToken, sameHash, tokenHash, type TokenRecord } from './tokens.js';

/** A request allowed (as whom), or refused with the status and one line saying why. */
export type Access =
  | { ok: true; as: 'public' | 'admin' | TokenRecord['kind']; tokenId?: string }
  | { ok: false; status: 401 | 403 | 404; message: string };

const NO_PROJECT = (slug: string): Access => ({
  ok: false,
  status: 404,
  message: `no project ${JSON.stringify(slug)}`,
});

/** What a reader without a token is told of a private project, and so of a missing one too. */
const HIDDEN = (slug: string): Access => ({
  ok: false,
  status: 404,
  message: `no project ${JSON.stringify(slug)} readable without a token (a private project needs its read token: Authorization: Bearer <token>)`,
});

/**
 * Every access decision of the server, for API routes and pages alike: tokens are hashed before they
 * are looked up, digests compared in constant time, and no message repeats a token.
 */
export class AccessControl {
  private readonly adminHash: string | undefined;

  constructor(
    private readonly stores: ServerStores,
    adminToken: string | undefined,
  ) {
    this.adminHash = adminToken ? tokenHash(adminToken) : undefined;
  }

  /** the admin token (`--admin-token-env`) */
  admin(authorization: string | undefined): Access {
    if (!this.adminHash) {
      return {
        ok: false,
        status: 403,
        message: 'this server has no admin token (start it with --admin-token-env NAME)',
      };
    }
    const token = bearerToken(authorization);
    if (!token)
      return {
        ok: false,
        status: 401,
        message: 'an admin token is required (Authorization: Bearer <token>)',
      };
    return sameHash(tokenHash(token), this.adminHash)
      ? { ok: true, as: 'admin' }
      : { ok: false, status: 403, message: 'not the admin token' };
  }

  /**
   * The digest of the request's token when it is a live one (the admin token, or a project token not
   * revoked), else undefined: what the rate limit keys a caller by. A made-up token is no caller of
   * its own, so sending fresh ones cannot buy fresh budgets.
   */
  async liveTokenHash(authorization: string | undefined): Promise<string | undefined> {
    const token = bearerToken(authorization);
    if (!token) return undefined;
    const hash = tokenHash(token);
    if (this.adminHash && sameHash(hash, this.adminHash)) return hash;
    const found = await this.stores.registry.findToken(hash);
    return found && found.revoked_at === null && sameHash(found.sha256, hash) ? hash : undefined;
  }

  /** a live token of this project (or the admin token), of a kind `allowed` lists */
  private async projectToken(
    project: string,
    authorization: string | undefined,
    allowed: readonly TokenRecord['kind'][],
  ): Promise<Access | undefined> {
    const token = bearerToken(authorization);
    if (!token) return undefined;
    const hash = tokenHash(token);
    if (this.adminHash && sameHash(hash, this.adminHash)) return { ok: true, as: 'admin' };
    const found = await this.stores.registry.findToken(hash);
    if (!found || !sameHash(found.sha256, hash)) return { ok: false, status: 403, message: 'unknown token' };
    if (found.revoked_at !== null)
      return { ok: false, status: 403, message: `token ${found.id} was revoked` };
    if (found.project !== project) {
      return { ok: false, status: 403, message: `token ${found.id} belongs to another project` };
    }
    if (!allowed.includes(found.kind)) {
      return { ok: false, status: 403, message: `token ${found.id} is a ${found.kind} token` };
    }
    return { ok: true, as: found.kind, tokenId: found.id };
  }

  /**
   * Reading a project's runs and pages: public projects to anyone, private ones with a read or upload
   * token. A caller who may not read a project learns nothing of whether it exists: a private project
   * answers exactly as a missing one (404 without a token; a token's own refusal, which does not
   * depend on the project, with one). Only the admin token, which may read every project, is told 404
   * for a missing one alone.
   */
  async read(project: string, authorization: string | undefined): Promise<Access> {
    const byToken = await this.projectToken(project, authorization, ['read', 'upload']);
    const info = await this.stores.getProject(project);
    if (byToken?.ok) return info ? byToken : NO_PROJECT(project);
    if (info?.public_read) return { ok: true, as: 'public' };
    return byToken ?? HIDDEN(project);
  }

  /**
   * Uploading to a project: an upload token of this project. The token is judged before the project
   * is looked up, so a refusal says nothing of whether the project exists (the admin token alone is
   * told 404).
   */
  async upload(project: string, authorization: string | undefined): Promise<Access> {
    const byToken = (await this.projectToken(project, authorization, ['upload'])) ?? {
      ok: false,
      status: 401,
      message: 'an upload token is required (Authorization: Bearer <token>)',
    };
    if (!byToken.ok) return byToken;
    return (await this.stores.getProject(project)) ? byToken : NO_PROJECT(project);
  }

  /**
   * The projects a caller may read, in slug order: the public ones, those its token reads, every one
   * for the admin token. What `/` and `GET /api/projects` both list.
   */
  async readable(authorization: string | undefined): Promise<ProjectInfo[]> {
    const readable: ProjectInfo[] = [];
    for (const p of await this.stores.listProjects()) {
      if ((await this.read(p.slug, authorization)).ok) readable.push(p);
    }
    return readable;
  }
}
