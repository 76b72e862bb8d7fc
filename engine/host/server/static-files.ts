/**
 * Serves the built renderer (`dist/renderer`) read-only: resolved paths must stay inside the root
 * (no `..` escapes), only plain files, with a content type from a small table.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file under `root` that `urlPath` (percent-encoded) names, or null when it would escape. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  return resolveDecoded(root, decoded);
}

/** As `resolveInside` for a path already decoded (browser mode decodes exactly once). */
export function resolveDecoded(root: string, decoded: string): string | null {
  if (decoded.includes('\0')) return null;
  const full = normalize(join(root, decoded));
  const base = normalize(root.endsWith(sep) ? root : root + sep);
  return full.startsWith(base) ? full : null;
}

/** Whether `path` is a plain file (a folder, a device or nothing at all is not served). */
export async function isPlainFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && info.isFile();
}

/** Streams the file with its headers; answers 404 when it is not a plain file. */
export async function sendFile(
  res: ServerResponse,
  path: string,
  headers: Record<string, string>,
  headOnly: boolean,
): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  if (headOnly) {
    res.end();
    return;
  }
  createReadStream(path)
    .on('error', () => res.destroy())
    .pipe(res);
}
