import type { Resource, ResourceLink } from '@modelcontextprotocol/sdk/types.js';

/** The resource template of one sound: its metadata as JSON, and its MP3 when it is short. */
export const SOUND_URI_TEMPLATE = 'sound://{id}';

export function soundUri(id: string): string {
  return `sound://${id}`;
}

/** As much of a sound as the caller has at hand; a waveform knows only the id. */
interface NamedSound {
  id: string;
  name?: string;
  duration?: number;
  tags?: string[];
}

/** What a listing or a link says about a sound's resource, so a client can show it without reading it. */
export function soundResource(sound: NamedSound): Resource {
  const facts = [
    ...(sound.duration === undefined ? [] : [`${Number(sound.duration.toFixed(2))} s`]),
    ...(sound.tags && sound.tags.length > 0 ? [`tags: ${sound.tags.join(', ')}`] : []),
  ];
  return {
    uri: soundUri(sound.id),
    name: sound.name ?? sound.id,
    ...(facts.length > 0 && { description: facts.join('; ') }),
    mimeType: 'application/json',
  };
}

/** Links from a tool result to the resources of the sounds it names, in the order it names them. */
export function soundLinks(sounds: NamedSound[]): ResourceLink[] {
  return sounds.map((sound) => ({ type: 'resource_link', ...soundResource(sound) }));
}
