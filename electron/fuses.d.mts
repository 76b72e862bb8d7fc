import type { FuseV1Config, FuseV1Options } from '@electron/fuses';

/** The fuses a packaged app sets, each with the reason. */
export const FUSES: readonly { fuse: keyof typeof FuseV1Options; on: boolean; why: string }[];
/** The `@electron/fuses` configuration for `FUSES`. */
export function fuseConfig(): FuseV1Config;
/** Flips `FUSES` on a binary; returns the fuses that did not read back as set (empty: all set). */
export function applyFuses(path: string): Promise<string[]>;
