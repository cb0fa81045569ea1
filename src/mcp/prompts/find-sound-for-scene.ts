import { z } from 'zod';
import { SEARCH_BOUNDS } from '../../catalog/limits.ts';
import { PREVIEW_SECONDS } from '../tools/preview-sound.ts';
import { definePrompt } from './prompt.ts';

export const findSoundForScenePrompt = definePrompt({
  name: 'find_sound_for_scene',
  title: 'Find a sound for a scene',
  description:
    'Walks the agent through finding, hearing and downloading the catalog sounds that fit a scene and a mood.',
  argsSchema: {
    scene: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('What happens in the scene, e.g. "a door slams in an empty hallway at night".'),
    mood: z.string().trim().min(1).max(200).optional().describe('The feeling wanted, e.g. "tense", "cozy", "playful".'),
    max_duration: z.coerce
      .number()
      .positive()
      .max(SEARCH_BOUNDS.maxSeconds)
      .optional()
      .describe('The longest a sound may last, in seconds, e.g. "3".'),
  },
  text({ scene, mood, max_duration: maxDuration }) {
    const duration = maxDuration === undefined ? '' : `, "max_duration": ${maxDuration}`;
    const lines = [
      `Find sounds from the Sound Catalog for this scene: "${scene}".`,
      mood
        ? `The mood wanted: ${mood}.`
        : 'No mood was given: pick what suits the scene, and say which mood you assumed.',
    ];
    if (maxDuration !== undefined) lines.push(`No sound may last longer than ${maxDuration} s.`);
    lines.push(
      '',
      'Work in these steps:',
      '1. Call search_sounds with two or three short keywords for what is heard (not the whole sentence), ' +
        `e.g. { "q": "door slam"${duration}, "sort": "relevance", "facets": ["category", "tags"] }. ` +
        'Add "category" when the kind is clear: SFX for actions and objects, AMBIENT for places and weather, ' +
        'MUSIC or LOFI for score. ' +
        'If nothing matches, use fewer or other words; the facets show which tags narrow a large result.',
      '2. Call preview_sound on the three most promising ids to hear them ' +
        `(each preview is at most ${PREVIEW_SECONDS} s, all at the same loudness). ` +
        'Judge them against the scene and the mood; ' +
        'read timing.onset_ms and timing.tail_ms to see how each starts and ends.',
      '3. Call find_similar_sounds on the best one to find alternatives that sound alike, ' +
        'and preview the closest of those too.',
      '4. Present your choice and one or two alternatives: name, id, duration, and one sentence on why each fits.',
      '5. When the user agrees, call get_download_url for each chosen sound (each call counts a download), ' +
        'with "trim": true to cut silence and "loudness": -16 so the sounds sit at the same level, ' +
        'and give the user the links (valid for one hour).',
      '',
      'Every tool call and resource read counts against the daily quota, ' +
        'so search narrowly and preview only real candidates.',
    );
    return lines.join('\n');
  },
});
