import { execFileSync, spawnSync } from 'node:child_process';

/**
 * WAV `smpl` chunks for tests, and libsndfile's reading of them (an independent reader: the C
 * library, through Python's ctypes), so that a fixture's loop is known not only by our writer.
 */

/** A smpl chunk body with one forward loop: `start` its first frame, `last` its last (smpl counts it in). */
export function smplChunk(start: number, last: number, sampleRate = 44_100): Uint8Array {
  const body = new Uint8Array(36 + 24);
  const view = new DataView(body.buffer);
  view.setUint32(8, Math.round(1e9 / sampleRate), true); // dwSamplePeriod, nanoseconds
  view.setUint32(12, 60, true); // dwMIDIUnityNote
  view.setUint32(28, 1, true); // cSampleLoops
  view.setUint32(36 + 8, start, true);
  view.setUint32(36 + 12, last, true);
  return body;
}

const LIBSNDFILE_LOOPS = `
import ctypes, json, sys
lib = ctypes.CDLL('libsndfile.so.1')
class Info(ctypes.Structure):
    _fields_ = [('frames', ctypes.c_int64), ('samplerate', ctypes.c_int), ('channels', ctypes.c_int),
                ('format', ctypes.c_int), ('sections', ctypes.c_int), ('seekable', ctypes.c_int)]
class Loop(ctypes.Structure):
    _fields_ = [('mode', ctypes.c_int), ('start', ctypes.c_uint32), ('end', ctypes.c_uint32), ('count', ctypes.c_uint32)]
class Instrument(ctypes.Structure):
    _fields_ = [('gain', ctypes.c_int), ('basenote', ctypes.c_char), ('detune', ctypes.c_char),
                ('velocity_lo', ctypes.c_char), ('velocity_hi', ctypes.c_char), ('key_lo', ctypes.c_char),
                ('key_hi', ctypes.c_char), ('loop_count', ctypes.c_int), ('loops', Loop * 16)]
lib.sf_open.restype = ctypes.c_void_p
info = Info()
handle = lib.sf_open(sys.argv[1].encode(), 0x10, ctypes.byref(info))
if not handle: sys.exit('libsndfile cannot open ' + sys.argv[1])
inst = Instrument()
found = lib.sf_command(ctypes.c_void_p(handle), 0x10D0, ctypes.byref(inst), ctypes.sizeof(inst))
loops = [{'start': inst.loops[i].start, 'end': inst.loops[i].end} for i in range(inst.loop_count)] if found else []
print(json.dumps({'frames': info.frames, 'sampleRate': info.samplerate, 'loops': loops}))
lib.sf_close(ctypes.c_void_p(handle))
`;

export const hasLibsndfile = spawnSync('python3', ['-c', "import ctypes; ctypes.CDLL('libsndfile.so.1')"]).status === 0;

/** What libsndfile reads in a WAV file: its length, rate and instrument loops (SFC_GET_INSTRUMENT). */
export function libsndfileLoops(file: string): {
  frames: number;
  sampleRate: number;
  loops: Array<{ start: number; end: number }>;
} {
  return JSON.parse(execFileSync('python3', ['-c', LIBSNDFILE_LOOPS, file], { encoding: 'utf8' }));
}
