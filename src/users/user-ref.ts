import { ApiError } from '../errors.ts';

export const MAX_USER_REF_LENGTH = 1024;

/** Whether a userRef has 1 to 1,024 characters (code points, as SQL's length() counts them). */
export function isValidUserRef(value: string): boolean {
  if (value === '') return false;
  // Cheap for every normal value: code points never outnumber UTF-16 units.
  if (value.length <= MAX_USER_REF_LENGTH) return true;
  let count = 0;
  for (const _ of value) if (++count > MAX_USER_REF_LENGTH) return false;
  return true;
}

/** A userRef as the API takes it: absent or empty is missing, over 1,024 characters invalid. */
export function requireUserRef(value: string | undefined): string {
  if (value === undefined || value === '') throw new ApiError('missingUserRef');
  if (!isValidUserRef(value)) throw new ApiError('invalidUserRef');
  return value;
}
