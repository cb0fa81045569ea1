/**
 * What the measured fields of a sound mean, in words an agent can act on. Tool descriptions
 * carry this so a model can pick, trim and level sounds without reading the API document.
 */
export const SOUND_FIELD_GUIDE = [
  'Fields of each sound: duration is in seconds.',
  'timing.onset_ms is the silence before the sound starts: trim that many milliseconds from the start so it plays exactly on cue.',
  'timing.peak_ms is when it is loudest (align impacts to a beat or a visual hit with it).',
  'timing.tail_ms is when it has decayed 40 dB below its peak: the natural point to cut or fade out, and how long it rings.',
  'loudness.integrated_lufs is the overall loudness (EBU R128): to match levels, apply a gain of (target LUFS - integrated_lufs) dB; -16 to -14 LUFS suits games and web, -23 broadcast.',
  'loudness.true_peak_db is the highest true peak in dBTP: the headroom to full scale is -true_peak_db dB (1 dB less to the usual -1 dBTP ceiling), so do not raise the gain more than that without a limiter.',
  'Null timing or loudness fields mean the file is digital silence.',
  'stream_url is a signed link to listen (one hour, no header needed).',
].join(' ');

/** The header every tool call needs and what each call costs, for the server's instructions. */
export const SERVER_INSTRUCTIONS = [
  'Sound Catalog: CC0 sound effects and music (MP3), free for any use without attribution.',
  'Find sounds with search_sounds (keywords, tags, category, duration), inspect one with get_sound,',
  'listen with get_stream_url and fetch the file with get_download_url (that one counts a download).',
  'list_popular shows the most downloaded sounds, list_samples the public samples.',
  'preview_sound returns a short audio preview (MP3, at most 10 s, all at -16 LUFS) to hear a sound;',
  'each sound is also a resource, sound://{id} (its metadata as JSON, and the MP3 itself for sounds up to 30 s), linked from tool results.',
  'Each tool call and each resource read counts as one request against the account\'s daily quota (Pro 2,500, Enterprise 50,000; resets at midnight UTC);',
  'listing tools, resources and prompts is free.',
  SOUND_FIELD_GUIDE,
].join(' ');
