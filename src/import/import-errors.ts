import { ParleyError } from '../errors.ts';

/** The reasons that say the file is no export at all (a picture, a PDF, an empty file), not a damaged one. */
export const NOT_JSON = 'the file is not JSON';
export const EMPTY_FILE = 'the file is empty';
export const HTML_NOT_AN_EXPORT =
  'the file is an HTML page with no conversation Parley reads (of HTML, Parley reads Meta AI’s your_ai_conversations.html)';

/** The export itself is unreadable: bad JSON or zip, or cut short. */
export const invalidExport = (reason: string) => new ParleyError('invalidExport', { detail: reason });

/** No export at all: the API's `Invalid export file` all the same, its own page. */
export const fileNotAnExport = (reason: typeof NOT_JSON | typeof EMPTY_FILE | typeof HTML_NOT_AN_EXPORT) =>
  new ParleyError('fileNotAnExport', { detail: reason });

/** An export its provider was asked to make in another format (the format's `misexported` reason). */
export const misexportedExport = (reason: string) => new ParleyError('misexportedExport', { detail: reason });

/** Readable, but not an export Parley knows. */
export const unrecognizedExport = () => new ParleyError('unrecognizedExport');
