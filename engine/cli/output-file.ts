/**
 * An output file a run writes at its end (`--trace`), checked before the run starts, so a typo in
 * the directory costs a usage error now rather than the whole run's results later.
 *
 * A FIFO is allowed — `--trace >(gzip > trace.json.gz)`, or a named pipe whose reader is
 * running — but only with a reader: opening a FIFO to write waits for one for ever. The reader is
 * looked for without blocking at the start and again just before the write, and the FIFO is held
 * open in between, so a reader that opened it by name does not see its end when the first look
 * lets go. A directory, a block device or a socket is refused; a character device (/dev/null, a
 * terminal) is written as a file is.
 */
import {
  accessSync,
  closeSync,
  constants,
  openSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileKind } from '../host/plain-file.ts';
import { UsageError } from './usage-error.ts';

export class OutputFile {
  private constructor(
    readonly path: string,
    private readonly flag: string,
    /** The FIFO, held open for writing from the check to the write; null for anything else. */
    private held: number | null,
  ) {}

  /** `path` as `flag`'s output, or a usage error saying why it cannot be one. */
  static check(path: string, flag: string): OutputFile {
    const full = resolve(path);
    let info: Stats | undefined;
    try {
      info = statSync(full);
    } catch {
      // Not there yet (or its folder is not): the folder must be writable, below.
    }
    if (info?.isFIFO() === true) return new OutputFile(path, flag, withReader(path, flag));
    if (info !== undefined && !info.isFile() && !info.isCharacterDevice())
      throw new UsageError(`${flag} ${path}: is ${fileKind(info)}, not a file`, flag);
    try {
      // A file there is written in place (/dev/null, in a folder only root may write); a new one
      // is made in its folder.
      accessSync(info === undefined ? dirname(full) : full, constants.W_OK);
    } catch {
      throw new UsageError(
        `${flag} ${path}: cannot write there (no such directory, or no permission)`,
        flag,
      );
    }
    return new OutputFile(path, flag, null);
  }

  /** Writes `text` whole; a usage error when it cannot (a full disk, a reader gone). */
  write(text: string, after: string): void {
    if (this.held !== null) closeSync(withReader(this.path, this.flag, after));
    try {
      writeFileSync(this.path, text);
    } catch (e) {
      // The path is the user's (a full disk, no permission, a reader gone): theirs to fix.
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new UsageError(
        `${this.flag} ${this.path}: cannot be written (${why})${after}`,
        this.flag,
      );
    }
  }

  close(): void {
    if (this.held !== null) closeSync(this.held);
    this.held = null;
  }
}

/** The FIFO opened to write, without waiting; a usage error when no one has it open to read. */
function withReader(path: string, flag: string, after = ''): number {
  try {
    return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENXIO')
      throw new UsageError(`${flag} ${path}: cannot be written (${code})${after}`, flag);
    throw new UsageError(
      `${flag} ${path}: is a FIFO that nobody reads (start its reader first, as --trace >(gzip > trace.json.gz) does)${after}`,
      flag,
    );
  }
}
