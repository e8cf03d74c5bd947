import { strToU8 } from 'fflate';

/**
 * Exports with files, in the shapes ChatGPT and Claude ship them (see
 * formats-2026 §2.5, §3.6, §4.5): each a map of zip members, to be zipped in
 * the order the test wants. The files are tiny but real ones of their type.
 */

const base64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** A 1×1 PNG, a 1×1 JPEG and a 1×1 lossless WebP. */
export const PNG = base64(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
);
export const JPEG = base64(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
);
export const WEBP = base64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
export const PDF = strToU8('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** Another photo: a JPEG whose bytes differ from JPEG's. */
export const OTHER_JPEG = new Uint8Array([...JPEG.subarray(0, JPEG.length - 2), 0x00, 0xff, 0xd9]);

/** A WAV of `samples` silent 8 kHz mono 8-bit samples. */
export function wav(samples = 8): Uint8Array {
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  bytes.set(strToU8('RIFF'), 0);
  view.setUint32(4, 36 + samples, true);
  bytes.set(strToU8('WAVEfmt '), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  bytes.set(strToU8('data'), 36);
  view.setUint32(40, samples, true);
  bytes.fill(0x80, 44);
  return bytes;
}

type Node = { id: string; parent: string | null; message: Record<string, unknown> | null };

/** A ChatGPT conversation of `nodes` in one branch (each node's parent the one before), the last current. */
export function chatgptConversation(id: string, title: string, nodes: Array<Omit<Node, 'parent'>>) {
  const mapping: Record<string, Node> = {};
  let parent: string | null = null;
  for (const node of nodes) {
    mapping[node.id] = { ...node, parent };
    parent = node.id;
  }
  return {
    id,
    conversation_id: id,
    title,
    create_time: 1_700_000_000,
    update_time: 1_700_000_100,
    mapping,
    current_node: parent,
  };
}

let clock = 1_700_000_000;
/** A ChatGPT message node: `role`, content, metadata. */
export function message(
  id: string,
  role: 'user' | 'assistant' | 'tool',
  content: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
) {
  return { id, message: { id, author: { role }, create_time: clock++, content, metadata } };
}

export const text = (...parts: string[]) => ({ content_type: 'text', parts });
export const multimodal = (...parts: unknown[]) => ({ content_type: 'multimodal_text', parts });
export const imagePointer = (pointer: string, size: number, metadata: Record<string, unknown> = {}) => ({
  content_type: 'image_asset_pointer',
  asset_pointer: pointer,
  size_bytes: size,
  width: 1,
  height: 1,
  metadata,
});

const json = (value: unknown) => strToU8(JSON.stringify(value));

/**
 * Up to 2025: `file-<id>-<name>` uploads at the root, generated images under
 * `dalle-generations/` (named with their file id), pointers `file-service://`.
 * A photo in a multimodal message, a PDF named only in `metadata.attachments`,
 * a DALL·E image on the tool's message, and a pointer whose file the zip lacks.
 */
export function chatgptPre2025() {
  const conversation = chatgptConversation('c-2024', 'Old upload', [
    message('root', 'user', text('')),
    message(
      'u1',
      'user',
      multimodal(imagePointer('file-service://file-Photo11111111111111111', JPEG.length), 'What is this?'),
      { attachments: [{ id: 'file-Photo11111111111111111', name: 'cat.jpg', size: JPEG.length, width: 1, height: 1 }] },
    ),
    message('a1', 'assistant', text('A cat.')),
    message('u2', 'user', text('Read this and draw it'), {
      attachments: [
        { id: 'file-Report2222222222222222', name: 'report.pdf', mime_type: 'application/pdf', size: PDF.length },
      ],
    }),
    message(
      't1',
      'tool',
      multimodal(
        imagePointer('file-service://file-Dalle333333333333333333', WEBP.length, {
          dalle: { gen_id: 'g1', prompt: 'a cat' },
        }),
      ),
    ),
    message('a2', 'assistant', text('Here it is.')),
    message(
      'u3',
      'user',
      multimodal(imagePointer('file-service://file-Missing4444444444444444', 1234), 'And this one?'),
    ),
  ]);
  return {
    'conversations.json': json([conversation]),
    'file-Photo11111111111111111-cat.jpg': JPEG,
    'file-Report2222222222222222-report.pdf': PDF,
    'dalle-generations/file-Dalle333333333333333333-4b9f6c1e-2d3a-4e5f-8a7b-9c0d1e2f3a4b.webp': WEBP,
    'user.json': json({ id: 'user-1' }),
  };
}

const HEX = (digit: string) => `file_${digit.repeat(32)}`;
export const MARCH_IDS = { notes: HEX('1'), photo: HEX('2'), voice: HEX('3'), generated: HEX('4'), again: HEX('5') };
export const MARCH_CONVERSATION = '6a9c1409-7d10-83e8-a8d8-7f933546ba2f';

/**
 * About March 2026: `file_<hex>-<name>` at the root, per-conversation folders
 * `<conversation id>/image|audio/file_<hex>-<uuid>.ext`, a generated image in
 * `user-<account>/`, pointers `sediment://`. The second conversation uploads the
 * first one's photo again under another id and name: the same bytes.
 */
export function chatgptMarch2026() {
  const ids = MARCH_IDS;
  const first = chatgptConversation(MARCH_CONVERSATION, 'Folders', [
    message('u1', 'user', multimodal(imagePointer(`sediment://${ids.photo}`, PNG.length), 'My notes and a photo'), {
      attachments: [
        { id: ids.notes, name: 'notes.txt', mime_type: 'text/plain', size: 12 },
        { id: ids.photo, name: 'IMG_0001.png', mime_type: 'image/png', size: PNG.length },
      ],
    }),
    message('a1', 'assistant', text('Noted.')),
    message(
      'u2',
      'user',
      multimodal(
        { content_type: 'audio_transcription', text: 'Draw me a bike', direction: 'in' },
        {
          content_type: 'audio_asset_pointer',
          asset_pointer: `sediment://${ids.voice}`,
          size_bytes: wav().length,
          format: 'wav',
        },
      ),
    ),
    message(
      't1',
      'tool',
      multimodal(imagePointer(`sediment://${ids.generated}`, PNG.length + 1, { generation: { gen_id: 'g' } })),
    ),
    message('a2', 'assistant', text('Your bike.')),
  ]);
  const second = chatgptConversation('7b0d2510-8e21-94f9-b9e9-8a044657cb30', 'Again', [
    message('v1', 'user', multimodal(imagePointer(`sediment://${ids.again}`, PNG.length), 'Same photo'), {
      attachments: [{ id: ids.again, name: 'IMG_0001 copy.png', size: PNG.length }],
    }),
    message('b1', 'assistant', text('Same cat.')),
  ]);
  const generated = new Uint8Array([...PNG, 0]);
  return {
    blobs: {
      [`${ids.notes}-notes.txt`]: strToU8('hello notes\n'),
      [`${MARCH_CONVERSATION}/image/${ids.photo}-0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.png`]: PNG,
      [`${MARCH_CONVERSATION}/audio/${ids.voice}-1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d.wav`]: wav(),
      [`user-AbCdEf123/${ids.generated}-2b3c4d5e-6f7a-4b9c-8d0e-1f2a3b4c5d6e.png`]: generated,
      [`${ids.again}-IMG_0001 copy.png`]: PNG,
    } as Record<string, Uint8Array>,
    conversations: { 'conversations-000.json': json([first, second]) } as Record<string, Uint8Array>,
  };
}

export const JUNE_IDS = {
  photo: HEX('a'),
  older: 'file-Older5555555555555555',
  generated: HEX('b'),
  unlinked: HEX('c'),
};
export const JUNE_CONVERSATION = '6a9c1409-7d10-83e8-a8d8-7f933546ba2f';

/**
 * June 2026 on: every file `<file id>.dat` at the root, named only by
 * `conversation_asset_file_names.json` and `library_files.json`. A photo (no
 * type given: sniffed), an older upload, and a generated image the library
 * alone links, to the tool node that made it; a library file whose message is
 * not in the conversation is kept by nothing.
 */
export function chatgptJune2026() {
  const ids = JUNE_IDS;
  const conversation = chatgptConversation(JUNE_CONVERSATION, 'Dat files', [
    message('u1', 'user', multimodal(imagePointer(`sediment://${ids.photo}`, JPEG.length), 'Make it monochrome'), {
      attachments: [{ id: ids.photo, size: JPEG.length, source: 'local' }],
    }),
    message('t1', 'tool', text(''), { image_gen_title: 'Monochrome Motorbike Mirror Selfie' }),
    message('a1', 'assistant', text('Done.')),
    message('u2', 'user', text('And my old PDF'), {
      attachments: [{ id: ids.older, name: 'Iceland.pdf', mime_type: 'application/pdf', size: PDF.length }],
    }),
    message('a2', 'assistant', text('Read it.')),
  ]);
  const library = [
    {
      file_id: ids.generated,
      file_name: 'Monochrome Motorbike Mirror Selfie.png',
      file_extension: 'png',
      mime_type: 'image/png',
      file_size_bytes: PNG.length,
      library_artifact_type: 'image',
      origination_thread_id: JUNE_CONVERSATION,
      origination_message_id: 't1',
      deleted_at: null,
      trashed_at: null,
    },
    {
      file_id: ids.unlinked,
      file_name: 'elsewhere.png',
      mime_type: 'image/png',
      file_size_bytes: PNG.length,
      origination_thread_id: JUNE_CONVERSATION,
      origination_message_id: 'not-a-node',
    },
  ];
  return {
    'conversation_asset_file_names.json': json({
      [`${ids.photo}.dat`]: 'photo.jpg',
      [`${ids.older}.dat`]: 'Iceland.pdf',
    }),
    'conversations-000.json': json([conversation]),
    [`${ids.generated}.dat`]: PNG,
    [`${ids.older}.dat`]: PDF,
    [`${ids.photo}.dat`]: JPEG,
    [`${ids.unlinked}.dat`]: OTHER_JPEG,
    'library_files.json': json(library),
  };
}

/** A Claude conversation: a paste (its text is the attachment, no name) and a screenshot in `files` (no bytes). */
export function claudeWithFiles() {
  return [
    {
      uuid: 'c-claude',
      name: 'Paste and screenshot',
      created_at: '2026-03-10T10:00:00Z',
      updated_at: '2026-03-10T10:01:00Z',
      chat_messages: [
        {
          uuid: 'm1',
          sender: 'human',
          created_at: '2026-03-10T10:00:00Z',
          content: [{ type: 'text', text: 'Summarise the paste; see the screenshot' }],
          attachments: [
            { file_name: '', file_size: 21, file_type: 'txt', extracted_content: 'Pasted text, two lines\n' },
          ],
          files: [{ file_uuid: '75973fd0-5b1e-4c3a-9d2f-0e1a2b3c4d5e', file_name: '1773102082181_image.png' }],
        },
        {
          uuid: 'm2',
          sender: 'assistant',
          created_at: '2026-03-10T10:00:30Z',
          content: [{ type: 'text', text: 'Two lines, pasted.' }],
        },
      ],
    },
  ];
}
