import { html, trusted, type Html } from '../html.ts';

const BARS = 36;
const WIDTH = 360;
const HEIGHT = 220;

/**
 * The front page's picture: a stylised waveform, drawn once at start-up from a fixed formula so
 * it looks the same on every visit. Decoration only, hidden from screen readers.
 */
function drawBars(): string {
  const slot = WIDTH / BARS;
  let rects = '';
  for (let i = 0; i < BARS; i++) {
    const t = i / (BARS - 1);
    const envelope = Math.sin(Math.PI * t) ** 0.8;
    const texture = 0.55 + 0.45 * Math.abs(Math.sin(i * 1.9) * Math.cos(i * 0.7));
    const height = Math.max(8, envelope * texture * (HEIGHT - 20));
    const x = (i * slot + slot * 0.18).toFixed(1);
    rects +=
      `<rect x="${x}" y="${((HEIGHT - height) / 2).toFixed(1)}" width="${(slot * 0.64).toFixed(1)}" ` +
      `height="${height.toFixed(1)}" rx="${(slot * 0.32).toFixed(1)}"/>`;
  }
  return rects;
}

const BARS_MARKUP = trusted(drawBars());

export function heroArt(): Html {
  return html`<svg class="hero-art" viewBox="0 0 ${WIDTH} ${HEIGHT}" aria-hidden="true" focusable="false">
<defs><linearGradient id="hero-gradient" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#818cf8"/>\
<stop offset="1" stop-color="#4338ca"/></linearGradient></defs>
${BARS_MARKUP}
</svg>`;
}
