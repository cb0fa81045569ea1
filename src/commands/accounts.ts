import { PLAN_NAMES, type PlanName } from '../accounts/plans.ts';
import type { Account } from '../accounts/store.ts';
import type { Config } from '../config.ts';
import { outputFor, parse, required, UsageError } from './cli.ts';
import { withServices } from './with-services.ts';

export async function accountsCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, {
    email: { type: 'string' },
    plan: { type: 'string' },
    operator: { type: 'boolean' },
  });
  const output = outputFor(values.json === true);
  const email = required(values.email, '--email');
  const plan = planArgument(values.plan);
  const action = positionals[0];
  await withServices(config, async (services) => {
    let account: Account;
    if (action === 'create') {
      account = await services.accounts.createAccount(email, plan);
    } else if (action === 'set-plan') {
      account = await services.accounts.setPlan(email, plan);
    } else {
      throw new UsageError('use "accounts create" or "accounts set-plan"');
    }
    if (values.operator) {
      await services.accounts.makeOperator(account.id);
    }
    output.result(
      { id: account.id, email: account.email, plan: account.plan.name },
      `${account.email}: ${account.plan.label} plan (account ${account.id})`,
    );
  });
}

function planArgument(value: string | boolean | undefined): PlanName {
  const plan = required(value, '--plan').toLowerCase();
  if (!(PLAN_NAMES as readonly string[]).includes(plan))
    throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return plan as PlanName;
}
