/**
 * How fast ingest reads the tags inside audio files (src/ingest/tags: music-metadata, plus our
 * readers of iXML and bext), per format, on files as tag editors and recorders leave them:
 *   node --import tsx bench/tags.ts [FILES]   (default 300, spread over five formats)
 * MP3 (ID3v2.4 with a title, a comment, a genre and keywords), FLAC and Ogg Vorbis (Vorbis comments)
 * are made by ffmpeg from a 10-second stereo tone; WAV carries LIST/INFO, bext and iXML; AIFF NAME
 * and ANNO. Each format's file is copied under many names and read again and again; the files sit
 * in the page cache, so the figure is the reading's CPU, not the disk's. Prints the median of
 * several rounds per format: wall-clock milliseconds per file, files per second, and this process's
 * CPU milliseconds per file (steadier than the wall clock on a shared machine).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEmbeddedTags } from '../src/ingest/tags/read-tags.ts';
import { writeAiff } from '../test/audio/helpers/aiff.ts';
import { ascii } from '../test/audio/helpers/wav.ts';
import { appendRiffChunk, bextChunk, ixmlDocument } from '../test/ingest/helpers/tag-writers.ts';

const FILES = Number(process.argv[2] ?? 300);
const ROUNDS = 7;
const SECONDS = 10;
const METADATA = [
  'title=Glass Break Small',
  'comment=A small window pane shatters on a tiled floor',
  'genre=Sound Effects',
  'keywords=glass, break, impact, shatter',
];

/** One file per format, with the tags each format's tools write. */
function sources(folder: string): Record<string, Uint8Array> {
  const tone = path.join(folder, 'tone.wav');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:d=${SECONDS}`,
    '-ac',
    '2',
    '-ar',
    '48000',
    tone,
  ]);
  const byFfmpeg = (extension: string, codec: string[]) => {
    const file = path.join(folder, `tagged.${extension}`);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      tone,
      ...codec,
      ...METADATA.flatMap((field) => ['-metadata', field]),
      file,
    ]);
    return new Uint8Array(readFileSync(file));
  };
  const wavWithInfo = byFfmpeg('wav', []); // ffmpeg writes the metadata as LIST/INFO
  const ixml = ixmlDocument(
    {
      FXNAME: 'Glass Break Small',
      DESCRIPTION: 'A small window pane shatters',
      KEYWORDS: 'glass, break',
      CATID: 'GLASBrk',
    },
    'sTAKE=3',
  );
  const frames = 48_000 * SECONDS;
  const channels = [new Float32Array(frames), new Float32Array(frames)].map((channel) =>
    channel.map((_, i) => 0.3 * Math.sin(i / 20)),
  );
  return {
    mp3: byFfmpeg('mp3', ['-c:a', 'libmp3lame', '-q:a', '2', '-id3v2_version', '4']),
    flac: byFfmpeg('flac', ['-c:a', 'flac']),
    ogg: byFfmpeg('ogg', ['-c:a', 'libvorbis']),
    wav: appendRiffChunk(appendRiffChunk(wavWithInfo, 'bext', bextChunk('A small window pane shatters')), 'iXML', ixml),
    aiff: writeAiff({
      sampleRate: 48_000,
      channels,
      chunksBeforeSound: [
        ['NAME', ascii('Glass Break Small')],
        ['ANNO', ascii('A small window pane shatters')],
      ],
    }),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const folder = mkdtempSync(path.join(tmpdir(), 'bench-tags-'));
try {
  const made = sources(folder);
  const perFormat = Math.max(1, Math.round(FILES / Object.keys(made).length));
  console.log(
    `bench/tags.ts: ${perFormat * Object.keys(made).length} files ` +
      `(${perFormat} per format), ${ROUNDS} rounds, median per format`,
  );
  console.log(
    '| format | file | sources read | ms per file | files per second | CPU ms per file |\n|---|---|---|---|---|---|',
  );
  for (const [format, bytes] of Object.entries(made)) {
    const files = Array.from({ length: perFormat }, (_, i) => path.join(folder, `${format}-${i}.${format}`));
    for (const file of files) writeFileSync(file, bytes);
    const first = await readEmbeddedTags(files[0]!);
    if (first.found.length === 0 || first.notes.length > 0)
      throw new Error(`${format}: no tags read (${first.notes.join('; ')})`);
    const rounds: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = process.hrtime.bigint();
      const startCpu = process.cpuUsage();
      for (const file of files) await readEmbeddedTags(file);
      const usedCpu = process.cpuUsage(startCpu);
      rounds.push(Number(process.hrtime.bigint() - start) / 1e6 / files.length);
      cpu.push((usedCpu.user + usedCpu.system) / 1000 / files.length);
    }
    const ms = median(rounds);
    const kib = Math.round(bytes.length / 1024);
    console.log(
      `| ${format} | ${kib} KiB | ${first.found.map((found) => found.source).join(', ')} ` +
        `| ${ms.toFixed(2)} | ${Math.round(1000 / ms)} | ${median(cpu).toFixed(2)} |`,
    );
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
