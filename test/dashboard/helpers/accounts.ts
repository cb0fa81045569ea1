import type { PlanName } from '../../../src/accounts/plans.ts';
import type { Account } from '../../../src/accounts/store.ts';
import type { TestServer } from '../../helpers/server.ts';
import { uniqueEmail, WebClient } from './web-client.ts';

export interface SignedIn {
  client: WebClient;
  account: Account;
  email: string;
}

/** Signs up through the dashboard, then (as the operator would) moves the account to `plan`. */
export async function signedIn(server: TestServer, plan: PlanName = 'free', options: { operator?: boolean } = {}): Promise<SignedIn> {
  const client = new WebClient(server.url);
  const email = uniqueEmail(plan);
  const response = await client.signUp(email);
  if (response.status !== 303) throw new Error(`sign-up failed with ${response.status}`);
  const { accounts, accountStore } = server.services;
  if (plan !== 'free') await accounts.setPlan(email, plan);
  const account = (await accountStore.findByEmail(email))!;
  if (options.operator) await accountStore.update(account.id, { isOperator: true });
  return { client, account: (await accountStore.findById(account.id))!, email };
}
