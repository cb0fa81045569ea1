/**
 * The one error a decoder throws for input it cannot turn into audio. The message is short and
 * meant for a person ("truncated WAV data"); callers map it to a 4xx/422 and show it as is.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';

  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
  }
}
