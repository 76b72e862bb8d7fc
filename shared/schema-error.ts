/**
 * How a document's bad field is named and described, for every schema we own (workloads, graph
 * documents, engine config): the path as `classes[1].arrival.rate`, the complaint in the words of
 * the error catalogue (`must be > 0`, `must be an integer`, `is required`).
 */
import type { z } from 'zod';
import { SchedLabError, type ErrorCode } from './errors.ts';

/** `['classes', 1, 'arrival', 'rate']` → `classes[1].arrival.rate`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/**
 * zod 4 keeps the offending value on an issue only when parsing with `reportInput`, so an absent
 * `input` does not mean an absent field; the default message still says what it received.
 */
function isMissing(issue: z.core.$ZodIssueInvalidType): boolean {
  if (issue.input !== undefined) return false;
  return /received undefined$/.test(issue.message);
}

function expectedType(expected: string): string {
  if (expected === 'int') return 'an integer';
  return `${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
}

function unitOf(origin: string, n: number): string {
  if (origin === 'array') return n === 1 ? 'entry' : 'entries';
  return n === 1 ? 'character' : 'characters';
}

/** One zod issue as `<requirement>` in the words of our error catalogue. */
function requirement(issue: Issue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'array' || issue.origin === 'string')
        return `must have at least ${String(issue.minimum)} ${unitOf(issue.origin, Number(issue.minimum))}`;
      return `must be ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'array' || issue.origin === 'string')
        return `must have at most ${String(issue.maximum)} ${unitOf(issue.origin, Number(issue.maximum))}`;
      return `must be ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`;
    case 'invalid_type':
      if (isMissing(issue)) return 'is required';
      // A schema's own wording (e.g. a distribution's) says more than "expected object".
      if (!issue.message.startsWith('Invalid input')) return issue.message;
      return `must be ${expectedType(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_union': {
      const options = 'options' in issue ? issue.options : undefined;
      if (options !== undefined) return `must be one of ${options.map(String).join(', ')}`;
      // A union's own wording (e.g. a distribution's) says what the forms are.
      if (!issue.message.startsWith('Invalid input')) return issue.message;
      return 'does not match any allowed form';
    }
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}

/**
 * A plain union (e.g. kernel name | module) fails every branch; the useful complaint is the one
 * from the branch whose type matched (a string that is no known kernel name, not "expected
 * object"), with its path made absolute.
 */
function bestIssue(issue: Issue): { issue: Issue; path: PropertyKey[] } {
  if (issue.code !== 'invalid_union') return { issue, path: issue.path };
  if (issue.discriminator !== undefined) return { issue, path: issue.path };
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first === undefined || (first.code === 'invalid_type' && first.path.length === 0)) continue;
    const inner = bestIssue(first);
    return { issue: inner.issue, path: [...issue.path, ...inner.path] };
  }
  return { issue, path: issue.path };
}

/**
 * `z.number().int().max(256)` at 1e308 fails `int`'s safe-integer range first; the field's own
 * maximum (256) is the limit worth naming, so a later `too_big` on the same path wins.
 */
function realLimit(issues: readonly Issue[]): Issue | undefined {
  const first = issues[0];
  if (first?.code !== 'too_big' || first.origin !== 'int') return first;
  const key = fieldPath(first.path);
  return (
    issues.find((i) => i !== first && i.code === 'too_big' && fieldPath(i.path) === key) ?? first
  );
}

/**
 * The first issue of a failed parse as a coded error naming the field (`prefix` is prepended:
 * `config` for a workload's settings; `whole` names the document when the issue is about all of
 * it). Used for workloads, graph documents and `--set` overrides alike.
 */
export function schemaError(
  error: z.ZodError,
  code: ErrorCode = 'INVALID_WORKLOAD',
  prefix: readonly PropertyKey[] = [],
  whole = 'workload',
): SchedLabError {
  const first = realLimit(error.issues);
  if (first === undefined) return new SchedLabError(code, `${whole} is invalid`);
  const { issue, path } = bestIssue(first);
  const field = fieldPath([...prefix, ...path]) || whole;
  // An unknown key names itself as the field (a misspelt `polcy`), the message its parent.
  const named =
    issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined
      ? fieldPath([...prefix, ...path, issue.keys[0]])
      : field;
  return new SchedLabError(code, `${field} ${requirement(issue)}`, named);
}

/**
 * An error about part of a document, re-said from where that part sits: a graph's
 * `edges[0].to names no node "zz"` inside a workload is `graph.edges[0].to names no node "zz"`.
 */
export function prefixField(e: SchedLabError, prefix: readonly PropertyKey[]): SchedLabError {
  const head = fieldPath(prefix);
  if (head === '') return e;
  const inner = e.field ?? '';
  const field = inner === '' ? head : inner.startsWith('[') ? head + inner : `${head}.${inner}`;
  const message =
    inner !== '' && e.message.startsWith(inner)
      ? field + e.message.slice(inner.length)
      : `${head}: ${e.message}`;
  return new SchedLabError(e.code, message, field);
}
