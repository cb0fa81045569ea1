import { Counter, type Registry } from 'prom-client';
import type { QuotaCounter } from '../quota/quota.ts';

/**
 * The quota counter as it was, counting what it decides: allowed, refused, or not decided because
 * its store failed (the request then fails too). Every caller (REST, MCP tool calls, renditions)
 * goes through `consume`, so one wrapper sees them all and the quota code knows nothing of metrics.
 */
export function countDecisions(quota: QuotaCounter, registry: Registry): QuotaCounter {
  const decisions = new Counter({
    name: 'quota_decisions_total',
    help: 'Daily-quota decisions: allowed or refused (429).',
    labelNames: ['decision'] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'quota_errors_total',
    help:
      "Quota checks that failed because the counter's store (Redis, or the database) did not answer; " +
      'the request failed with them.',
    registers: [registry],
  });
  // Both series exist from the start, so a rate over them has no gap before the first refusal.
  const allowed = decisions.labels({ decision: 'allowed' });
  const refused = decisions.labels({ decision: 'refused' });
  return {
    async consume(...args) {
      try {
        const decision = await quota.consume(...args);
        (decision.allowed ? allowed : refused).inc();
        return decision;
      } catch (error) {
        failures.inc();
        throw error;
      }
    },
    async refund(...args) {
      try {
        await quota.refund(...args);
      } catch (error) {
        failures.inc();
        throw error;
      }
    },
    ready: () => quota.ready(),
    close: () => quota.close(),
  };
}
