import { HeadIncompleteError, need, UnknownHeadError } from './bytes.ts';
import { copyrightOf, deliveredPoints, type DeliveredPoints, type FileTags } from './file-tags.ts';
import { ixmlDocument } from './ixml.ts';

/** Chunks this writer makes: the stored file's own are dropped so that none is there twice. */
const REPLACED = new Set(['bext', 'iXML', 'LIST', 'smpl', 'cue ']);
const BEXT_BYTES = 602;

/**
 * A WAV file's head with the sound's metadata: BWF `bext`, `iXML`, `LIST/INFO`, a `smpl` loop for
 * a loop, and `cue ` points labelled in `LIST/adtl`, all before `data`, whose header ends the
 * head. Other chunks of the stored head (`fmt `, `fact`) are kept in their order.
 */
export function wavHead(stored: Buffer, storedSize: number, tags: FileTags) {
  need(stored, 12);
  if (stored.toString('latin1', 0, 4) !== 'RIFF' || stored.toString('latin1', 8, 12) !== 'WAVE')
    throw new UnknownHeadError('not a RIFF WAVE file');
  const kept: Buffer[] = [];
  let rate = 0;
  let blockAlign = 0;
  let offset = 12;
  for (;;) {
    need(stored, offset + 8);
    const id = stored.toString('latin1', offset, offset + 4);
    const size = stored.readUInt32LE(offset + 4);
    if (id === 'data') {
      if (rate === 0 || blockAlign === 0) throw new UnknownHeadError('a WAV file without fmt before its data');
      const audioStart = offset + 8;
      const points = deliveredPoints(tags, rate, Math.floor(size / blockAlign));
      const body = Buffer.concat([...kept, ...tagChunks(tags, points, rate), stored.subarray(offset, audioStart)]);
      const riffSize = storedSize - 8 + (12 + body.length - audioStart);
      if (riffSize > 0xffff_ffff) throw new UnknownHeadError('the tagged file would be too large for RIFF');
      const head = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), body]);
      head.writeUInt32LE(riffSize, 4);
      return { head, audioStart };
    }
    const end = offset + 8 + size + (size % 2);
    if (end > 1024 * 1024) throw new UnknownHeadError('no data chunk in the first MiB');
    if (!REPLACED.has(id)) {
      if (end > stored.length) throw new HeadIncompleteError(end);
      if (id === 'fmt ') {
        rate = stored.readUInt32LE(offset + 12);
        blockAlign = stored.readUInt16LE(offset + 20);
      }
      kept.push(stored.subarray(offset, end));
    }
    offset = end;
  }
}

function tagChunks(tags: FileTags, points: DeliveredPoints, rate: number): Buffer[] {
  const chunks = [
    chunk('bext', bext(tags)),
    chunk('iXML', Buffer.from(ixmlDocument(tags), 'utf8')),
    chunk('LIST', Buffer.concat([Buffer.from('INFO'), ...infoFields(tags)])),
  ];
  if (points.loop) chunks.push(chunk('smpl', smpl(points.loop, rate)));
  if (points.markers.length > 0) {
    const cue = Buffer.alloc(4 + 24 * points.markers.length);
    cue.writeUInt32LE(points.markers.length, 0);
    const labels: Buffer[] = [Buffer.from('adtl')];
    points.markers.forEach((marker, index) => {
      const at = 4 + 24 * index;
      cue.writeUInt32LE(index + 1, at);
      cue.writeUInt32LE(marker.frame, at + 4);
      cue.write('data', at + 8, 'latin1');
      // Chunk start and block start 0: the samples are in the one data chunk, uncompressed.
      cue.writeUInt32LE(marker.frame, at + 20);
      const id = Buffer.alloc(4);
      id.writeUInt32LE(index + 1);
      labels.push(chunk('labl', Buffer.concat([id, Buffer.from(`${marker.label}\0`, 'latin1')])));
    });
    chunks.push(chunk('cue ', cue), chunk('LIST', Buffer.concat(labels)));
  }
  return chunks;
}

/** An id, a size and the payload, padded to an even length. */
function chunk(id: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload, Buffer.alloc(payload.length % 2)]);
}

/** EBU Tech 3285 version 1: the fields are ASCII, so text is folded to it. */
function bext(tags: FileTags): Buffer {
  const bytes = Buffer.alloc(BEXT_BYTES);
  const ascii = (text: string, at: number, length: number) => bytes.write(toAscii(text).slice(0, length), at, 'latin1');
  ascii(tags.description ?? tags.name, 0, 256);
  ascii('Sound Catalog', 256, 32);
  ascii(tags.id, 288, 32);
  const created = new Date(tags.createdAt);
  const iso = Number.isNaN(created.getTime()) ? '' : created.toISOString();
  ascii(iso.slice(0, 10), 320, 10);
  ascii(iso.slice(11, 19), 330, 8);
  // TimeReference 0 (bytes 338-345): the file starts at the sound's start.
  bytes.writeUInt16LE(1, 346);
  return bytes;
}

function infoFields(tags: FileTags): Buffer[] {
  const fields: [string, string][] = [['INAM', tags.name]];
  if (tags.description) fields.push(['ICMT', tags.description]);
  if (tags.tags.length > 0) fields.push(['IKEY', tags.tags.join('; ')]);
  fields.push(['ICOP', copyrightOf(tags)]);
  if (tags.category) fields.push(['IGNR', tags.category]);
  fields.push(['ICRD', tags.createdAt.slice(0, 10)], ['ISFT', 'Sound Catalog']);
  return fields.map(([id, text]) => chunk(id, Buffer.from(`${text}\0`, 'utf8')));
}

/** One forward loop; the sampler chunk counts its end as the last frame played. */
function smpl(loop: { start: number; end: number }, rate: number): Buffer {
  const bytes = Buffer.alloc(60);
  bytes.writeUInt32LE(Math.round(1e9 / rate), 8);
  bytes.writeUInt32LE(60, 12); // MIDI unity note: middle C
  bytes.writeUInt32LE(1, 28);
  bytes.writeUInt32LE(1, 36); // cue point id
  bytes.writeUInt32LE(0, 40); // forward
  bytes.writeUInt32LE(loop.start, 44);
  bytes.writeUInt32LE(loop.end - 1, 48);
  return bytes;
}

function toAscii(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
}
