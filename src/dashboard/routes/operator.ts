import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PLAN_NAMES } from '../../accounts/plans.ts';
import type { Account } from '../../accounts/store.ts';
import type { Dashboard } from '../context.ts';
import { operatorPage } from '../pages/operator.ts';
import { requireAccount } from '../sessions/visitor.ts';
import { PageError } from './page-errors.ts';
import { sendPage } from './send-page.ts';

/** A page of accounts is a table a person reads; beyond this, search narrows it down. */
const MAX_LISTED = 200;

const planForm = z.object({ account_id: z.string().min(1).max(100), plan: z.enum(PLAN_NAMES) });

/** Accounts the CLI marked with `--operator` change other accounts' plans here. */
function requireOperator(request: FastifyRequest): Account {
  const account = requireAccount(request);
  if (!account.isOperator)
    throw new PageError(403, 'Operators only', 'This page is for the people who run this service.');
  return account;
}

export function registerOperatorRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  const { accounts } = dashboard;

  scope.get<{ Querystring: { q?: string; updated?: string } }>('/operator', async (request, reply) => {
    requireOperator(request);
    const q = typeof request.query.q === 'string' ? request.query.q.trim().toLowerCase().slice(0, 254) : '';
    const all = await accounts.listAccounts();
    const matching = q ? all.filter((account) => account.email.includes(q)) : all;
    const updated =
      typeof request.query.updated === 'string'
        ? all.find((account) => account.id === request.query.updated)
        : undefined;
    const success = updated ? `${updated.email} is now on the ${updated.plan.label} plan.` : undefined;
    return sendPage(
      reply,
      operatorPage({
        visitor: request.visitor,
        accounts: matching.slice(0, MAX_LISTED),
        matching: matching.length,
        q,
        success,
      }),
    );
  });

  scope.post('/operator/plan', async (request, reply) => {
    requireOperator(request);
    const parsed = planForm.safeParse(request.body ?? {});
    const target = parsed.success ? await accounts.findById(parsed.data.account_id) : null;
    if (!parsed.success || !target) {
      const all = await accounts.listAccounts();
      const error = parsed.success
        ? 'That account no longer exists.'
        : `Choose one of the plans: ${PLAN_NAMES.join(', ')}.`;
      return sendPage(
        reply.code(400),
        operatorPage({
          visitor: request.visitor,
          accounts: all.slice(0, MAX_LISTED),
          matching: all.length,
          q: '',
          error,
        }),
      );
    }
    // Through the account service; keys are read on every request, so the new plan applies at once.
    await accounts.setPlan(target.email, parsed.data.plan);
    return reply.redirect(`/dashboard/operator?updated=${encodeURIComponent(target.id)}`, 303);
  });
}
