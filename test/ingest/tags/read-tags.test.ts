import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readMetadata } from '../../../src/ingest/metadata.ts';
import { readEmbeddedTags } from '../../../src/ingest/tags/read-tags.ts';
import { categoryFromGenre, ucsFromFileName } from '../../../src/ingest/tags/fields.ts';
import { ucsCatIdCount } from '../../../src/ingest/tags/ucs.ts';
import { writeAiff } from '../../audio/helpers/aiff.ts';
import { needsFfmpeg } from '../../audio/helpers/ffmpeg.ts';
import { ascii, concat, u32, writeWav } from '../../audio/helpers/wav.ts';
import {
  appendRiffChunk,
  bextChunk,
  commentFrame,
  flacMetadata,
  id3Tag,
  infoList,
  ixmlDocument,
  oggPages,
  textFrame,
  userTextFrame,
  vorbisComments,
  vorbisHeaders,
} from '../helpers/tag-writers.ts';

const tone = () => [Float32Array.from({ length: 400 }, (_, i) => Math.sin(i / 5) * 0.5)];
/** Four MPEG-1 Layer III frame headers with silent bodies: enough for the format to be sniffed as MP3. */
const mpegFrames = () =>
  concat(Array.from({ length: 4 }, () => concat([Uint8Array.of(0xff, 0xfb, 0x90, 0x64), new Uint8Array(413)])));

