import { readFileSync } from 'node:fs';
import { Zip, ZipDeflate } from 'fflate';

export const MIB = 1024 * 1024;

/** A zip of one conversations.json made of `head`, `count` copies of `fill`, then `tail`, deflated as it is made. */
export function zipOf(head: string, fill: Uint8Array, count: number, tail: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  const file = new ZipDeflate('conversations.json', { level: 9 });
  zip.add(file);
  const encoder = new TextEncoder();
  file.push(encoder.encode(head));
  for (let i = 0; i < count; i++) file.push(fill);
  file.push(encoder.encode(tail), true);
  zip.end();
  return new Uint8Array(Buffer.concat(chunks));
}

/** A process's peak RSS so far and the CPU time it has used, from /proc. */
export function procStatus(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)![1]);
  // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second here).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { peakRssMb: Math.round(peakKb / 1024), cpuSeconds: (Number(stat[11]) + Number(stat[12])) / 100 };
}

export const fill = (byte: string, bytes: number) => new TextEncoder().encode(byte.repeat(bytes));

/** Answers counted alike: `413 … ×4`. */
export function tally(answers: string[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  return [...counts].map(([answer, n]) => `${answer} ×${n}`).join(', ');
}
