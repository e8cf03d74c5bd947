import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { PortableSha256 } from '../../src/attachments/blob-hash.ts';
import {
  contentTypeOfName,
  canonicalContentType,
  kindOf,
  sniffContentType,
} from '../../src/attachments/content-type.ts';
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
} from '../import/attachment-exports.ts';

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

test('content types an export gives: one allowed type, written one way, or none (it becomes a header)', () => {
  const cases: Array<[given: string, canonical: string | undefined]> = [
    [' Image/PNG ', 'image/png'],
    ['text/plain; charset=UTF-8', 'text/plain; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['text/csv; charset="ISO-8859-1"; header=present', 'text/csv; charset=iso-8859-1'],
    // Parameters other than a text's charset go.
    ['image/png; q=1', 'image/png'],
    ['image/png;text/html', 'image/png'],
    ['application/pdf; name="report.pdf"', 'application/pdf'],
    // Other names for the same type.
    ['image/jpg', 'image/jpeg'],
    ['audio/x-wav', 'audio/wav'],
    ['audio/x-m4a', 'audio/mp4'],
    // A text type Parley does not list is text.
    ['text/x-python', 'text/plain; charset=utf-8'],
    // A list: Parley would read its first type, a browser its last.
    ['image/png; q=1, text/html', undefined],
    ['image/png, text/html', undefined],
    // Not a type Parley allows.
    ['application/xhtml+xml', undefined],
    ['image/x-unknown', undefined],
    ['text/plain\r\n;x', undefined],
    ['text/plain;\u0000x', undefined],
    ['png', undefined],
    ['', undefined],
  ];
  for (const [given, canonical] of cases) assert.equal(canonicalContentType(given), canonical, given);
});

test('every type sniffed or told by a name is already canonical', () => {
  const sniffed = [JPEG, PNG, WEBP, wav(), PDF, new TextEncoder().encode('<svg xmlns="x"/>')].map(sniffContentType);
  const extensions =
    'jpg jpeg png gif webp heic svg wav mp3 m4a ogg webm mp4 pdf txt md csv json html zip docx xlsx pptx';
  const named = extensions.split(' ').map((extension) => contentTypeOfName(`a.${extension}`));
  for (const type of [...sniffed, ...named]) assert.equal(canonicalContentType(type), type);
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
