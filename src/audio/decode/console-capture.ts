/**
 * The WASM decoder packages report each damaged frame with console.error. That bypasses the
 * service's logger and lets a hostile upload flood stderr, so their calls run with console.error
 * captured; the messages become part of the DecodeError when nothing at all could be decoded.
 *
 * Only synchronous work is covered: the packages' decode methods do all their work before
 * returning (their promises are already settled), so nothing else can log in between.
 */
export function withConsoleErrorsCaptured<T>(run: () => T, messages: string[]): T {
  const original = console.error;
  console.error = (...args: unknown[]) => {
    if (messages.length < 20) messages.push(args.map(String).join(' ').trim());
  };
  try {
    return run();
  } finally {
    console.error = original;
  }
}
