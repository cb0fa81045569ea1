import type { SoundPrompt } from './prompt.ts';
import { buildUiSoundSetPrompt } from './build-ui-sound-set.ts';
import { findSoundForScenePrompt } from './find-sound-for-scene.ts';

/** Every prompt the MCP server offers a user to pick. */
export const soundPrompts: SoundPrompt[] = [findSoundForScenePrompt, buildUiSoundSetPrompt];
