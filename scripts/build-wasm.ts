/**
 * Assembles the WebAssembly the service embeds — src/import/scanning/nested-scanner.wat —
 * into src/import/scanning/nested-scanner-wasm.ts, the module's bytes as base64, so that
 * every runtime and the binary load it as plain source. `npm run build:wasm`;
 * a test fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import wabt from 'wabt';

const SOURCE = 'src/import/scanning/nested-scanner.wat';
const TARGET = 'src/import/scanning/nested-scanner-wasm.ts';

/** The generated module's text for the .wat at `source`. */
export async function nestedScannerModule(source = SOURCE): Promise<string> {
  const parsed = (await wabt()).parseWat(source, readFileSync(source, 'utf8'));
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    return [
      `// Generated from nested-scanner.wat by \`npm run build:wasm\` (scripts/build-wasm.ts): do not edit.`,
      `export const NESTED_SCANNER_WASM = '${Buffer.from(buffer).toString('base64')}';`,
      '',
    ].join('\n');
  } finally {
    parsed.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(TARGET, await nestedScannerModule());
