import type { ParleyError } from '../errors.ts';
import { EXPORT_FORMATS } from '../import/formats/registry.ts';
import { EMPTY_FILE, NOT_JSON } from '../import/import-errors.ts';

/**
 * What went wrong with an upload, as the person holding the file needs to know
 * it: each kind has its own page and its own next step. The API keeps the
 * precise error (and its reason) for developers.
 */
export type ImportProblem =
  | 'notAnExport'
  | 'otherProvider'
  | 'misexported'
  | 'damaged'
  | 'tooLarge'
  | 'conversationTooLarge'
  | 'conflict'
  | 'failed';

export function importProblem(error: ParleyError): ImportProblem {
  switch (error.code) {
    case 'unrecognizedExport':
      return 'notAnExport';
    case 'invalidProvider':
      return 'otherProvider';
    case 'invalidExport':
      if (error.detail === NOT_JSON || error.detail === EMPTY_FILE) return 'notAnExport';
      if (EXPORT_FORMATS.some((format) => format.misexported?.reason === error.detail)) return 'misexported';
      return 'damaged';
    case 'exportTooLarge':
    case 'expandedTooLarge':
    case 'attachmentTooLarge':
    case 'tooManyRecords':
      return 'tooLarge';
    case 'conversationTooLarge':
      return 'conversationTooLarge';
    case 'importConflict':
      return 'conflict';
    default:
      return 'failed';
  }
}
