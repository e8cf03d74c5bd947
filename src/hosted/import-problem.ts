import { type ImportProblem, type ParleyError, shownFor } from '../errors.ts';

/**
 * The problem the import's result page names for an upload refused with
 * `error`, as the error table says; undefined when the error refuses the
 * request rather than the file (its error page, at the form's address).
 */
export function importProblem(error: ParleyError): ImportProblem | undefined {
  const { upload = 'failed' } = shownFor(error.code);
  return upload === 'errorPage' ? undefined : upload;
}
