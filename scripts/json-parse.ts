/**
 * The floor for any importer: reads the file at the last argument into a string
 * and prints how many seconds one JSON.parse of it takes. Run by the benchmark
 * under each runtime (node --import tsx, deno run -A, bun).
 */
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv.at(-1)!, 'utf8');
const started = performance.now();
JSON.parse(text);
console.log((performance.now() - started) / 1000);
