/**
 * What the measured fields of a sound mean, in words an agent can act on. Tool descriptions
 * carry this so a model can pick, trim and level sounds without reading the API document.
 */
export const SOUND_FIELD_GUIDE = [
  'timing.onset_ms: silence before the sound (trim it); tail_ms: decayed 40 dB (cut there).',
  'To match levels, gain = target LUFS (-16 games, -23 broadcast) - integrated_lufs, at most -1 - true_peak_db.',
].join(' ');

/** The header every tool call needs and what each call costs, for the server's instructions. */
export const SERVER_INSTRUCTIONS = [
  'Sound Catalog: CC0 sound effects and music (MP3), free for any use without attribution.',
  'Find sounds with search_sounds (keywords, tags, category, duration), inspect one with get_sound,',
  'listen with get_stream_url and fetch the file with get_download_url (that one counts a download).',
  'list_popular shows the most downloaded sounds, list_samples the public samples.',
  'preview_sound returns a short audio preview (MP3, at most 10 s, all at -16 LUFS) to hear a sound;',
  'each sound is also a resource, sound://{id} (its metadata as JSON, and the MP3 itself for sounds up to 30 s), ' +
    'linked from tool results.',
  "Each tool call and each resource read counts as one request against the account's daily quota (Pro 2,500, " +
    'Enterprise 50,000; resets at midnight UTC);',
  'listing tools, resources and prompts is free.',
  SOUND_FIELD_GUIDE,
].join(' ');
