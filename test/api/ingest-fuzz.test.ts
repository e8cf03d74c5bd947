import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { FIXTURE_NAMES, fixtureBytes, fixtureJson, postExport, rowCounts, setup } from '../helpers.ts';

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const STRANGE_VALUES = [null, 0, -1, 1e308, '', 'x', true, [], {}, [null], { mapping: null }, '\u0000', 'ø😀'];

/** Replaces one value somewhere in the document with a value of another type. */
function swapType(value: any, random: () => number): any {
  if (Array.isArray(value) && value.length > 0 && random() < 0.8) {
    const i = Math.floor(random() * value.length);
    value[i] = swapType(value[i], random);
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && random() < 0.85) {
      const key = keys[Math.floor(random() * keys.length)]!;
      if (random() < 0.1) delete value[key];
      else value[key] = swapType(value[key], random);
      return value;
    }
  }
  // A copy: the objects and arrays among them are mutated later, and must never end up inside themselves.
  return structuredClone(STRANGE_VALUES[Math.floor(random() * STRANGE_VALUES.length)]);
}

type Mutation = (bytes: Uint8Array, name: string, random: () => number) => { body: Uint8Array; contentType: string };

const MUTATIONS: Record<string, Mutation> = {
  truncate: (bytes, _name, random) => ({
    body: bytes.subarray(0, Math.floor(random() * bytes.length)),
    contentType: 'application/json',
  }),
  flipBytes: (bytes, _name, random) => {
    const body = bytes.slice();
    for (let n = 1 + Math.floor(random() * 8); n > 0; n--)
      body[Math.floor(random() * body.length)] = Math.floor(random() * 256);
    return { body, contentType: 'application/json' };
  },
  wrongTypes: (_bytes, name, random) => {
    let document = fixtureJson(name);
    for (let n = 1 + Math.floor(random() * 4); n > 0; n--) document = swapType(document, random);
    return { body: strToU8(JSON.stringify(document) ?? 'null'), contentType: 'application/json' };
  },
  randomBytes: (_bytes, _name, random) => ({
    body: Uint8Array.from({ length: Math.floor(random() * 2000) }, () => Math.floor(random() * 256)),
    contentType: random() < 0.5 ? 'application/json' : 'application/zip',
  }),
  damagedZip: (bytes, _name, random) => {
    const body = zipSync({ 'conversations.json': bytes }, { level: random() < 0.5 ? 0 : 6 });
    const cut = random() < 0.5;
    if (cut) return { body: body.subarray(0, Math.floor(random() * body.length)), contentType: 'application/zip' };
    for (let n = 1 + Math.floor(random() * 6); n > 0; n--)
      body[Math.floor(random() * body.length)] = Math.floor(random() * 256);
    return { body, contentType: 'application/zip' };
  },
};

test('mutated exports get a 200 or a 4xx with a JSON error, never a 500 or a partial write', async () => {
  const t = await setup();
  const random = prng(20261122);
  const seen: Record<number, number> = {};
  for (let i = 0; i < 400; i++) {
    const name = FIXTURE_NAMES[Math.floor(random() * FIXTURE_NAMES.length)]!;
    const mutationName = Object.keys(MUTATIONS)[Math.floor(random() * Object.keys(MUTATIONS).length)]!;
    const { body, contentType } = MUTATIONS[mutationName]!(fixtureBytes(name), name, random);
    const before = await rowCounts(t.deps);
    const response = await postExport(t, body, { contentType, query: `userRef=fuzz-${i % 7}` });
    const text = await response.text();
    const context = `case ${i}: ${mutationName} of ${name} → ${response.status} ${text.slice(0, 200)}`;
    seen[response.status] = (seen[response.status] ?? 0) + 1;
    assert.ok(response.status === 200 || (response.status >= 400 && response.status < 500), context);
    const answer = JSON.parse(text);
    const after = await rowCounts(t.deps);
    assert.equal(after.staged, 0, context);
    if (response.status === 200) {
      assert.equal(answer.ok, true, context);
      // The stored count always matches the rows.
      const stored = await t.deps.db
        .selectFrom('connections')
        .select('conversation_count')
        .where('id', '=', answer.connectionId)
        .executeTakeFirstOrThrow();
      assert.equal(stored.conversation_count, answer.conversationCount, context);
    } else {
      assert.deepEqual(Object.keys(answer), ['error'], context);
      assert.deepEqual(after, before, context);
    }
  }
  // The mutations reach both outcomes, or the test proves little.
  assert.ok((seen[200] ?? 0) > 20 && (seen[400] ?? 0) > 100, JSON.stringify(seen));
  assert.equal(t.logs.filter((line) => line.level === 'error').length, 0);
});
