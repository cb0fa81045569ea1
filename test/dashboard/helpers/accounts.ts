import type { PlanName } from '../../../src/accounts/plans.ts';
import type { Account } from '../../../src/accounts/store.ts';
import type { TestServer } from '../../helpers/server.ts';
import { ownAddress, uniqueEmail, WebClient } from './web-client.ts';

export interface SignedIn {
  client: WebClient;
  account: Account;
  email: string;
}

/** Signs up through the dashboard, then (as the operator would) moves the account to `plan`. */
export async function signedIn(
  server: TestServer,
  plan: PlanName = 'free',
  options: { operator?: boolean } = {},
): Promise<SignedIn> {
  const client = new WebClient(server.url, ownAddress());
  const email = uniqueEmail(plan);
  const response = await client.signUp(email);
  if (response.status !== 303) throw new Error(`sign-up failed with ${response.status}`);
  const { accounts } = server.services;
  if (plan !== 'free') await accounts.setPlan(email, plan);
  const account = (await accounts.findByEmail(email))!;
  if (options.operator) await accounts.makeOperator(account.id);
  return { client, account: (await accounts.findById(account.id))!, email };
}
