/** A refusal from Parley's API: the HTTP status and the interface's message (`{"error": "…"}`). */
export class ParleyError extends Error {
  override readonly name = 'ParleyError';

  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait before asking again, on a 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** A webhook delivery that is not Parley's, or too old or too new to trust. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}
