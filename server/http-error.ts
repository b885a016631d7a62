/** A refusal with its HTTP status: the API answers `{error, path?}`, a page a message page (app.ts). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}
