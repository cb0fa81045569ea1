/** How numbers, durations and times read on the pages: one place, one style. */

/**
 * 12345 → "12,345" (counts are whole numbers). Not toLocaleString: the first use of Intl's number
 * formatting pages in megabytes of ICU data that the rest of the server never needs.
 */
export function formatCount(value: number): string {
  const digits = String(Math.round(Math.abs(value)));
  return (value < 0 ? '-' : '') + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** 0.05 → "50 ms", 2.5 → "2.5 s", 95 → "1:35". */
export function formatDuration(seconds: number): string {
  // Rounded first, so 0.9996 s is never "1000 ms" and 59.96 s never "60.0 s".
  const ms = Math.round(seconds * 1000);
  if (ms < 1000) return `${ms} ms`;
  const tenths = Math.round(seconds * 10) / 10;
  if (tenths < 60) return `${tenths.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

export function formatMs(value: number | null): string {
  return value === null ? '—' : `${formatCount(Math.round(value))} ms`;
}

export function formatDecibels(value: number | null, unit: string): string {
  return value === null ? '—' : `${value.toFixed(1)} ${unit}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "15 Jun 2026, 12:00 UTC": times are shown in UTC, the zone the quota resets in. */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  const time = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${time} UTC`;
}

/** "7 h 5 min" until a moment; under a minute reads "less than a minute". */
export function formatWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (seconds < 60) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
