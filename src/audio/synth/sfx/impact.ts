import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
import { addReverb } from '../dsp/reverb.ts';
import { cleanTags, formatHz, formatHzFine, formatMs, formatSeconds, joinWords, lengthTags } from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Thuds and punches: a falling low sine for the body plus a short noise burst for the contact. */
const KINDS = {
  thud: {
    bodyHz: [55, 110],
    bodySeconds: [0.25, 0.7],
    contactHz: [300, 900],
    contactLevel: 0.35,
    contactSeconds: [0.03, 0.08],
  },
  punch: {
    bodyHz: [110, 190],
    bodySeconds: [0.15, 0.35],
    contactHz: [1200, 3500],
    contactLevel: 0.8,
    contactSeconds: [0.02, 0.05],
  },
} as const;

export function generateImpact({ rng, sampleRate }: SynthContext): SoundDraft {
  const kindName = rng.pick(['thud', 'punch'] as const);
  const kind = KINDS[kindName];
  const bodyHz = rng.range(kind.bodyHz[0], kind.bodyHz[1]);
  const bodySeconds = rng.range(kind.bodySeconds[0], kind.bodySeconds[1]);
  const contactSeconds = rng.range(kind.contactSeconds[0], kind.contactSeconds[1]);
  const contactHz = rng.range(kind.contactHz[0], kind.contactHz[1]);
  const heavy = bodyHz < (kind.bodyHz[0] + kind.bodyHz[1]) / 2;
  const roomy = rng.chance(0.3);
  const length = samplesFor(bodySeconds + (roomy ? 0.6 : 0), sampleRate);

  const body = renderTone(samplesFor(bodySeconds, sampleRate), sampleRate, {
    waveform: 'sine',
    startHz: bodyHz * 2,
    endHz: bodyHz,
    glideSeconds: 0.06,
  });
  applyPercussive(body, sampleRate, 0.002, bodySeconds);
  const contact = whiteNoise(samplesFor(contactSeconds, sampleRate), rng);
  stateVariableFilter(contact, sampleRate, kindName === 'thud' ? 'lowpass' : 'bandpass', 0.9, contactHz);
  applyPercussive(contact, sampleRate, 0.0005, contactSeconds);
  const out = new Float32Array(length);
  mixInto(out, body, 0);
  mixInto(out, contact, 0, kind.contactLevel * 2);
  let channels = [out];
  if (roomy) {
    const left = Float32Array.from(out);
    const right = Float32Array.from(out);
    addReverb(left, right, out, sampleRate, { decaySeconds: 0.5, damping: 0.5, size: 0.6 }, 0.5);
    channels = [left, right];
  }
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-3, -1),
    fadeInSeconds: 0.0005,
    leadingSilenceSeconds: rng.range(0, 0.05),
  });
  return describe(audio, { kind: kindName, heavy, roomy, bodyHz, bodySeconds, contactHz });
}

interface ImpactFacts {
  kind: 'thud' | 'punch';
  heavy: boolean;
  roomy: boolean;
  bodyHz: number;
  bodySeconds: number;
  contactHz: number;
}

function describe(audio: SoundDraft['audio'], facts: ImpactFacts): SoundDraft {
  const { kind, heavy, roomy, bodyHz, bodySeconds, contactHz } = facts;
  const weight = heavy ? 'heavy' : 'light';
  const room = roomy ? ' in a small room' : '';
  const description =
    kind === 'thud'
      ? `A ${weight} dull thud with a low body around ${formatHz(bodyHz)} that dies away in ` +
        `${formatSeconds(bodySeconds)}${room}.`
      : `A ${weight} punchy hit with a sharp smack and a ${formatHz(bodyHz)} body${room}.`;
  const words =
    kind === 'thud' ? ['thud', 'thump', 'drop', 'low', 'dull', 'fall'] : ['punch', 'hit', 'smack', 'fight', 'whack'];
  return {
    title: kind === 'thud' ? 'Thud' : 'Punch Hit',
    details: [
      joinWords(heavy ? 'Heavy' : 'Light', roomy ? 'Roomy' : 'Dry'),
      `${formatHzFine(bodyHz)} Body`,
      `${formatMs(bodySeconds)} Decay`,
    ],
    refinements: [`${formatHzFine(contactHz)} Contact`],
    description,
    tags: cleanTags([
      'impact',
      ...words,
      weight,
      roomy ? 'room' : 'dry',
      roomy && 'reverb',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
