import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { connectMcp } from '../mcp-client.ts';

describe('mcp.prompts: prompts a user can pick, walking the agent through the tools', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startServer();
    const { key } = await server.account('pro');
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const textOfPrompt = async (name: string, args: Record<string, string>) => {
    const { messages } = await client.getPrompt({ name, arguments: args });
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.role, 'user');
    const { content } = messages[0]!;
    assert.equal(content.type, 'text');
    return (content as { text: string }).text;
  };
  const rejectsWith = (name: string, args: Record<string, string>, pattern: RegExp) =>
    assert.rejects(client.getPrompt({ name, arguments: args }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.match(error.message, pattern);
      return true;
    });

  it('lists the two prompts with their described arguments, and which are required', async () => {
    const { prompts } = await client.listPrompts();
    const shape = prompts.map(({ name, arguments: args = [] }) => [name, args.map((arg) => [arg.name, arg.required])]);
    assert.deepEqual(shape, [
      [
        'find_sound_for_scene',
        [
          ['scene', true],
          ['mood', false],
          ['max_duration', false],
        ],
      ],
      ['build_ui_sound_set', [['style', true]]],
    ]);
    for (const prompt of prompts) {
      assert.ok(prompt.title && prompt.description, `${prompt.name} has a title and a description`);
      for (const arg of prompt.arguments ?? [])
        assert.ok((arg.description ?? '').length > 10, `${prompt.name}.${arg.name} is described`);
    }
  });

  it(
    'find_sound_for_scene carries the scene, ' + 'mood and duration into the steps: search, preview, similar, download',
    async () => {
      const text = await textOfPrompt('find_sound_for_scene', {
        scene: 'a door slams in an empty hallway',
        mood: 'tense',
        max_duration: '3',
      });
      assert.match(text, /"a door slams in an empty hallway"/);
      assert.match(text, /mood wanted: tense/);
      assert.match(text, /longer than 3 s/);
      assert.match(text, /"max_duration": 3/);
      const steps = ['search_sounds', 'preview_sound', 'find_similar_sounds', 'get_download_url'].map((tool) =>
        text.indexOf(tool),
      );
      assert.ok(
        steps.every((at) => at >= 0),
        'names every tool',
      );
      assert.deepEqual(
        [...steps].sort((a, b) => a - b),
        steps,
        'in the order they are used',
      );
      const bare = await textOfPrompt('find_sound_for_scene', { scene: 'rain on a tin roof' });
      assert.match(bare, /No mood was given/);
      assert.doesNotMatch(bare, /max_duration|longer than/);
    },
  );

  it(
    'build_ui_sound_set asks for short SFX with a tight onset, a coherent set through similar sounds, and levelled ' +
      'downloads',
    async () => {
      const text = await textOfPrompt('build_ui_sound_set', { style: 'retro 8-bit' });
      assert.match(text, /"retro 8-bit"/);
      assert.match(text, /"category": "SFX", "max_duration": 1\.5, "max_onset_ms": 10/);
      for (const tool of ['search_sounds', 'preview_sound', 'find_similar_sounds', 'get_download_url'])
        assert.match(text, new RegExp(tool));
      assert.match(text, /"loudness": -16/);
    },
  );

  it('missing or bad arguments are clear invalid-params errors', async () => {
    await rejectsWith('find_sound_for_scene', {}, /Invalid arguments for prompt find_sound_for_scene.*scene/s);
    await rejectsWith('find_sound_for_scene', { scene: '   ' }, /scene/);
    await rejectsWith('find_sound_for_scene', { scene: 'rain', max_duration: 'long' }, /max_duration/);
    await rejectsWith('find_sound_for_scene', { scene: 'rain', max_duration: '-2' }, /max_duration/);
    await rejectsWith('build_ui_sound_set', {}, /Invalid arguments for prompt build_ui_sound_set.*style/s);
    await rejectsWith('no_such_prompt', {}, /Prompt no_such_prompt not found/);
  });
});
