import { ParleyError } from '../errors.ts';

/** The reasons that say the file is no export at all (a picture, a PDF, an empty file), not a damaged one. */
export const NOT_JSON = 'the file is not JSON';
export const EMPTY_FILE = 'the file is empty';

/** The export itself is unreadable: bad JSON or zip, or cut short. */
export const invalidExport = (reason: string) => new ParleyError('invalidExport', { detail: reason });

/** Readable, but not an export Parley knows. */
export const unrecognizedExport = () => new ParleyError('unrecognizedExport');
