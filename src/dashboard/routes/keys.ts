import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Account } from '../../accounts/store.ts';
import { DomainError } from '../../errors.ts';
import type { Dashboard } from '../context.ts';
import { KEY_NAME_MAX_LENGTH, keysPage, revokeConfirmPage, type KeysPage } from '../pages/keys.ts';
import { requireAccount, type Visitor } from '../sessions/visitor.ts';
import { keyTotals } from '../usage.ts';
import { PageError } from './page-errors.ts';
import { sendPage } from './send-page.ts';

const PREFIX_PATTERN = /^sc_[0-9A-Za-z]{8}$/;
const KEY_STATUS: Partial<Record<DomainError['kind'], number>> = { forbidden: 403, limit: 409 };

const keyForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the key a name')
    .max(KEY_NAME_MAX_LENGTH, `Use at most ${KEY_NAME_MAX_LENGTH} characters`)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'Use letters, digits, spaces and punctuation'),
});

interface PrefixRoute {
  Params: { prefix: string };
}

export function registerKeyRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  const { accounts } = dashboard;

  async function render(reply: FastifyReply, visitor: Visitor, account: Account, extra: Partial<KeysPage> = {}) {
    const records = await accounts.listKeys(account.id);
    const totals = await keyTotals(
      dashboard,
      records.map((key) => key.id),
    );
    const keys = records.map((key) => ({
      ...key,
      requestsToday: totals.get(key.id)?.today ?? 0,
      requests30Days: totals.get(key.id)?.total ?? 0,
    }));
    return sendPage(reply, keysPage({ visitor, account, keys, ...extra }));
  }

  scope.get<{ Querystring: { revoked?: string } }>('/keys', async (request, reply) => {
    const account = requireAccount(request);
    const revoked = request.query.revoked;
    const success =
      revoked && PREFIX_PATTERN.test(revoked) ? `Key ${revoked}… is revoked; requests with it now get 401.` : undefined;
    return render(reply, request.visitor, account, { success });
  });

  scope.post('/keys', async (request, reply) => {
    const account = requireAccount(request);
    const parsed = keyForm.safeParse(request.body ?? {});
    if (!parsed.success) {
      return render(reply.code(400), request.visitor, account, { error: parsed.error.issues[0]!.message });
    }
    try {
      const created = await accounts.createKey(account.id, parsed.data.name);
      // Answered directly, never stored for a redirect: this response is the only place the key exists.
      return render(reply.code(201), request.visitor, account, {
        created: { key: created.key, name: created.record.name },
      });
    } catch (error) {
      const status = error instanceof DomainError ? KEY_STATUS[error.kind] : undefined;
      if (!status) throw error;
      return render(reply.code(status), request.visitor, account, {
        error: capitalize((error as Error).message),
        name: parsed.data.name,
      });
    }
  });

  scope.get<PrefixRoute>('/keys/:prefix/revoke', async (request, reply) => {
    const account = requireAccount(request);
    const key = (await accounts.listKeys(account.id)).find((candidate) => candidate.prefix === request.params.prefix);
    if (!key) throw noSuchKey();
    return sendPage(reply, revokeConfirmPage(request.visitor, key));
  });

  scope.post<PrefixRoute>('/keys/:prefix/revoke', async (request, reply) => {
    const account = requireAccount(request);
    const { prefix } = request.params;
    if (!PREFIX_PATTERN.test(prefix)) throw noSuchKey();
    try {
      // Scoped to the account: a prefix of someone else's key is "not found", never revoked.
      await accounts.revokeKey(prefix, account.id);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw noSuchKey();
      throw error;
    }
    return reply.redirect(`/dashboard/keys?revoked=${prefix}`, 303);
  });
}

function noSuchKey(): PageError {
  return new PageError(
    404,
    'No such key',
    'None of your active keys has that prefix. It may have been revoked already.',
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.');
}
