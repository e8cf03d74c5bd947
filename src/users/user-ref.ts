import { isValidUserRef } from '../../sdk/src/sign-link.ts';
import { ApiError } from '../errors.ts';

// The rule signLink checks too: one implementation, the SDK's.
export { isValidUserRef };

/** A userRef as the API takes it: absent or empty is missing, over 1,024 characters invalid. */
export function requireUserRef(value: string | undefined): string {
  if (value === undefined || value === '') throw new ApiError('missingUserRef');
  if (!isValidUserRef(value)) throw new ApiError('invalidUserRef');
  return value;
}
