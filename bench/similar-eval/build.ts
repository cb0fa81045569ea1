/**
 * Builds the labelled recordings for bench/similar-eval/run.ts into a folder (default
 * /tmp/similar-eval): one mono 44.1 kHz 16-bit WAV per sound under a neutral name (s00001.wav,
 * ...), and labels.tsv with each file's source, family, origin (what it was rendered or
 * converted from, for checking a label by hand) and layer: `loudest` for the one recording of
 * each instrument or key that is evaluated (a font's key at its loudest velocity, a Hydrogen
 * instrument's loudest layer), `softer` for a font's other velocities, used only for fitting.
 *
 * Families are named as drummers name them: kick, snare, rim (side stick, rim click), hi-hat,
 * tom, crash (crash, and the splash and china, struck for the same wash), ride (ride and its
 * bell), clap; and the pitched families. A cymbal named both crash and ride, or only "cymbal",
 * is left out.
 *
 * Sources, each recorded or made independently of the others (docs/similar-sounds.md):
 * - General MIDI soundfonts from Debian, rendered note by note with fluidsynth: the drum kit
 *   (channel 10) at eight velocities, and pitched families from GM programs at several pitches
 *   and two velocities; the two AVL drum kits are drums only.
 * - Sonic Pi's samples (Debian's sonic-pi-samples), families from their file names.
 * - Hydrogen's drum kits (Debian's hydrogen-drumkits), families from each kit's instrument names.
 * A source missing from this machine is left out and said so.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RATE = 44_100;
const out = process.argv[2] ?? '/tmp/similar-eval';

const SOUNDFONTS: Array<{ source: string; file: string; drumsOnly?: boolean }> = [
  { source: 'fluid-r3', file: '/usr/share/sounds/sf2/FluidR3_GM.sf2' },
  { source: 'musescore', file: '/usr/share/sounds/sf3/MuseScore_General_Full.sf3' },
  { source: 'timgm6mb', file: '/usr/share/sounds/sf2/TimGM6mb.sf2' },
  { source: 'avl-black-pearl', file: '/usr/share/sounds/sf2/Black_Pearl_4_LV2.sf2', drumsOnly: true },
  { source: 'avl-red-zeppelin', file: '/usr/share/sounds/sf2/Red_Zeppelin_4_LV2.sf2', drumsOnly: true },
];

/** General MIDI percussion keys of each drum family. */
const DRUM_KEYS: Record<string, number[]> = {
  kick: [35, 36],
  snare: [38, 40],
  rim: [37],
  'hi-hat': [42, 44, 46],
  tom: [41, 43, 45, 47, 48, 50],
  // Crash 1 and 2, Chinese cymbal, splash.
  crash: [49, 57, 52, 55],
  // Ride 1 and 2, ride bell.
  ride: [51, 59, 53],
  clap: [39],
};
const DRUM_VELOCITIES = [30, 45, 60, 75, 90, 105, 120, 127];

/** General MIDI programs (0-based) and the pitches played of each pitched family. */
const PITCHED: Record<string, { programs: number[]; keys: number[] }> = {
  piano: { programs: [0, 1, 2], keys: [48, 55, 62, 69, 76, 83] },
  bass: { programs: [32, 33, 34, 35], keys: [28, 33, 38, 43, 48] },
  strings: { programs: [40, 41, 42, 48], keys: [48, 54, 60, 66, 72] },
  guitar: { programs: [24, 25, 26, 27], keys: [40, 49, 58, 67, 76] },
  brass: { programs: [56, 57, 61], keys: [48, 54, 60, 66, 72] },
  organ: { programs: [16, 17, 19], keys: [48, 55, 62, 69, 76] },
};
const PITCHED_VELOCITIES = [60, 110];
const LOUDEST_DRUM = Math.max(...DRUM_VELOCITIES);
const LOUDEST_PITCHED = Math.max(...PITCHED_VELOCITIES);

/** Seconds between notes in a render, and how long a pitched note is held (a drum's 0.2 s). */
const SLOT = 2.5;
const HOLD = 1.2;

/** Sonic Pi sample names to families; names matching none are left out. */
const SONIC_PI: Array<[RegExp, string]> = [
  [/^(bd_|drum_heavy_kick|drum_bass_|elec_hollow_kick|elec_soft_kick)/, 'kick'],
  [/^(sn_|drum_snare_|elec_(filt_|hi_|lo_|mid_)?snare)/, 'snare'],
  [/^drum_cymbal_(closed|open|pedal)/, 'hi-hat'],
  [/^(drum_cymbal_(hard|soft)|drum_splash_|elec_cymbal)/, 'crash'],
  [/^(drum_tom_|elec_fuzz_tom)/, 'tom'],
  [/^perc_snap/, 'clap'],
];

