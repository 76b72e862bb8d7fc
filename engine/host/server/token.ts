import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh 128-bit token, URL-safe, for the printed browser-mode URL. */
export function createToken(): string {
  return randomBytes(16).toString('base64url');
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
