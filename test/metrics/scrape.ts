import assert from 'node:assert/strict';
import { readdir, readFile, readlink } from 'node:fs/promises';

/** One scrape of /metrics: the samples by name and labels, as Prometheus's text format writes them. */
export class Scrape {
  private constructor(
    readonly text: string,
    private readonly samples: Array<{ name: string; labels: Record<string, string>; value: number }>,
  ) {}

  static async of(url: string): Promise<Scrape> {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const samples = text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
        assert.ok(match, `a sample line: ${line}`);
        const labels = Object.fromEntries(
          [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name!, value!]),
        );
        return { name: match[1]!, labels, value: Number(match[3]) };
      });
    return new Scrape(text, samples);
  }

  /** The value of the sample with this name and these labels (others may be there too); undefined when absent. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.samples.find(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )?.value;
  }

  /** Every label set a metric has samples for. */
  labelsOf(name: string): Array<Record<string, string>> {
    return this.samples.filter((sample) => sample.name === name).map((sample) => sample.labels);
  }

  has(name: string): boolean {
    return this.samples.some((sample) => sample.name === name);
  }
}

/**
 * The TCP ports a process listens on, from Linux's /proc: its open sockets (fd links) matched
 * against the listening sockets (state 0A) of /proc/net/tcp and tcp6.
 */
export async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(Number.parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports.sort((a, b) => a - b);
}