/** Hydrogen instrument names to families, first match wins; names matching none are left out. */
const HYDROGEN: Array<[RegExp, string | null]> = [
  [/clap/i, 'clap'],
  [/(hi-?hat|\bhh\b|hat)/i, 'hi-hat'],
  [/(kick|bass ?drum|\bbd\b)/i, 'kick'],
  // A snare's rimshot is a snare played hard; a side stick or rim click is the rim.
  [/(snare|\bsd\b)/i, 'snare'],
  [/(rim|stick)/i, 'rim'],
  [/\btom/i, 'tom'],
  [/crash.*ride|ride.*crash/i, null],
  [/(crash|splash|china)/i, 'crash'],
  [/(ride|cup|^paiste bell$)/i, 'ride'],
];

interface Row {
  file: string;
  source: string;
  family: string;
  origin: string;
  layer: 'loudest' | 'softer';
}
const rows: Row[] = [];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const scratch = path.join(out, 'scratch');
mkdirSync(scratch);

for (const font of SOUNDFONTS) {
  if (!existsSync(font.file)) {
    console.log(`left out ${font.source}: ${font.file} is not installed`);
    continue;
  }
  const notes: Array<{
    family: string;
    channel: number;
    program: number;
    key: number;
    velocity: number;
    hold: number;
    origin: string;
    loudest: boolean;
  }> = [];
  for (const [family, keys] of Object.entries(DRUM_KEYS)) {
    // A drums-only font keeps its kit as an ordinary preset (bank 0), played on the first channel.
    const channel = font.drumsOnly ? 0 : 9;
    for (const key of keys)
      for (const velocity of DRUM_VELOCITIES)
        notes.push({
          family,
          channel,
          program: 0,
          key,
          velocity,
          hold: 0.2,
          origin: `drum key ${key} velocity ${velocity}`,
          loudest: velocity === LOUDEST_DRUM,
        });
  }
  if (!font.drumsOnly) {
    for (const [family, { programs, keys }] of Object.entries(PITCHED)) {
      for (const program of programs)
        for (const key of keys)
          for (const velocity of PITCHED_VELOCITIES) {
            notes.push({
              family,
              channel: 0,
              program,
              key,
              velocity,
              hold: HOLD,
              origin: `program ${program} key ${key} velocity ${velocity}`,
              loudest: velocity === LOUDEST_PITCHED,
            });
          }
    }
  }
  const samples = render(font.file, notes, path.join(scratch, font.source));
  notes.forEach((note, n) => {
    const slice = samples.subarray(Math.round(n * SLOT * RATE), Math.round((n + 1) * SLOT * RATE));
    add(slice, font.source, note.family, note.origin, note.loudest);
  });
  console.log(`${font.source}: ${notes.length} notes`);
}

const sonicPi = '/usr/share/sonic-pi/samples';
if (existsSync(sonicPi)) {
  let count = 0;
  for (const file of readdirSync(sonicPi).sort()) {
    const name = file.replace(/\.\w+$/, '');
    const family = SONIC_PI.find(([pattern]) => pattern.test(name))?.[1];
    if (!family) continue;
    // drum_snare_soft and drum_snare_hard are one drum at two strengths: the hard one is evaluated.
    const softer = name.endsWith('_soft') && existsSync(path.join(sonicPi, file.replace('_soft.', '_hard.')));
    add(decode(path.join(sonicPi, file)), 'sonic-pi', family, file, !softer);
    count++;
  }
  console.log(`sonic-pi: ${count} samples`);
} else console.log(`left out sonic-pi: ${sonicPi} is not installed`);

