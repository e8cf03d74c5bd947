import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { PortableSha256 } from '../../src/attachments/blob-hash.ts';
import { contentTypeOfName, givenContentType, kindOf, sniffContentType } from '../../src/attachments/content-type.ts';
import { chatgptExport } from '../../src/import/formats/chatgpt.ts';
import { claudeExport } from '../../src/import/formats/claude.ts';
import {
  chatgptConversation,
  imagePointer,
  JPEG,
  message,
  multimodal,
  PDF,
  PNG,
  text,
  WEBP,
  wav,
} from './attachment-exports.ts';

test('the portable SHA-256 hashes bytes in any pieces as node:crypto hashes them whole', () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 70_000]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff);
    for (const cut of [0, 1, Math.floor(length / 2), length]) {
      const hash = new PortableSha256();
      hash.update(bytes.subarray(0, cut));
      hash.update(bytes.subarray(cut));
      assert.equal(hash.digest(), createHash('sha256').update(bytes).digest('base64url'), `${length} cut at ${cut}`);
    }
  }
});

test('content types an export gives: a type and printable parameters, never a line break (it becomes a header)', () => {
  assert.equal(givenContentType(' Image/PNG '), 'image/png');
  assert.equal(givenContentType('text/plain; charset=UTF-8'), 'text/plain; charset=utf-8');
  assert.equal(givenContentType('text/plain\r\n;x'), undefined);
  assert.equal(givenContentType('text/plain;\u0000x'), undefined);
  assert.equal(givenContentType('png'), undefined);
});

test('content types: sniffed from the first bytes, else by the name; the kind from the type', () => {
  assert.equal(sniffContentType(JPEG), 'image/jpeg');
  assert.equal(sniffContentType(PNG), 'image/png');
  assert.equal(sniffContentType(WEBP), 'image/webp');
  assert.equal(sniffContentType(wav()), 'audio/wav');
  assert.equal(sniffContentType(PDF), 'application/pdf');
  assert.equal(sniffContentType(new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="x"/>')), 'image/svg+xml');
  assert.equal(sniffContentType(new TextEncoder().encode('héllo\n')), 'text/plain; charset=utf-8');
  assert.equal(sniffContentType(new Uint8Array([0, 1, 2, 3])), undefined);
  assert.equal(contentTypeOfName('Report.PDF'), 'application/pdf');
  assert.equal(contentTypeOfName('file_00.dat'), undefined);
  assert.deepEqual(['image/png', 'audio/wav', 'application/pdf'].map(kindOf), ['image', 'audio', 'file']);
});

test('ChatGPT: a file shown again in a later message is that message’s too; node ids lead to the answer shown, from another branch too', () => {
  const conversation = chatgptConversation('c', 'Twice', [
    message('u1', 'user', multimodal(imagePointer('sediment://file_aa', 3), 'One')),
    message('a1', 'assistant', text('Seen.')),
    message('u2', 'user', multimodal(imagePointer('sediment://file_aa', 3), 'Again')),
    message('t1', 'tool', text('')),
    message('a2', 'assistant', text('Seen again.')),
  ]);
  // A regenerated answer beside a2, not shown, whose tool made an image.
  Object.assign(conversation.mapping, {
    t9: { id: 't9', parent: 'u2', message: { id: 't9', author: { role: 'tool' }, content: text(''), metadata: {} } },
    a9: {
      id: 'a9',
      parent: 't9',
      message: { id: 'a9', author: { role: 'assistant' }, content: text('Other'), metadata: {} },
    },
  });
  const read = chatgptExport.normalize(conversation, new Map(), { messageIds: true })!;
  assert.deepEqual(
    read.attachments!.map(({ messageIndex, ref, kind, size }) => ({ messageIndex, ref, kind, size })),
    [
      { messageIndex: 0, ref: 'file_aa', kind: 'image', size: 3 },
      { messageIndex: 2, ref: 'file_aa#2', kind: 'image', size: 3 },
    ],
  );
  assert.deepEqual(read.messageIds, { a1: 1, t1: 3, a2: 3, t9: 3, a9: 3 });
});

test('Claude: a paste with no name is paste.txt; a file listed in files and attachments both is one attachment', () => {
  const read = claudeExport.normalize(
    {
      uuid: 'c',
      chat_messages: [
        {
          uuid: 'm',
          sender: 'human',
          text: 'See',
          attachments: [
            { file_name: '', extracted_content: 'one' },
            { file_name: 'notes.txt', extracted_content: 'two' },
          ],
          files: [{ file_name: 'notes.txt' }, { file_uuid: 'f1', file_name: 'shot.png' }],
        },
      ],
    },
    new Map(),
  )!;
  assert.deepEqual(
    read.attachments!.map(({ ref, name, kind, text }) => ({ ref, name, kind, text })),
    [
      { ref: 'm/attachment/0', name: 'paste.txt', kind: 'document', text: 'one' },
      { ref: 'm/attachment/1', name: 'notes.txt', kind: 'document', text: 'two' },
      { ref: 'f1', name: 'shot.png', kind: null, text: undefined },
    ],
  );
});
