import { ApiError } from '../errors.ts';

/** The export itself is unreadable: bad JSON or zip, or cut short. */
export const invalidExport = (reason: string) => new ApiError('invalidExport', { detail: reason });

/** Readable, but not an export Parley knows. */
export const unrecognizedExport = () => new ApiError('unrecognizedExport');
