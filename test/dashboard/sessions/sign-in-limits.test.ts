import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HashingBusy, HashingGate } from '../../../src/dashboard/security/hashing-gate.ts';
import {
  decoyHash,
  HASH_CONCURRENCY,
  HASH_QUEUE,
  hashingGate,
  passwordWork,
  verifyPassword,
} from '../../../src/dashboard/security/passwords.ts';
import { SIGN_IN_RULE, SIGN_UP_RULE } from '../../../src/dashboard/sessions/sign-in-throttle.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { ownAddress, uniqueEmail, visibleText, WebClient } from '../helpers/web-client.ts';

const PASSWORD = 'correct horse battery';

/** Signs in from a client of its own; the CSRF token is read from the form first. */
function signInFrom(server: TestServer, email: string, password: string, address = ownAddress()) {
  return new WebClient(server.url, address).signIn(email, password);
}

/** The statuses of the answers, counted: { 401: 10, 429: 40 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('dashboard sign-in and sign-up limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  /** A new account with a password, made through the sign-up form. */
  async function account(): Promise<string> {
    const email = uniqueEmail();
    assert.equal((await new WebClient(server.url, ownAddress()).signUp(email, PASSWORD)).status, 303);
    return email;
  }

  test(
    'throttle.concurrency: 50 parallel wrong passwords ' + 'for one email, from 50 addresses, check at most 10',
    async () => {
      const email = await account();
      const before = passwordWork.verifications;
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => signInFrom(server, email, `wrong password ${i}`).then((r) => r.status)),
      );
      const checked = passwordWork.verifications - before;
      const counts = tally(statuses);
      assert.ok(checked >= 1 && checked <= SIGN_IN_RULE.failures, `${checked} passwords checked`);
      assert.equal(counts[401], checked, 'every checked password was a wrong one');
      assert.equal(counts[429], 50 - checked, 'the rest were refused before any check');
      server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
    },
  );

  test('throttle.concurrency: 50 parallel sign-ins from one address, for 50 emails, check at most 10', async () => {
    const address = ownAddress();
    const before = passwordWork.verifications;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        signInFrom(server, uniqueEmail('nobody'), 'wrong password', address).then((r) => r.status),
      ),
    );
    const checked = passwordWork.verifications - before;
    assert.ok(checked >= 1 && checked <= SIGN_IN_RULE.failures, `${checked} passwords checked`);
    assert.deepEqual(tally(statuses), { 401: checked, 429: 50 - checked });
    server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
  });

  test('throttle.instances: two servers over one database share the count', async () => {
    const email = await account();
    const second = await startServer({ dataDir: server.dataDir, clock: server.clock });
    try {
      const before = passwordWork.verifications;
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          signInFrom(i % 2 === 0 ? server : second, email, `wrong password ${i}`).then((r) => r.status),
        ),
      );
      const checked = passwordWork.verifications - before;
      assert.ok(checked >= 1 && checked <= SIGN_IN_RULE.failures, `${checked} passwords checked across both servers`);
      assert.deepEqual(tally(statuses), { 401: checked, 429: 40 - checked });
    } finally {
      await second.close({ keepData: true });
    }
    server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
  });

  test(
    'throttle.forgive: a correct password forgives the email ' +
      'its failures, and a success costs the address nothing',
    async () => {
      const email = await account();
      const address = ownAddress();
      for (let i = 0; i < SIGN_IN_RULE.failures - 1; i++)
        assert.equal((await signInFrom(server, email, `wrong ${i}`, address)).status, 401);
      assert.equal((await signInFrom(server, email, PASSWORD, address)).status, 303);
      // Were the failures (or the success) still counted, the second of these would be refused.
      for (let i = 0; i < 2; i++)
        assert.equal((await signInFrom(server, email, `wrong again ${i}`, ownAddress())).status, 401);
      // The address keeps its 9 failures; sign-ins that succeed never add to them.
      for (let i = 0; i < 5; i++) assert.equal((await signInFrom(server, email, PASSWORD, address)).status, 303);
      assert.equal(
        (await signInFrom(server, uniqueEmail('nobody'), 'wrong', address)).status,
        401,
        'the 10th failure of the address',
      );
      const refused = await signInFrom(server, email, PASSWORD, address);
      assert.equal(refused.status, 429);
      server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
    },
  );

  test(
    'throttle.sign-up: 10 sign-ups an hour per address, ' + 'then a 429 page that says why and for how long',
    async () => {
      const address = ownAddress();
      const before = passwordWork.hashes;
      for (let i = 0; i < SIGN_UP_RULE.signUps; i++)
        assert.equal((await new WebClient(server.url, address).signUp(uniqueEmail())).status, 303);
      const refusedEmail = uniqueEmail();
      const refused = await new WebClient(server.url, address).signUp(refusedEmail);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 3000, 'about an hour');
      assert.match(
        visibleText(refused.text),
        /Too many accounts were made from your network\. Wait (59 min|1 h) and try again\./,
      );
      assert.equal(passwordWork.hashes - before, SIGN_UP_RULE.signUps, 'the refused sign-up hashed nothing');
      assert.equal(await server.services.accounts.findByEmail(refusedEmail), null);
      assert.equal(
        (await new WebClient(server.url, ownAddress()).signUp(uniqueEmail())).status,
        303,
        'another address may',
      );
      server.clock.advance(SIGN_UP_RULE.windowMs + 1000);
      assert.equal(
        (await new WebClient(server.url, address).signUp(uniqueEmail())).status,
        303,
        'and this one again an hour later',
      );
    },
  );

  test('throttle.sign-up: 30 parallel sign-ups from one address make at most 10 accounts', async () => {
    const address = ownAddress();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => new WebClient(server.url, address).signUp(uniqueEmail()).then((r) => r.status)),
    );
    const counts = tally(statuses);
    assert.ok(counts[303]! >= 1 && counts[303]! <= SIGN_UP_RULE.signUps, `${counts[303]} accounts made`);
    assert.equal(counts[429], 30 - counts[303]!);
    server.clock.advance(SIGN_UP_RULE.windowMs + 1000);
  });

  test(
    'passwords.upgrade: an old scrypt hash still signs ' + 'in, and is replaced by argon2id at that sign-in',
    async () => {
      const email = uniqueEmail('old');
      // A hash of "correct horse battery" as the dashboard made them before (scrypt N=2^14, r=8, p=1).
      const scryptHash = 'scrypt$16384$8$1$rjsqOU7S1jcNzXK04VtTBw$q30GG1jfPWoFYJhrtoYTfOP1a_9ykvJGh9kKqC-w6rU';
      assert.equal(await verifyPassword(PASSWORD, scryptHash), true, 'the fixed vector verifies');
      await server.services.accounts.createAccount(email, 'pro', scryptHash);
      assert.equal((await signInFrom(server, email, 'not the password')).status, 401);
      assert.equal(
        (await server.services.accounts.findByEmail(email))!.passwordHash,
        scryptHash,
        'a wrong password upgrades nothing',
      );
      assert.equal((await signInFrom(server, email, PASSWORD)).status, 303);
      const upgraded = (await server.services.accounts.findByEmail(email))!.passwordHash!;
      assert.match(upgraded, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      assert.equal((await signInFrom(server, email, PASSWORD)).status, 303, 'the new hash signs in');
      assert.equal((await server.services.accounts.findByEmail(email))!.passwordHash, upgraded, 'and is kept');
    },
  );

  test('passwords.decoy: an unknown email costs one argon2id check, like a known one', async () => {
    assert.match(await decoyHash(), /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const before = passwordWork.verifications;
    assert.equal((await signInFrom(server, uniqueEmail('nobody'), 'some password')).status, 401);
    assert.equal(passwordWork.verifications - before, 1);
  });

  test(
    'passwords.memory: with every hashing place taken, a sign-in ' +
      'answers 503 with Retry-After; it works once they free up',
    async () => {
      const email = await account();
      let free!: () => void;
      const held = new Promise<void>((resolve) => (free = resolve));
      const holders = Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE }, () =>
        hashingGate.run(() => held).catch((error: unknown) => error),
      );
      try {
        const busy = await signInFrom(server, email, PASSWORD);
        assert.equal(busy.status, 503);
        assert.ok(Number(busy.headers.get('retry-after')) > 0);
        assert.match(visibleText(busy.text), /Too many people are signing in at this moment/);
      } finally {
        free();
        await Promise.all(holders);
      }
      assert.equal((await signInFrom(server, email, PASSWORD)).status, 303);
      assert.ok(hashingGate.peakRunning <= HASH_CONCURRENCY, `${hashingGate.peakRunning} hashes ran at once`);
    },
  );

  test(
    'passwords.memory: the gate runs at most its bound ' + 'at once, queues a few in order, and refuses the rest',
    async () => {
      const gate = new HashingGate(2, 3, 60_000);
      const releases: Array<() => void> = [];
      const started: number[] = [];
      const job = (n: number) =>
        gate.run(
          () =>
            new Promise<number>((resolve) => {
              started.push(n);
              releases.push(() => resolve(n));
            }),
        );
      const running = [0, 1, 2, 3, 4].map(job);
      await assert.rejects(job(5), HashingBusy, 'a sixth finds the queue full');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(started, [0, 1]);
      releases[0]!();
      await running[0];
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(started, [0, 1, 2], 'a finished job hands its place to the first waiter');
      // Each job started gives its release; finishing one starts the next waiter.
      for (let i = 1; i < 5; i++) {
        releases[i]!();
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.deepEqual(started, [0, 1, 2, 3, 4]);
      assert.deepEqual(await Promise.all(running), [0, 1, 2, 3, 4]);
      assert.equal(gate.peakRunning, 2);
      const timed = new HashingGate(1, 1, 10);
      const blocker = timed.run(() => new Promise<void>((resolve) => setTimeout(resolve, 200)));
      await assert.rejects(
        timed.run(async () => undefined),
        HashingBusy,
        'a waiter whose turn does not come in time',
      );
      await blocker;
    },
  );
});
