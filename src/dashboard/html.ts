/**
 * A tagged template that escapes every interpolated value unless it is already `Html`, so a page
 * cannot forget to escape: text from users, sound names and tags all pass through `escapeHtml`.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Renderable = Html | string | number | boolean | null | undefined | readonly Renderable[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

function render(value: Renderable): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  // false and nullish render nothing, so `${condition && html`...`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Renderable[]): Html {
  let text = strings[0]!;
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1]!;
  });
  return new Html(text);
}

/** Marks text produced by our own code (numbers formatted into SVG paths) as safe markup. */
export function trusted(text: string): Html {
  return new Html(text);
}
