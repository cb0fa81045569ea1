import { sql, type Kysely } from 'kysely';

/**
 * Loudness and true peak are measured to 0.01 dB (audio/analyze/analyzer.ts); sounds stored
 * before that carry fifteen decimals of noise. Rounded here once, so every answer, old sound or
 * new, says the same number of digits.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE sounds SET integrated_lufs = ROUND(integrated_lufs * 100) / 100, true_peak_db = ROUND(true_peak_db * 100) / 100
    WHERE integrated_lufs IS NOT NULL OR true_peak_db IS NOT NULL`.execute(db);
}
