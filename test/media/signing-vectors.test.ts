import assert from 'node:assert/strict';
import { createHmac, hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { MediaSigner } from '../../src/media/signing.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * The test vectors of docs/signing.md ("Signed URLs"), checked against the code and against the
 * document. The HMACs were computed outside the project with OpenSSL 3.0's command line
 * (`openssl dgst -sha256 -hmac SECRET`). A change to any of them breaks every URL in flight, so
 * it must be a deliberate one.
 */
const SECRET = 'q9LzY0m3tYb8Hn2aQ5xW7cR1vK4pE6sJ0dF8gU2hI3o=';
const KID = '0IKiDN6R';
const NOW = Date.parse('2026-06-15T12:00:00Z');
const EXP = 1781528400;
const BASE = 'https://sounds.example.org';
const ID = 'abcdef0123456789';

const VECTORS = [
  {
    sign: (signer: MediaSigner) => signer.sign(ID, 'stream', {}, 'acct-42'),
    url: `/media/${ID}.mp3?d=stream&exp=${EXP}&kid=${KID}`,
    signed: `/media/${ID}.mp3?exp=${EXP}&kid=${KID}`,
    hex: '752f7c2e8c4dec4a7fc216ed1c09a509bda5a1565c8806921990804adf281f26',
    sig: 'dS98LoxN7Ep_whbtHAmlCb2loVZciAaSGZCASt8oHyY',
  },
  {
    sign: (signer: MediaSigner) =>
      signer.sign(ID, 'download', { loudness: -16, format: 'wav', bitDepth: 24 }, 'acct-42'),
    url: `/media/${ID}.wav?d=download&loudness=-16&format=wav&bit_depth=24&account=acct-42&exp=${EXP}&kid=${KID}`,
    signed: `/media/${ID}.wav?loudness=-16&format=wav&bit_depth=24&account=acct-42&exp=${EXP}&kid=${KID}`,
    hex: '4e3c774f3638b2929f5279fe2acec20963a1475b887094ac68b1565f7262731d',
    sig: 'Tjx3TzY4spKfUnn-Ks7CCWOhR1uIcJSsaLFWX3Jicx0',
  },
  {
    sign: (signer: MediaSigner) => signer.signPack([ID, '0123456789abcdef'], {}, 'acct-42'),
    url: `/media/packs/sound-pack.zip?ids=${ID},0123456789abcdef&exp=${EXP}&kid=${KID}`,
    signed: `/media/packs/sound-pack.zip?ids=${ID},0123456789abcdef&exp=${EXP}&kid=${KID}`,
    hex: '730e2379ada6b858b5811fd1ddadaa399a1ae9e518fe9f25af1e78f39ce81f31',
    sig: 'cw4jea2muFi1gR_R3a2qOZoa6eUY_p8lrx5485zoHzE',
  },
] as const;

const INVALID = { ok: false, reason: 'invalid' };
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

/** The signature format before HMAC-SHA256 (src/media/legacy-signature.ts), computed here independently. */
function legacySig(secret: string, message: string, disposition: 'stream' | 'download'): string {
  const mac = createHmac('sha256', secret).update('sound-catalog media URL MAC key').digest('base64url');
  const tag = hash('sha3-512', `${mac}\n${message}`, 'base64url');
  return disposition === 'stream' ? tag.slice(0, 24) : tag.slice(24, 48);
}

test('signing.each-second: a URL signed again in its second is the same; the next second signs anew, as HMAC says', () => {
  let now = NOW;
  const ticking = new MediaSigner(
    [SECRET],
    () => BASE,
    () => now,
  );
  const first = ticking.signBoth(ID);
  assert.deepEqual(ticking.signBoth(ID), first);
  now += 1000;
  const next = ticking.signBoth(ID);
  assert.equal(next.stream.expiresAt, first.stream.expiresAt + 1);
  for (const { url } of [next.stream, next.download]) {
    const [written, sig] = url.slice(BASE.length).split('&sig=') as [string, string];
    const signed = written.replace(/\?d=\w+&/, '?');
    assert.equal(sig, createHmac('sha256', SECRET).update(signed).digest('base64url'));
    assert.equal(ticking.verify(ID, queryOf(url)).ok, true);
  }
});

describe('media: signing vectors', () => {
  const signer = new MediaSigner(
    [SECRET],
    () => BASE,
    () => NOW,
  );

  test('signing.vectors: a known secret, time and rendition give the URLs of docs/signing.md, which verify', () => {
    for (const { sign, url, sig } of VECTORS) {
      assert.deepEqual(sign(signer), { url: `${BASE}${url}&sig=${sig}`, expiresAt: EXP });
    }
    const [plain, rendition, pack] = VECTORS;
    assert.deepEqual(signer.verify(ID, queryOf(`${BASE}${plain.url}&sig=${plain.sig}`)), {
      ok: true,
      expiresAt: EXP,
      choice: {},
      accountId: null,
      canonicalQuery: `${plain.url.split('?')[1]}&sig=${plain.sig}`,
    });
    assert.deepEqual(signer.verify(ID, queryOf(`${BASE}${rendition.url}&sig=${rendition.sig}`)), {
      ok: true,
      expiresAt: EXP,
      accountId: 'acct-42',
      canonicalQuery: `${rendition.url.split('?')[1]}&sig=${rendition.sig}`,
      choice: { loudness: -16, format: 'wav', bitDepth: 24 },
    });
    assert.deepEqual(signer.verifyPack(queryOf(`${BASE}${pack.url}&sig=${pack.sig}`)), {
      ok: true,
      expiresAt: EXP,
      ids: [ID, '0123456789abcdef'],
      choice: {},
      options: {},
      accountId: null,
      canonicalQuery: `${pack.url.split('?')[1]}&sig=${pack.sig}`,
    });
    const both = signer.signBoth(ID);
    assert.equal(both.stream.url, `${BASE}${plain.url}&sig=${plain.sig}`);
    assert.equal(both.download.url, signer.sign(ID, 'download').url);
  });

  test('signing.hmac: each vector is HMAC-SHA256 of its signed string under the secret, by node:crypto alone', () => {
    for (const { signed, hex, sig } of VECTORS) {
      assert.equal(createHmac('sha256', SECRET).update(signed).digest('hex'), hex);
      assert.equal(createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(signed).digest('base64url'), sig);
      assert.equal(Buffer.from(hex, 'hex').toString('base64url'), sig);
    }
    const kid = createHmac('sha256', SECRET).update('sound-catalog media URL key id').digest('base64url');
    assert.equal(kid.slice(0, 8), KID);
  });

  test('signing.docs: docs/signing.md states the algorithm and the same vectors', async () => {
    const doc = await readFile(new URL('../../docs/signing.md', import.meta.url), 'utf8');
    assert.match(doc, /^## Signed URLs$/m);
    assert.match(doc, /HMAC-SHA256/);
    assert.ok(doc.includes(SECRET) && doc.includes(KID) && doc.includes(`exp=${EXP}`));
    for (const { url, signed, hex, sig } of VECTORS) {
      const text = `\nurl    ${url}&sig=${sig}\nsigned ${signed}\nhex    ${hex}\nsig    ${sig}\n`;
      assert.ok(doc.includes(text), text);
    }
  });

  test('signing.older-formats: HMACs of id and expiry, whole or halved, as two releases ago, are refused', () => {
    const exp = String(EXP);
    const oldKid = hash('sha256', SECRET, 'base64url').slice(0, 8);
    const half = createHmac('sha256', SECRET).update(`${ID}\n${exp}`).digest();
    const whole = createHmac('sha256', SECRET).update(`${ID}\nstream\n${exp}`).digest('base64url');
    for (const kid of [oldKid, KID]) {
      const halves = [half.subarray(0, 16).toString('base64url'), half.subarray(16).toString('base64url')];
      for (const [d, sig] of [
        ['stream', halves[0]!],
        ['download', halves[1]!],
        ['stream', whole],
      ]) {
        assert.deepEqual(signer.verify(ID, { d, exp, kid, sig }), INVALID, `${kid} ${d} ${sig}`);
      }
    }
    // The current signature under the earlier key id names no key.
    assert.deepEqual(signer.verify(ID, { d: 'stream', exp, kid: oldKid, sig: VECTORS[0].sig }), INVALID);
  });

  test('signing.d-unsigned: one HMAC signs both URLs of a sound; the release before, which signed d, verifies an hour', () => {
    const [plain] = VECTORS;
    const both = signer.signBoth(ID);
    assert.equal(new URL(both.stream.url).searchParams.get('sig'), new URL(both.download.url).searchParams.get('sig'));
    // `d` says only whether the file comes as an attachment: turning one into the other changes nothing else.
    const flipped = signer.verify(ID, { ...queryOf(`${BASE}${plain.url}&sig=${plain.sig}`), d: 'download' });
    assert.equal(flipped.ok, true);
    // What the release before signed: the path and query up to `&sig=`, `d` included.
    const exp = String(EXP - 1800);
    const before = `/media/${ID}.mp3?d=stream&exp=${exp}&kid=${KID}`;
    const sig = createHmac('sha256', SECRET).update(before).digest('base64url');
    assert.equal(signer.verify(ID, { d: 'stream', exp, kid: KID, sig }).ok, true);
    assert.deepEqual(signer.verify(ID, { d: 'download', exp, kid: KID, sig }), INVALID);
    const far = String(EXP + 1);
    const farSig = createHmac('sha256', SECRET).update(`/media/${ID}.mp3?d=stream&exp=${far}&kid=${KID}`);
    assert.deepEqual(signer.verify(ID, { d: 'stream', exp: far, kid: KID, sig: farSig.digest('base64url') }), INVALID);
  });

  test('signing.legacy: an old-format URL verifies until its expiry, never past an hour ahead; none is made', () => {
    const exp = String(EXP - 1800);
    const sig = legacySig(SECRET, `${ID}\n${exp}`, 'stream');
    const query = { d: 'stream', exp, kid: KID, sig };
    assert.deepEqual(signer.verify(ID, query), {
      ok: true,
      expiresAt: EXP - 1800,
      choice: {},
      accountId: null,
      canonicalQuery: `d=stream&exp=${exp}&kid=${KID}&sig=${sig}`,
    });
    const atExpiry = new MediaSigner(
      [SECRET],
      () => BASE,
      () => (EXP - 1800) * 1000,
    );
    assert.deepEqual(atExpiry.verify(ID, query), { ok: false, reason: 'expired' });
    // Its other half signs the download URL only.
    assert.deepEqual(signer.verify(ID, { ...query, d: 'download' }), INVALID);
    const downloadSig = legacySig(SECRET, `${ID}\n${exp}`, 'download');
    assert.equal(signer.verify(ID, { ...query, d: 'download', sig: downloadSig }).ok, true);
    // Rightly signed, but expiring later than a URL signed now would: refused, whatever the clock says later.
    const far = String(EXP + 1);
    const farSig = legacySig(SECRET, `${ID}\n${far}`, 'stream');
    assert.deepEqual(signer.verify(ID, { ...query, exp: far, sig: farSig }), INVALID);
    // A legacy rendition URL: its parameters and account were signed too.
    const rendition = 'loudness=-16&trim=true&format=flac&account=acct-42';
    const renditionSig = legacySig(SECRET, `${ID}\n${exp}\n${rendition}`, 'download');
    const renditionQuery = { ...queryOf(`${BASE}/x?${rendition}`), d: 'download', exp, kid: KID, sig: renditionSig };
    assert.deepEqual(signer.verify(ID, renditionQuery), {
      ok: true,
      expiresAt: EXP - 1800,
      choice: { loudness: -16, trim: true, format: 'flac' },
      accountId: 'acct-42',
      canonicalQuery: `d=download&${rendition}&exp=${exp}&kid=${KID}&sig=${renditionSig}`,
    });
    assert.deepEqual(signer.verify(ID, { ...renditionQuery, account: 'acct-43' }), INVALID);
    // A legacy pack URL, the same way.
    const packSig = legacySig(SECRET, `pack\n${ID}\n0123456789abcdef\n${exp}\n`, 'download');
    assert.equal(signer.verifyPack({ ids: `${ID},0123456789abcdef`, exp, kid: KID, sig: packSig }).ok, true);
    // What the signer makes is only ever HMAC-SHA256: 43 characters.
    for (const { sign } of VECTORS) assert.equal(new URL(sign(signer).url).searchParams.get('sig')!.length, 43);
  });

  test('signing.short-secret: a secret shorter than 32 random bytes in base64url (43 characters) signs nothing', () => {
    assert.throws(
      () =>
        new MediaSigner(
          [SECRET.slice(0, 42)],
          () => BASE,
          () => NOW,
        ),
      /at least 43 characters .*openssl rand -base64 32/,
    );
    assert.doesNotThrow(
      () =>
        new MediaSigner(
          [SECRET.slice(0, 43)],
          () => BASE,
          () => NOW,
        ),
    );
  });
});

describe('media: signed URLs through HTTP', () => {
  let server: TestServer;
  let key: string;
  let sound: { id: string; bytes: Uint8Array };
  before(async () => {
    server = await startServer({ env: { SIGNING_SECRET: SECRET } });
    ({ key } = await server.account('pro'));
    sound = await addSound(server.services, { name: 'Vector Sound' });
  });
  after(() => server.close());

  const refused = async (url: string, error = 'This link is not valid') => {
    const response = await fetch(url);
    assert.equal(response.status, 403, url);
    assert.deepEqual(await response.json(), { error }, url);
  };
  const legacyUrl = (exp: number) =>
    `${server.url}/media/${sound.id}.mp3?d=stream&exp=${exp}&kid=${KID}` +
    `&sig=${legacySig(SECRET, `${sound.id}\n${exp}`, 'stream')}`;
  const serves = async (url: string) => {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), sound.bytes);
  };

  test('signing.vectors.http: the API hands out HMAC-SHA256 URLs; the media route serves them', async () => {
    for (const kind of ['stream', 'download'] as const) {
      const response = await server.get(`/api/v1/sounds/${sound.id}/${kind}`, { key });
      assert.equal(response.status, 200);
      const url = ((await response.json()) as { data: Record<string, string> }).data[`${kind}_url`]!;
      const exp = Math.ceil(server.clock.now / 1000) + 3600;
      const sig = createHmac('sha256', SECRET)
        .update(`/media/${sound.id}.mp3?exp=${exp}&kid=${KID}`)
        .digest('base64url');
      assert.equal(url, `${server.url}/media/${sound.id}.mp3?d=${kind}&exp=${exp}&kid=${KID}&sig=${sig}`);
      await serves(url);
    }
  });

  test('signing.legacy.http: an old-format URL plays until its expiry, then is 403; changed, it is 403', async () => {
    const start = server.clock.now;
    try {
      // Handed out half an hour before the upgrade.
      const exp = Math.ceil(start / 1000) + 1800;
      const url = legacyUrl(exp);
      await serves(url);
      const sig = new URL(url).searchParams.get('sig')!;
      for (const changed of [
        url.replace(`sig=${sig}`, `sig=${sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`),
        url.replace(`exp=${exp}`, `exp=${exp + 60}`),
        url.replace('d=stream', 'd=download'),
        url.replace(sound.id, 'ffffffffffffffff'),
        url.replace('.mp3?', '.wav?'),
        `${url}&x=1`,
      ])
        await refused(changed);
      server.clock.now = exp * 1000 - 1;
      await serves(url);
      server.clock.now = exp * 1000;
      await refused(url, 'This link has expired');
      // Rightly signed the old way but for longer than an hour from now: it could only extend a URL, so it is refused.
      server.clock.now = start;
      const far = Math.ceil(start / 1000) + 3600 + 60;
      await refused(legacyUrl(far));
    } finally {
      server.clock.now = start;
    }
  });

  test('signing.tamper.http: an HMAC URL with any part changed is 403 and serves nothing', async () => {
    const url = server.services.signer.signBoth(sound.id).download.url;
    await serves(url);
    const sig = new URL(url).searchParams.get('sig')!;
    const exp = new URL(url).searchParams.get('exp')!;
    for (const changed of [
      url.replace(`sig=${sig}`, `sig=${sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`),
      url.replace(`sig=${sig}`, `sig=${sig.slice(0, 24)}`),
      url.replace(`exp=${exp}`, `exp=${Number(exp) + 60}`),
      url.replace('d=download', 'd=attachment'),
      url.replace('&exp=', '&format=mp3&exp='),
      url.replace('.mp3?', '.wav?'),
    ])
      await refused(changed);
  });
});
