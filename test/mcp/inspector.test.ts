import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { decodeAudio } from '../../src/audio/decode/index.ts';
import { analyzeAudio } from '../../src/audio/analyze/index.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from './real-sounds.ts';

const run = promisify(execFile);
/** The official MCP Inspector's command line, from node_modules (a devDependency): a second real client. */
const INSPECTOR = path.resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js',
);

describe(
  'mcp.inspector: the MCP Inspector in CLI mode lists and reads resources, ' + 'lists prompts and hears a preview',
  () => {
    let server: TestServer;
    let key: string;
    let id: string;

    before(async () => {
      server = await startServer();
      ({ key } = await server.account('pro'));
      ({ id } = await addRealSound(server.services, tone(2, 0.2), 'Inspector Tone', ['tone']));
    });
    after(() => server.close());

    /**
     * One Inspector run over Streamable HTTP with the API key header, as its README shows; its
     * stdout is the JSON answer.
     */
    const inspect = async (method: string, ...flags: string[]) => {
      const { stdout } = await run(
        process.execPath,
        [
          INSPECTOR,
          '--cli',
          `${server.url}/mcp`,
          '--transport',
          'http',
          '--header',
          `x-api-key: ${key}`,
          '--method',
          method,
          ...flags,
        ],
        { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      );
      return JSON.parse(stdout) as Record<string, unknown>;
    };

    it('resources/list and resources/templates/list', async () => {
      const { resources } = (await inspect('resources/list')) as { resources: Array<{ uri: string; name: string }> };
      assert.deepEqual(
        resources.map(({ uri, name }) => ({ uri, name })),
        [{ uri: `sound://${id}`, name: 'Inspector Tone' }],
      );
      const { resourceTemplates } = (await inspect('resources/templates/list')) as {
        resourceTemplates: Array<{ uriTemplate: string }>;
      };
      assert.deepEqual(
        resourceTemplates.map((template) => template.uriTemplate),
        ['sound://{id}'],
      );
    });

    it('resources/read gives the JSON and the MP3', async () => {
      const { contents } = (await inspect('resources/read', '--uri', `sound://${id}`)) as {
        contents: Array<{ mimeType: string; text?: string; blob?: string }>;
      };
      assert.deepEqual(
        contents.map((content) => content.mimeType),
        ['application/json', 'audio/mpeg'],
      );
      assert.equal(JSON.parse(contents[0]!.text!).name, 'Inspector Tone');
      const decoded = await decodeAudio(new Uint8Array(Buffer.from(contents[1]!.blob!, 'base64')));
      assert.ok(Math.abs(analyzeAudio(decoded).duration - 2) < 0.01);
    });

    it('prompts/list and prompts/get', async () => {
      const { prompts } = (await inspect('prompts/list')) as { prompts: Array<{ name: string }> };
      assert.deepEqual(
        prompts.map((prompt) => prompt.name),
        ['find_sound_for_scene', 'build_ui_sound_set'],
      );
      // --prompt-args values are read as JSON when they parse: quoted, "3" stays the string a prompt argument must be.
      const { messages } = (await inspect(
        'prompts/get',
        '--prompt-name',
        'find_sound_for_scene',
        '--prompt-args',
        'scene=footsteps on gravel',
        'max_duration="3"',
      )) as {
        messages: Array<{ content: { text: string } }>;
      };
      assert.match(messages[0]!.content.text, /"footsteps on gravel"/);
      assert.match(messages[0]!.content.text, /longer than 3 s/);
    });

    it('tools/call preview_sound gives an audio item at the preview loudness', async () => {
      const result = (await inspect(
        'tools/call',
        '--tool-name',
        'preview_sound',
        '--tool-arg',
        `id=${JSON.stringify(id)}`,
      )) as {
        isError?: boolean;
        content: Array<{ type: string; data?: string; mimeType?: string }>;
      };
      assert.notEqual(result.isError, true);
      const audio = result.content.find((item) => item.type === 'audio');
      assert.equal(audio?.mimeType, 'audio/mpeg');
      const measured = analyzeAudio(await decodeAudio(new Uint8Array(Buffer.from(audio!.data!, 'base64'))));
      assert.ok(
        Math.abs(measured.loudness.integrated_lufs! - -16) <= 1,
        `integrated ${measured.loudness.integrated_lufs} LUFS`,
      );
    });

    it('without the key header the Inspector is refused', async () => {
      await assert.rejects(
        run(
          process.execPath,
          [INSPECTOR, '--cli', `${server.url}/mcp`, '--transport', 'http', '--method', 'resources/list'],
          { timeout: 60_000 },
        ),
        (error: { code?: number; stdout?: string; stderr?: string }) => {
          assert.notEqual(error.code, 0);
          assert.match(`${error.stdout}${error.stderr}`, /401|x-api-key/i);
          return true;
        },
      );
    });
  },
);