const hydrogen = '/usr/share/hydrogen/data/drumkits';
if (existsSync(hydrogen)) {
  for (const kit of readdirSync(hydrogen).sort()) {
    const xmlPath = path.join(hydrogen, kit, 'drumkit.xml');
    if (!existsSync(xmlPath)) continue;
    const xml = readFileSync(xmlPath, 'utf8');
    let count = 0;
    // Some kits play one sample under several instruments: it is one recording.
    const taken = new Set<string>();
    for (const instrument of xml.split('<instrument>').slice(1)) {
      const name = /<name>([^<]*)<\/name>/.exec(instrument)?.[1] ?? '';
      const family = HYDROGEN.find(([pattern]) => pattern.test(name))?.[1];
      const sample = loudestLayer(instrument);
      if (!family || !sample || taken.has(sample) || !existsSync(path.join(hydrogen, kit, sample))) continue;
      taken.add(sample);
      add(
        decode(path.join(hydrogen, kit, sample)),
        `hydrogen-${kit.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
        family,
        `${kit}/${name}/${sample}`,
        true,
      );
      count++;
    }
    console.log(`hydrogen ${kit}: ${count} instruments`);
  }
} else console.log(`left out hydrogen: ${hydrogen} is not installed`);

rmSync(scratch, { recursive: true, force: true });
const labels = [
  'file\tsource\tfamily\torigin\tlayer',
  ...rows.map((row) => `${row.file}\t${row.source}\t${row.family}\t${row.origin}\t${row.layer}`),
].join('\n');
writeFileSync(path.join(out, 'labels.tsv'), `${labels}\n`);
console.log(`${rows.length} sounds in ${out}`);

/**
 * The sample of an instrument's loudest layer (the one reaching the highest velocity), or of the
 * older single filename.
 */
function loudestLayer(instrument: string): string | undefined {
  const layers = instrument
    .split('<layer>')
    .slice(1)
    .map((layer) => ({
      file: /<filename>([^<]*)<\/filename>/.exec(layer)?.[1],
      max: Number(/<max>([^<]*)<\/max>/.exec(layer)?.[1] ?? 1),
    }))
    .filter((layer) => layer.file);
  if (layers.length === 0) return /<filename>([^<]*)<\/filename>/.exec(instrument)?.[1];
  return layers.reduce((loudest, layer) => (layer.max > loudest.max ? layer : loudest)).file;
}

function add(samples: Float32Array, source: string, family: string, origin: string, loudest: boolean): void {
  // Silence after the sound is cut (a render's slot, a sample's padding): below -70 dBFS.
  let end = samples.length;
  while (end > 0 && Math.abs(samples[end - 1]!) < 3e-4) end--;
  if (end < RATE * 0.01) return;
  const file = `s${String(rows.length + 1).padStart(5, '0')}.wav`;
  writeFileSync(path.join(out, file), wav(samples.subarray(0, end)));
  rows.push({ file, source, family, origin, layer: loudest ? 'loudest' : 'softer' });
}

/** Any audio file as mono 44.1 kHz samples, through ffmpeg. */
function decode(file: string): Float32Array {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'], {
    maxBuffer: 1 << 30,
  });
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4).slice();
}

/** Renders the notes one per SLOT seconds with fluidsynth (no reverb or chorus) and decodes them. */
function render(
  font: string,
  notes: Array<{ channel: number; program: number; key: number; velocity: number; hold: number }>,
  base: string,
): Float32Array {
  // 480 ticks a quarter at 120 beats a minute: 960 ticks a second.
  const tick = (seconds: number) => Math.round(seconds * 960);
  const events: Array<{ at: number; bytes: number[] }> = [];
  notes.forEach((note, n) => {
    const start = n * SLOT;
    events.push({ at: tick(start), bytes: [0xc0 | note.channel, note.program] });
    events.push({ at: tick(start) + 1, bytes: [0x90 | note.channel, note.key, note.velocity] });
    events.push({ at: tick(start + note.hold), bytes: [0x80 | note.channel, note.key, 0] });
  });
  events.push({ at: tick(notes.length * SLOT + 1), bytes: [0xff, 0x2f, 0x00] });
  const track: number[] = [];
  let time = 0;
  for (const event of events) {
    track.push(...variableLength(event.at - time), ...event.bytes);
    time = event.at;
  }
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xe0];
  const midi = Buffer.from([...header, 0x4d, 0x54, 0x72, 0x6b, ...u32(track.length), ...track]);
  writeFileSync(`${base}.mid`, midi);
  execFileSync(
    'fluidsynth',
    ['-ni', '-q', '-R', '0', '-C', '0', '-g', '0.6', '-r', String(RATE), '-F', `${base}.wav`, font, `${base}.mid`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return decode(`${base}.wav`);
}

function variableLength(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let rest = value >> 7; rest > 0; rest >>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return bytes;
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function wav(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((x, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, x)) * 32767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
