import type { z } from 'zod';

/**
 * One MCP prompt, declared once: its name and documentation, its arguments as a zod shape (the
 * SDK validates them and lists them from it; prompt arguments arrive as strings) and the text
 * it gives the agent.
 */
export interface SoundPrompt<A extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  argsSchema: A;
  text(args: z.output<z.ZodObject<A>>): string;
}

/** Keeps a prompt's argument types tied to its text while the list of prompts stays uniform. */
export function definePrompt<A extends z.ZodRawShape>(prompt: SoundPrompt<A>): SoundPrompt {
  return prompt as unknown as SoundPrompt;
}
