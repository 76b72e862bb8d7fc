/**
 * Which token a browser-mode server uses: a fresh random one (the default), one given
 * (`schedlab serve --token`), or one kept in a file (`--token-file PATH`, or `--keep-token` for
 * the user's state directory) so a restarted server keeps the URL an open tab already has.
 * A kept file is created on first use, readable by its owner only.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { SchedLabError } from '../../../shared/errors.ts';
import { readPlainFile } from '../plain-file.ts';
import { createToken } from './token.ts';

/** URL-safe (it goes in the page URL unescaped), long enough not to be guessed. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
/** The largest token file read: a token and room for blank lines, nothing like a log. */
export const MAX_TOKEN_FILE_BYTES = 4096;

export interface TokenChoice {
  /** A token given outright. */
  token?: string;
  /** A file holding the token; made with a fresh one when missing. */
  tokenFile?: string;
}

/** `$XDG_STATE_HOME/schedlab/token`, or `~/.local/state/schedlab/token` without XDG_STATE_HOME. */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  const state = env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state');
  return join(state, 'schedlab', 'token');
}

export function checkToken(token: string, field: string): string {
  if (!TOKEN_PATTERN.test(token)) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `${field} must be 16 to 128 characters of A-Z, a-z, 0-9, '-' and '_' (got ${token.length} characters)`,
      field,
    );
  }
  return token;
}

/** The token to serve with, or undefined for the server's own fresh one. */
export function resolveToken(choice: TokenChoice): string | undefined {
  if (choice.token !== undefined) return checkToken(choice.token, 'token');
  const file = choice.tokenFile;
  if (file === undefined) return undefined;
  try {
    const text = readPlainFile(file, MAX_TOKEN_FILE_BYTES, (why) => tokenFileError(file, why));
    return checkToken(text.toString('utf8').trim(), 'tokenFile');
  } catch (e) {
    if (e instanceof SchedLabError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw cannot(file, e);
  }
  try {
    const token = createToken();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return token;
  } catch (e) {
    throw cannot(file, e);
  }
}

/** A file it may not read, a folder it may not write: the path is the user's. */
function cannot(file: string, e: unknown): SchedLabError {
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return tokenFileError(file, `cannot be read or made (${why})`);
}

function tokenFileError(file: string, what: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `tokenFile ${file} ${what}`, 'tokenFile');
}
