/**
 * Files a user names for the host to read (a workload or graph document, a `--config`, a kept
 * token) are read only when they are regular files, within a byte limit. The file is opened
 * without blocking and looked at before a byte is read: a FIFO blocked the open for good (as
 * `cat` does), /dev/zero was read up to the limit, and a directory or a device is no document.
 * What cannot be opened at all (ENOENT, EACCES, ELOOP) is thrown as Node's own error, for the
 * caller to name.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Read in pieces of this size, so a file growing while it is read stops at the limit. */
const CHUNK = 1 << 20;

/** What `info` is, said for a message ("is a FIFO (named pipe), not a regular file"). */
export function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'a regular file';
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them; anything else is refused
 * with `refuse(why)` (why: "is a FIFO (named pipe), not a regular file", "is 300 bytes, over the
 * limit of 256"), the caller's coded error.
 */
export function readPlainFile(
  path: string,
  maxBytes: number,
  refuse: (why: string) => Error,
): Buffer {
  // O_NONBLOCK: opening a FIFO with no writer returns at once rather than waiting for one. It
  // changes nothing for a regular file. (Windows has neither the flag nor FIFOs.)
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw refuse(`is ${fileKind(info)}, not a regular file`);
    const over = (bytes: number) => refuse(`is ${bytes} bytes, over the limit of ${maxBytes}`);
    if (info.size > maxBytes) throw over(info.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw over(total);
      chunks.push(n === CHUNK ? chunk : chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}