describe('tags: metadata read from inside audio files', () => {
  let folder: string;
  const file = async (name: string, bytes: Uint8Array) => {
    const where = path.join(folder, name);
    await writeFile(where, bytes);
    return where;
  };
  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-tags-'));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  test(
    'tags.id3: TIT2, the user comment, TCON and TXXX ' + 'keywords in ID3v2.3 and 2.4, in every text encoding',
    async () => {
      const v3 = id3Tag(
        [
          ['TIT2', textFrame('Glass Break', 0)],
          ['COMM', commentFrame('iTunes normalization data', 'iTunNORM', 0)],
          ['COMM', commentFrame('A pane shatters on tile', '', 1)],
          ['TCON', textFrame('(37)Foley', 0)],
          ['TXXX', userTextFrame('KEYWORDS', 'Glass, break; shatter', 2)],
          ['APIC', new Uint8Array(3000)],
        ],
        3,
      );
      const found = await readEmbeddedTags(await file('v3.mp3', concat([v3, mpegFrames()])));
      // "(37)" is ID3v1's genre 37, which music-metadata names: Sound Clip.
      assert.deepEqual(found, {
        found: [
          {
            source: 'id3',
            fields: {
              name: 'Glass Break',
              description: 'A pane shatters on tile',
              tags: ['glass', 'break', 'shatter', 'sound clip', 'foley'],
              category: 'SFX',
            },
          },
        ],
        notes: [],
      });

      const v4 = id3Tag(
        [
          ['TIT2', textFrame('Überflug', 3)],
          ['TCON', textFrame('Ambient', 1)],
          ['TXXX', userTextFrame('CatID', 'AMBForst', 3)],
        ],
        4,
      );
      const found4 = await readEmbeddedTags(await file('v4.mp3', concat([v4, mpegFrames()])));
      assert.deepEqual(found4.found[0]!.fields, {
        name: 'Überflug',
        tags: ['ambient', 'ambience', 'forest'],
        category: 'AMBIENT',
      });
    },
  );

  test('tags.vorbis: comments in FLAC metadata and in Ogg packets that span pages, names in any case', async () => {
    const comments = vorbisComments([
      'title=Forest Night',
      'DESCRIPTION=Crickets and a distant owl',
      'Genre=Ambient',
      'KEYWORDS=night, crickets',
      'KEYWORDS=owl',
      'COMMENT=not used: DESCRIPTION wins',
    ]);
    const flac = await readEmbeddedTags(await file('c.flac', flacMetadata(comments, [[1, new Uint8Array(100)]])));
    const expected = {
      name: 'Forest Night',
      description: 'Crickets and a distant owl',
      tags: ['night', 'crickets', 'owl', 'ambient'],
      category: 'AMBIENT',
    };
    assert.deepEqual(flac, { found: [{ source: 'vorbis', fields: expected }], notes: [] });

    const longComments = vorbisComments([
      'TITLE=Forest Night',
      'DESCRIPTION=Crickets and a distant owl',
      'GENRE=Ambient',
      'KEYWORDS=night, crickets, owl',
      `PADDING=${'x'.repeat(3000)}`,
    ]);
    const ogg = oggPages(vorbisHeaders(longComments), 4);
    const fromOgg = await readEmbeddedTags(await file('c.ogg', ogg));
    assert.deepEqual(fromOgg.found[0], { source: 'vorbis', fields: expected });
  });

  test('tags.wav: iXML after the audio, then bext, then LIST/INFO, each with its own fields', async () => {
    const wav = appendRiffChunk(
      writeWav({
        sampleRate: 8000,
        channels: tone(),
        chunksBeforeData: [
          ['bext', bextChunk('Door creaks open slowly')],
          [
            'LIST',
            infoList([
              ['INAM', 'Old Door'],
              ['ICMT', 'Recorded in a barn'],
              ['IKEY', 'door; creak; wood'],
              ['IGNR', 'Sound Effects'],
            ]),
          ],
        ],
      }),
      'iXML',
      ixmlDocument(
        { FXNAME: 'Creak Open', DESCRIPTION: 'Barn door &amp; hinge', KEYWORDS: 'door, hinge', CATID: 'DOORWood' },
        'take 3',
      ),
    );
    const { found, notes } = await readEmbeddedTags(await file('bwf.wav', wav));
    assert.deepEqual(notes, []);
    assert.deepEqual(found, [
      {
        source: 'ixml',
        fields: {
          name: 'Creak Open',
          description: 'Barn door & hinge',
          tags: ['door', 'hinge', 'doors', 'wood'],
          category: 'SFX',
        },
      },
      { source: 'bext', fields: { description: 'Door creaks open slowly' } },
      {
        source: 'info',
        fields: {
          name: 'Old Door',
          description: 'Recorded in a barn',
          tags: ['door', 'creak', 'wood', 'sound effects'],
          category: 'SFX',
        },
      },
    ]);
    const noteOnly = appendRiffChunk(
      writeWav({ sampleRate: 8000, channels: tone() }),
      'iXML',
      ixmlDocument({}, 'scene 4 take 2'),
    );
    assert.deepEqual((await readEmbeddedTags(await file('note.wav', noteOnly))).found, [
      { source: 'ixml', fields: { description: 'scene 4 take 2' } },
    ]);
  });

  test('tags.variants: ID3v2.2 and unsynchronised tags, fallbacks and aliases in every format', async () => {
    // ID3v2.2: three-letter frame ids and three-byte sizes.
    const v22Frame = (id: string, data: Uint8Array) => concat([ascii(id), Uint8Array.of(0, 0, data.length), data]);
    const v22Body = concat([
      v22Frame('TT2', textFrame('Old Tag', 0)),
      v22Frame('COM', commentFrame('From 2.2', '', 0)),
      v22Frame('TCO', textFrame('Lo-fi', 0)),
    ]);
    const v22 = concat([ascii('ID3'), Uint8Array.of(2, 0, 0, 0, 0, 0, v22Body.length), v22Body]);
    assert.deepEqual((await readEmbeddedTags(await file('v22.mp3', concat([v22, mpegFrames()])))).found[0]!.fields, {
      name: 'Old Tag',
      description: 'From 2.2',
      tags: ['lo-fi'],
      category: 'LOFI',
    });
    // A v2.3 tag unsynchronised as a whole: every 0xFF is followed by a 0x00 that is not data.
    const plain = id3Tag([['TIT2', textFrame('ÿÿ Sync', 0)]], 3, 0);
    const body = [...plain.subarray(10)].flatMap((byte) => (byte === 0xff ? [0xff, 0x00] : [byte]));
    const unsync = concat([ascii('ID3'), Uint8Array.of(3, 0, 0x80, 0, 0, 0, body.length), Uint8Array.from(body)]);
    assert.equal(
      (await readEmbeddedTags(await file('unsync.mp3', concat([unsync, mpegFrames()])))).found[0]!.fields.name,
      'ÿÿ Sync',
    );
    // Vorbis: COMMENT when there is no DESCRIPTION, TAGS as keywords.
    const vorbis = await readEmbeddedTags(
      await file(
        'alias.flac',
        flacMetadata(
          vorbisComments(['COMMENT=Just a comment', 'TAGS=one; two', 'CATEGORY=weather', 'SUBCATEGORY=THUNDER']),
        ),
      ),
    );
    assert.deepEqual(vorbis.found[0]!.fields, {
      description: 'Just a comment',
      tags: ['one', 'two', 'weather', 'thunder'],
      category: 'SFX',
    });
    // iXML: TRACKTITLE when there is no FXNAME, CDATA, UTF-16 with a byte order mark.
    const xml =
      '<BWFXML><USER><TRACKTITLE><![CDATA[Rain & Roof]]></TRACKTITLE><CATEGORY>AMBIENCE</CATEGORY></USER></BWFXML>';
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...xml].flatMap((ch) => [ch.charCodeAt(0), 0])]);
    const ixml = await readEmbeddedTags(
      await file('utf16.wav', appendRiffChunk(writeWav({ sampleRate: 8000, channels: tone() }), 'iXML', utf16)),
    );
    assert.deepEqual(ixml.found[0], {
      source: 'ixml',
      fields: { name: 'Rain & Roof', tags: ['ambience'], category: 'AMBIENT' },
    });
    // bext: a field recorder's codes are not a description, but its NOTE is.
    const recorder = (text: string) =>
      file(
        `rec-${text.length}.wav`,
        writeWav({ sampleRate: 8000, channels: tone(), chunksBeforeData: [['bext', bextChunk(text)]] }),
      );
    assert.deepEqual(
      (await readEmbeddedTags(await recorder('sSPEED=025.000-ND\r\nsTAKE=3\r\nsNOTE=door slams twice\r\n'))).found,
      [{ source: 'bext', fields: { description: 'door slams twice' } }],
    );
    assert.deepEqual((await readEmbeddedTags(await recorder('sSCENE=12\r\nsTAKE=3\r\n'))).found, []);
    // INFO: ISBJ when there is no ICMT.
    const info = await readEmbeddedTags(
      await file(
        'isbj.wav',
        writeWav({
          sampleRate: 8000,
          channels: tone(),
          chunksBeforeData: [['LIST', infoList([['ISBJ', 'The subject']])]],
        }),
      ),
    );
    assert.deepEqual(info.found, [{ source: 'info', fields: { description: 'The subject' } }]);
  });

  test('tags.genre: a genre gives a category only when it names one', () => {
    assert.deepEqual(
      [
        'Sound Effects',
        'sfx',
        'Foley',
        'Music',
        'MUSIC',
        'Ambience',
        'Soundscape',
        'Lo-Fi',
        'chillhop',
        'Rock',
        'Blues',
        '',
      ].map(categoryFromGenre),
      ['SFX', 'SFX', 'SFX', 'MUSIC', 'MUSIC', 'AMBIENT', 'AMBIENT', 'LOFI', 'LOFI', undefined, undefined, undefined],
    );
  });

  test('tags.aiff: NAME gives the name, every ANNO the description', async () => {
    const aiff = writeAiff({
      sampleRate: 8000,
      channels: tone(),
      chunksBeforeSound: [
        ['NAME', ascii('Wind Chimes')],
        ['ANNO', ascii('Porch, light breeze')],
        ['ANNO', ascii('Second take')],
      ],
    });
    assert.deepEqual(await readEmbeddedTags(await file('a.aiff', aiff)), {
      found: [{ source: 'aiff', fields: { name: 'Wind Chimes', description: 'Porch, light breeze\nSecond take' } }],
      notes: [],
    });
  });

  test('tags.ucs: file names that start with a UCS CatID give a category, tags and the FXName', () => {
    assert.equal(ucsCatIdCount(), 753);
    assert.deepEqual(ucsFromFileName('/x/DOORWood_Creak Open_ACME_Mic1.wav'), {
      name: 'Creak Open',
      tags: ['doors', 'wood'],
      category: 'SFX',
    });
    assert.deepEqual(ucsFromFileName('AMBForst-Night_Crickets Close_JD_Field.flac'), {
      name: 'Crickets Close',
      tags: ['ambience', 'forest'],
      category: 'AMBIENT',
    });
    assert.deepEqual(ucsFromFileName('MUSCPerc_Taiko Hit_AB_Drums.wav'), {
      name: 'Taiko Hit',
      tags: ['musical', 'percussion'],
      category: 'MUSIC',
    });
    assert.deepEqual(ucsFromFileName('GUNAntq_Pistol Muzzleloader-Shot 01 Composite_AKB00M_Historical Firearms.wav'), {
      name: 'Shot 01 Composite',
      tags: ['guns', 'antique', 'pistol muzzleloader'],
      category: 'SFX',
    });
    // The CatID is case-sensitive, must come first, and needs at least a second block.
    assert.equal(ucsFromFileName('doorwood_creak.wav'), null);
    assert.equal(ucsFromFileName('creak_DOORWood_x.wav'), null);
    assert.equal(ucsFromFileName('DOORWood.wav'), null);
    assert.equal(ucsFromFileName('glass_break-small.wav'), null);
  });

  test(
    'tags.precedence: sidecar > tags in the file > UCS file ' + 'name > the title made from the file name, key by key',
    async () => {
      const wav = appendRiffChunk(
        writeWav({
          sampleRate: 8000,
          channels: tone(),
          chunksBeforeData: [
            [
              'LIST',
              infoList([
                ['ICMT', 'from INFO'],
                ['IKEY', 'info-tag'],
              ]),
            ],
          ],
        }),
        'iXML',
        ixmlDocument({ DESCRIPTION: 'from iXML' }),
      );
      const where = await file('DOORWood_Creak Open_ACME_Mic1.wav', wav);
      await writeFile(where.replace(/\.wav$/, '.json'), JSON.stringify({ category: 'ambient', sample: true }));
      const resolved = await readMetadata(where);
      assert.deepEqual(resolved.metadata, {
        name: 'Creak Open',
        description: 'from iXML',
        tags: ['info-tag'],
        category: 'AMBIENT',
        license: 'CC0',
        sample: true,
      });
      assert.deepEqual(resolved.sources, {
        name: 'ucs',
        description: 'ixml',
        tags: 'info',
        category: 'sidecar',
        license: 'default',
        sample: 'sidecar',
      });

      // A key the sidecar sets, even to null, wins over the file.
      const nulled = await file(
        'nulled.wav',
        appendRiffChunk(
          writeWav({ sampleRate: 8000, channels: tone() }),
          'iXML',
          ixmlDocument({ FXNAME: 'Tagged', DESCRIPTION: 'from iXML' }),
        ),
      );
      await writeFile(nulled.replace(/\.wav$/, '.json'), JSON.stringify({ description: null, tags: [] }));
      const withNull = await readMetadata(nulled);
      assert.deepEqual(
        [withNull.metadata.name, withNull.metadata.description, withNull.metadata.tags],
        ['Tagged', null, []],
      );
      assert.deepEqual(
        [withNull.sources.name, withNull.sources.description, withNull.sources.tags],
        ['ixml', 'sidecar', 'sidecar'],
      );

      const plain = await readMetadata(
        await file('plain_tone-02.wav', writeWav({ sampleRate: 8000, channels: tone() })),
      );
      assert.deepEqual(plain.metadata, {
        name: 'Plain Tone 02',
        description: null,
        tags: [],
        category: null,
        license: 'CC0',
        sample: false,
      });
      assert.deepEqual(plain.sources, {
        name: 'file name',
        description: 'default',
        tags: 'default',
        category: 'default',
        license: 'default',
        sample: 'default',
      });
    },
  );

  test(
    'tags.ffmpeg: `ffmpeg -metadata comment=...` in an MP3 (an ID3 TXXX:comment frame) is the description',
    needsFfmpeg,
    async () => {
      const where = path.join(folder, 'ffmpeg-comment.mp3');
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=d=1',
        '-metadata',
        'title=T',
        '-metadata',
        'comment=C',
        where,
      ]);
      const resolved = await readMetadata(where);
      assert.deepEqual([resolved.metadata.name, resolved.metadata.description], ['T', 'C']);
      assert.deepEqual([resolved.sources.name, resolved.sources.description], ['id3', 'id3']);
      assert.deepEqual(resolved.notes, []);
    },
  );

  test(
    'tags.bounds: a tag that claims hundreds of megabytes ' + 'is refused before it is read; covers are skipped',
    async () => {
      // Sparse files: the claimed bytes exist, so only the 1 MiB bound keeps them from being read.
      const sparse = async (name: string, head: Uint8Array) => {
        const where = await file(name, head);
        await truncate(where, 300 << 20);
        return where;
      };
      const id3Header = concat([ascii('ID3'), Uint8Array.of(3, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f)]);
      const infoValue = concat([ascii('INFOINAM'), u32(250 << 20)]);
      const claims: Array<[string, Promise<string>, RegExp]> = [
        [
          'ID3 tag of 256 MiB',
          sparse('claims.mp3', concat([id3Header, textFrame('x')])),
          /MP3 tags ignored: a tag of \d+ bytes is larger than 1 MiB/,
        ],
        [
          'INFO value of 250 MiB',
          sparse('claims.wav', appendRiffChunk(writeWav({ sampleRate: 8000, channels: tone() }), 'LIST', infoValue)),
          /WAV tags ignored: a tag of \d+ bytes is larger than 1 MiB/,
        ],
      ];
      const before = process.memoryUsage().arrayBuffers;
      for (const [what, where, note] of claims) {
        const { found, notes } = await readEmbeddedTags(await where);
        assert.deepEqual(found, [], what);
        assert.ok(
          notes.some((text) => note.test(text)),
          `${what}: ${JSON.stringify(notes)}`,
        );
      }
      assert.ok(process.memoryUsage().arrayBuffers - before < 64 << 20, 'no large buffer was allocated');

      // A FLAC picture of 3 MiB before the comments is skipped, not read; the comments still count.
      const withPicture = await readEmbeddedTags(
        await file(
          'picture.flac',
          flacMetadata(vorbisComments(['TITLE=After The Picture']), [[6, new Uint8Array(3 << 20)]]),
        ),
      );
      assert.deepEqual(withPicture, {
        found: [{ source: 'vorbis', fields: { name: 'After The Picture' } }],
        notes: [],
      });
    },
  );

  test('tags.hostile: damaged and oversized tags are notes; the reader never throws and stays fast', async () => {
    const wavWith = (id: string, body: Uint8Array) =>
      appendRiffChunk(writeWav({ sampleRate: 8000, channels: tone() }), id, body);
    const cases: Array<[string, Uint8Array, RegExp]> = [
      [
        'frame-too-long.mp3',
        concat([id3Tag([['TIT2', textFrame('x'), 200_000_000]]), mpegFrames()]),
        /ID3 tag damaged: Illegal ID3v2 tag length/,
      ],
      [
        'tag-too-long.mp3',
        concat([id3Tag([['TIT2', textFrame('Kept')]]).map((b, i) => (i >= 6 && i < 10 ? 0x7f : b)), mpegFrames()]),
        /MP3 tags ignored: a tag of 268435465 bytes is larger than 1 MiB/,
      ],
      [
        'bad-frame-id.mp3',
        concat([
          id3Tag([
            ['TIT2', textFrame('Kept')],
            ['T\u0001!X', textFrame('junk')],
          ]),
          mpegFrames(),
        ]),
        /ID3 tag damaged: Invalid ID3v2.3 frame-header-ID: T\?!X/,
      ],
      [
        'many-comments.flac',
        flacMetadata(concat([vorbisComments([]).subarray(0, 8), Uint8Array.of(0xff, 0xff, 0xff, 0xff)])),
        /FLAC tags ignored/,
      ],
      [
        'huge-ixml.wav',
        wavWith('iXML', new Uint8Array(2 << 20).fill(0x20)),
        /iXML chunk ignored: iXML chunk of \d+ bytes is larger than 1 MiB/,
      ],
      [
        'not-ixml.wav',
        wavWith('iXML', ascii('<html>no</html>')),
        /iXML chunk ignored: iXML chunk holds no BWFXML document/,
      ],
      [
        'bad-info.wav',
        wavWith('LIST', concat([ascii('INFOINAM'), Uint8Array.of(0xff, 0xff, 0, 0), ascii('short')])),
        /WAV tags ignored: one runs past the end of the file/,
      ],
      // Each Ogg page is small; the comment packet they carry together is what is too large.
      [
        'huge-ogg.ogg',
        oggPages(vorbisHeaders(vorbisComments([`PADDING=${'x'.repeat(3 << 20)}`]))),
        /OGG tags ignored: tags take more than 2 MiB/,
      ],
      [
        'huge-cover.mp3',
        concat([
          id3Tag([
            ['TIT2', textFrame('Covered')],
            ['APIC', new Uint8Array(3 << 20)],
          ]),
          mpegFrames(),
        ]),
        /MP3 tags ignored: a tag of \d+ bytes is larger than 1 MiB/,
      ],
    ];
    for (const [name, bytes, note] of cases) {
      const resolved = await readMetadata(await file(name, bytes));
      assert.ok(
        resolved.notes.some((text) => note.test(text)),
        `${name}: ${JSON.stringify(resolved.notes)}`,
      );
    }
    // What came before a damaged frame is kept.
    assert.equal((await readMetadata(path.join(folder, 'bad-frame-id.mp3'))).metadata.name, 'Kept');
    // A comment whose length runs past its block: music-metadata reads what is there, which names no field.
    const shortComment = await readMetadata(
      await file(
        'short-comment.flac',
        flacMetadata(concat([vorbisComments(['TITLE=x']).subarray(0, 16), Uint8Array.of(0xff, 0xff, 0, 0)])),
      ),
    );
    assert.deepEqual(
      [shortComment.metadata.name, shortComment.sources.name, shortComment.metadata.tags],
      ['Short Comment', 'file name', []],
    );

    // Text that would make a careless parser quadratic, and a file of 20,000 empty chunks.
    const started = performance.now();
    const trap = ascii(`<BWFXML>${'<USER><FXNAME><![CDATA['.repeat(40_000)}`);
    assert.deepEqual((await readEmbeddedTags(await file('trap.wav', wavWith('iXML', trap)))).found, []);
    const manyChunks = concat([
      writeWav({ sampleRate: 8000, channels: tone() }),
      ...Array.from({ length: 20_000 }, () => concat([ascii('JUNK'), new Uint8Array(4)])),
    ]);
    assert.deepEqual((await readEmbeddedTags(await file('chunks.wav', manyChunks))).found, []);
    // A quadratic reader takes minutes here; a linear one well under a second, so 30 s tells them apart even on a
    // loaded machine.
    assert.ok(performance.now() - started < 30_000, `took ${performance.now() - started} ms`);
  });

  test('tags.fuzz: mutated tagged files of every format are read or reported, never a crash', async () => {
    const sources: Record<string, Uint8Array> = {
      'f.mp3': concat([
        id3Tag(
          [
            ['TIT2', textFrame('T')],
            ['COMM', commentFrame('c', '', 1)],
            ['TXXX', userTextFrame('KEYWORDS', 'a, b')],
          ],
          4,
        ),
        mpegFrames(),
      ]),
      'f.flac': flacMetadata(vorbisComments(['TITLE=t', 'KEYWORDS=a'])),
      'f.ogg': oggPages(vorbisHeaders(vorbisComments(['TITLE=t'])), 2),
      'f.wav': appendRiffChunk(
        writeWav({
          sampleRate: 8000,
          channels: tone(),
          chunksBeforeData: [
            ['bext', bextChunk('d')],
            ['LIST', infoList([['INAM', 'n']])],
          ],
        }),
        'iXML',
        ixmlDocument({ FXNAME: 'x' }),
      ),
      'f.aiff': writeAiff({
        sampleRate: 8000,
        channels: tone(),
        chunksBeforeSound: [
          ['NAME', ascii('n')],
          ['ANNO', ascii('a')],
        ],
      }),
    };
    let state = 99;
    const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (const [name, bytes] of Object.entries(sources)) {
      const tagEnd = Math.min(bytes.length, 1200);
      for (let round = 0; round < 60; round++) {
        const copy = bytes.slice(0, next() < 0.3 ? Math.floor(next() * bytes.length) + 1 : bytes.length);
        for (let flips = 1 + Math.floor(next() * 12); flips > 0; flips--)
          copy[Math.floor(next() * Math.min(tagEnd, copy.length))] = Math.floor(next() * 256);
        const where = await file(`fuzz-${round}-${name}`, copy);
        const resolved = await readMetadata(where);
        assert.ok(
          typeof resolved.metadata.name === 'string' &&
            resolved.metadata.name.length > 0 &&
            resolved.metadata.name.length <= 200,
          `${name} round ${round}`,
        );
        assert.ok(resolved.metadata.tags.every((tag) => tag.length > 0 && tag.length <= 100));
      }
    }
  });
});
