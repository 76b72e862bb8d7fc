/**
 * `schedlab <command> --help`: the part of the overall usage text that is about one command — its
 * lines, and the notes on the flags those lines name — so one text stays the only place a flag is
 * described.
 */

/** True when `--help` or `-h` comes before a `--` that ends the flags. */
export function asksForHelp(argv: readonly string[]): boolean {
  return flagGiven(argv, '--help', '-h');
}

/** True when one of `flags` comes before a `--` that ends the flags. */
export function flagGiven(argv: readonly string[], ...flags: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => flags.includes(a));
}

/**
 * The usage of `command` drawn from `usage` (the text `schedlab --help` prints): its entry (a line
 * indented two spaces that starts with the command, and the lines indented further below it),
 * then every note (a paragraph line starting with `--flag`, and its continuation lines) about a
 * flag the entry names. Null when `usage` has no entry for `command`.
 */
export function commandUsage(usage: string, command: string): string | null {
  const lines = usage.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
  if (start === -1) return null;
  const entry = [lines[start]!.slice(2)];
  for (const line of lines.slice(start + 1)) {
    if (!/^ {3,}\S/.test(line)) break;
    entry.push(line.slice(2));
  }
  const flags = new Set(entry.join(' ').match(/--[a-z][a-z-]*/g) ?? []);
  const commands = new Set(lines.map((l) => /^ {2}([a-z]+)(?: |$)/.exec(l)?.[1]).filter(Boolean));
  const notes: string[] = [];
  let keep = false;
  for (const line of lines.slice(lines.findIndex((l) => l === '', start))) {
    const flag = /^(--[a-z][a-z-]*)/.exec(line)?.[1];
    // A note that starts with a command's name (`serve --keep-token …`) is that command's alone.
    const owner = /^([a-z]+) /.exec(line)?.[1];
    if (flag !== undefined) keep = flags.has(flag);
    else if (owner !== undefined && commands.has(owner)) keep = owner === command;
    else if (line === '' || line.startsWith(' ')) keep = false;
    if (keep) notes.push(line);
  }
  const text = `usage: schedlab ${entry.join('\n')}`;
  return notes.length === 0 ? `${text}\n` : `${text}\n\n${notes.join('\n')}\n`;
}
