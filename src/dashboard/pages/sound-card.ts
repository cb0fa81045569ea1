import type { Sound } from '../../catalog/sound.ts';
import { waveformSvg } from '../drawing/waveform.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { formatDecibels, formatDuration, formatMs } from './format.ts';
import { csrfField } from './layout.ts';

export interface SoundView {
  sound: Sound;
  waveform: Array<[number, number]> | null;
  /** A signed, playable URL; it expires, so it is made when the page is. */
  streamUrl: string;
  /** How alike this sound is to the one a "More like this" page is about (1 the same). */
  similarity?: number;
}

/** Where a sound card's spectrogram is (routes/pictures.ts serves it). */
export function spectrogramPath(soundId: string): string {
  return `/dashboard/catalog/sounds/${encodeURIComponent(soundId)}/spectrogram.png`;
}

/**
 * One sound: name, facts, waveform (and, signed in, its spectrogram) and a native player (keyboard-usable, works without our
 * script). With `signedIn` (the full catalog's pages) it adds the loudness and timing
 * measurements and the actions, whose download form carries that visitor's CSRF token.
 */
export function soundCard(view: SoundView, signedIn: Visitor | null, pickable = false): Html {
  const { sound } = view;
  const headingId = `sound-${sound.id}`;
  return html`<article class="sound-card" aria-labelledby="${headingId}">
<header class="sound-card-head">
<h3 id="${headingId}">${sound.name}</h3>
<span class="sound-duration">${formatDuration(sound.duration)}</span>
</header>
${sound.description && html`<p class="sound-description">${sound.description}</p>`}
<div class="waveform-frame">${waveformSvg(view.waveform, sound.name)}</div>
${signedIn && spectrogram(sound)}
<audio controls preload="none" src="${view.streamUrl}" aria-label="Play ${sound.name}"></audio>
<ul class="tag-list" aria-label="Category and tags">
${sound.category && html`<li class="tag tag-category">${sound.category}</li>`}
${sound.tags.map((tag) => html`<li class="tag">${tag}</li>`)}
</ul>
${signedIn && measurements(sound, view.similarity)}
${signedIn && actions(sound, signedIn, pickable)}
</article>`;
}

/**
 * Loaded only when the card is scrolled to (each one counts a request, as the API's picture
 * does); the box keeps its size meanwhile.
 */
function spectrogram(sound: Sound): Html {
  return html`<img class="spectrogram" src="${spectrogramPath(sound.id)}" width="600" height="150" loading="lazy" \
alt="Spectrogram of ${sound.name}">`;
}

/** Loudness choices of the download button: the catalog's file, or a rendition at a common target. */
const DOWNLOAD_LOUDNESS: Array<[string, string]> = [
  ['', 'As recorded'],
  ['-23', '-23 LUFS (broadcast)'],
  ['-16', '-16 LUFS (podcasts, streaming)'],
  ['-14', '-14 LUFS (music platforms)'],
];

/**
 * "More like this", and a download of the file as it is or as a rendition (loudness, trimmed):
 * a POST, since a download counts against the daily quota.
 */
function actions(sound: Sound, visitor: Visitor, pickable: boolean): Html {
  const id = encodeURIComponent(sound.id);
  return html`<div class="sound-actions">
<a class="button button-quiet" href="/dashboard/catalog/similar/${id}">More like this</a>
<form class="download-form" method="post" action="/dashboard/download/${id}" aria-label="Download ${sound.name}">
${csrfField(visitor)}
<label for="loudness-${sound.id}">Loudness</label> \
<select id="loudness-${sound.id}" name="loudness">${DOWNLOAD_LOUDNESS.map(
    ([value, label]) => html`\
<option value="${value}">${label}</option>`,
  )}</select>
<input type="checkbox" id="trim-${sound.id}" name="trim" value="true"> <label for="trim-${sound.id}">Trim silence\
</label>
<button type="submit" class="button">Download</button>
</form>
${
  pickable &&
  html`<label class="chip">\
<input type="checkbox" name="pick:${sound.id}" value="on" form="pack-form"> Add to pack</label>`
}
</div>`;
}

function measurements(sound: Sound, similarity: number | undefined): Html {
  return html`<dl class="facts">
${similarity !== undefined && html`<div><dt>Similarity</dt><dd>${similarity.toFixed(2)}</dd></div>`}
<div><dt>Loudness</dt><dd>${formatDecibels(sound.loudness.integrated_lufs, 'LUFS')}</dd></div>
<div><dt>True peak</dt><dd>${formatDecibels(sound.loudness.true_peak_db, 'dBTP')}</dd></div>
<div><dt>Onset</dt><dd>${formatMs(sound.timing.onset_ms)}</dd></div>
<div><dt>Peak at</dt><dd>${formatMs(sound.timing.peak_ms)}</dd></div>
<div><dt>Tail</dt><dd>${formatMs(sound.timing.tail_ms)}</dd></div>
<div><dt>License</dt><dd>${sound.license ?? '—'}</dd></div>
</dl>`;
}

/** With `pickable`, each card has a box that adds it to the page's pack form (`#pack-form`). */
export function soundGrid(views: SoundView[], signedIn: Visitor | null, emptyMessage: string, pickable = false): Html {
  if (views.length === 0) return html`<p class="empty">${emptyMessage}</p>`;
  return html`<div class="sound-grid">${views.map((view) => soundCard(view, signedIn, pickable))}</div>`;
}
