import type { Config } from '../config.ts';
import { outputFor, parse, required, UsageError } from './cli.ts';
import { withServices } from './with-services.ts';

export async function keysCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, { email: { type: 'string' }, name: { type: 'string' } });
  const output = outputFor(values.json === true);
  const [action, argument] = positionals;
  await withServices(config, async (services) => {
    if (action === 'create') {
      const account = await services.accounts.requireByEmail(required(values.email, '--email'));
      const created = await services.accounts.createKey(
        account.id,
        typeof values.name === 'string' ? values.name : 'default',
      );
      output.result(
        { key: created.key, prefix: created.record.prefix, name: created.record.name, account: account.email },
        `${created.key}\nThis is the only time the full key is shown. Keep it server-side.`,
      );
    } else if (action === 'list') {
      const account = await services.accounts.requireByEmail(required(values.email, '--email'));
      const keys = (await services.accounts.listKeys(account.id)).map((key) => ({
        prefix: key.prefix,
        name: key.name,
        created_at: key.createdAt,
        last_used_at: key.lastUsedAt,
      }));
      const lines = keys.map(
        (key) => `${key.prefix}…  ${key.name}  created ${key.created_at}  last used ${key.last_used_at ?? 'never'}`,
      );
      output.result({ keys }, lines.length > 0 ? lines.join('\n') : 'no active keys');
    } else if (action === 'revoke') {
      if (!argument) throw new UsageError('keys revoke needs the key prefix');
      await services.accounts.revokeKey(argument);
      output.result({ revoked: argument }, `revoked ${argument}`);
    } else {
      throw new UsageError('use "keys create", "keys list" or "keys revoke"');
    }
  });
}
