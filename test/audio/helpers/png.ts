import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A picture as ffmpeg reads it: its size and its pixels, RGB, row by row from the top. */
export interface ReadPicture {
  codec: string;
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** Reads a PNG with ffprobe and ffmpeg: a decoder that is not the one the service writes with. */
export function readPng(png: Uint8Array): ReadPicture {
  const dir = mkdtempSync(join(tmpdir(), 'picture-test-'));
  try {
    const file = join(dir, 'picture.png');
    writeFileSync(file, png);
    const probed = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file], {
        encoding: 'utf8',
      }),
    ) as { streams: Array<{ codec_name: string; width: number; height: number }> };
    const { codec_name: codec, width, height } = probed.streams[0]!;
    const rgb = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
      maxBuffer: 1 << 26,
    });
    return { codec, width, height, rgb: new Uint8Array(rgb) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pixels whose colour is not `colour`. */
export function pixelsOtherThan(picture: ReadPicture, colour: readonly [number, number, number]): number {
  let count = 0;
  for (let i = 0; i < picture.rgb.length; i += 3) {
    if (picture.rgb[i] !== colour[0] || picture.rgb[i + 1] !== colour[1] || picture.rgb[i + 2] !== colour[2]) count++;
  }
  return count;
}
