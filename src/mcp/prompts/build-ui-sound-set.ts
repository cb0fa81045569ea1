import { z } from 'zod';
import { definePrompt } from './prompt.ts';

/** The sounds an interface usually needs, each with words that find it in the catalog. */
const UI_EVENTS = [
  ['click or tap', 'click'],
  ['toggle or tap', 'tap'],
  ['notification', 'notification'],
  ['success or confirmation', 'success'],
  ['error or denied', 'error'],
  ['open or swoosh', 'whoosh'],
] as const;

export const buildUiSoundSetPrompt = definePrompt({
  name: 'build_ui_sound_set',
  title: 'Build a UI sound set',
  description:
    'Walks the agent through assembling a coherent set of short interface sounds (click, notification, success, ' +
    'error...) in one style.',
  argsSchema: {
    style: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('The style of the set, e.g. "soft and glassy", "retro 8-bit", "minimal".'),
  },
  text({ style }) {
    return [
      `Build a set of user-interface sounds in this style: "${style}". The set must sound like one family.`,
      '',
      `The set: ${UI_EVENTS.map(([event]) => event).join(', ')}.`,
      '',
      'Work in these steps:',
      '1. For each sound of the set, call search_sounds with short, tight sounds only: ' +
        '{ "q": "<word>", "category": "SFX", "max_duration": 1.5, "max_onset_ms": 10, "sort": "relevance" }, ' +
        `where <word> is one of ${UI_EVENTS.map(([, word]) => `"${word}"`).join(', ')} ` +
        '(add a word of the style when it helps, e.g. "retro"). ' +
        'Also try { "tags": ["ui"], "category": "SFX", "max_duration": 1.5, "facets": ["tags"] } ' +
        'to see which tags the interface sounds carry.',
      '2. Pick the candidate that best fits the style for one sound of the set (the click is a good anchor) and ' +
        'call preview_sound on it to hear it.',
      '3. Call find_similar_sounds on that anchor: sounds that sound alike make a coherent set. ' +
        'Prefer them for the other sounds of the set when they fit the event, ' +
        'and preview_sound each pick before keeping it.',
      '4. Present the set as a table: event, name, id, duration, and one line on why it fits.',
      '5. When the user agrees, call get_download_url for each sound with "trim": true and "loudness": -16, ' +
        'so the whole set plays at one level with no silence before the sound, ' +
        'and give the user the links (valid for one hour; each call counts a download).',
      '',
      'Every tool call and resource read counts against the daily quota, so preview only real candidates.',
    ].join('\n');
  },
});
